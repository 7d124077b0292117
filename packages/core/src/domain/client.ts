/**
 * Clients (integrating applications) and their bearer tokens (DESIGN 5).
 */
import * as t from 'io-ts';
import { Id, Timestamp, nullable } from './primitives.js';

export const Environment = t.keyof({ sandbox: null, production: null }, 'Environment');
export type Environment = t.TypeOf<typeof Environment>;

export const Client = t.type(
  {
    id: Id,
    name: t.string,
    environment: Environment,
    api_version: t.string,
    created_at: Timestamp,
  },
  'Client',
);
export type Client = t.TypeOf<typeof Client>;

/** A stored token: only the SHA-256 hash (hex) of the secret is kept. */
export const TokenRecord = t.type(
  {
    id: Id,
    client_id: Id,
    hash: t.string,
    created_at: Timestamp,
    revoked_at: nullable(Timestamp),
  },
  'TokenRecord',
);
export type TokenRecord = t.TypeOf<typeof TokenRecord>;

/** The token prefix of an environment: `dk_sandbox_` or `dk_live_`. */
export const tokenPrefix = (env: Environment): string => (env === 'sandbox' ? 'dk_sandbox_' : 'dk_live_');

/** Shape of a token: the environment prefix and 43 base64url characters (32 random bytes). */
export const isWellFormedToken = (token: string, env: Environment): boolean =>
  token.startsWith(tokenPrefix(env)) && /^[A-Za-z0-9_-]{43}$/.test(token.slice(tokenPrefix(env).length));
