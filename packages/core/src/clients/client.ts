/**
 * Clients (integrating applications) and their bearer tokens (docs/decisions/tenancy.md).
 */
import * as t from 'io-ts';
import { ClientId, TokenId, Timestamp, nullable } from '../shared/primitives.js';

export const Environment = t.keyof({ sandbox: null, production: null }, 'Environment');
export type Environment = t.TypeOf<typeof Environment>;

export const Client = t.type(
  {
    id: ClientId,
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
    id: TokenId,
    client_id: ClientId,
    hash: t.string,
    created_at: Timestamp,
    revoked_at: nullable(Timestamp),
    /**
     * When a rolled token stops working (docs/operations.md, round 4); `null`: it does not
     * expire. Records stored before the field existed are read as `null` by each store.
     */
    expires_at: nullable(Timestamp),
  },
  'TokenRecord',
);
export type TokenRecord = t.TypeOf<typeof TokenRecord>;

/** A token as the admin API lists it: never its secret, nor its hash. */
export const TokenSummary = t.type(
  {
    id: TokenId,
    created_at: Timestamp,
    expires_at: nullable(Timestamp),
    revoked_at: nullable(Timestamp),
  },
  'TokenSummary',
);
export type TokenSummary = t.TypeOf<typeof TokenSummary>;

export const tokenSummaryOf = (record: TokenRecord): TokenSummary => ({
  id: record.id,
  created_at: record.created_at,
  expires_at: record.expires_at,
  revoked_at: record.revoked_at,
});

/** Whether the token still authenticates at `now`: not revoked, and not past its `expires_at`. */
export const tokenWorksAt = (record: Pick<TokenRecord, 'revoked_at' | 'expires_at'>, now: Date): boolean =>
  record.revoked_at === null && (record.expires_at === null || Date.parse(record.expires_at) > now.getTime());

/** How long a rolled token may keep working: 0 to 7 days, in seconds (docs/operations.md). */
export const MAX_ROLL_EXPIRY_SECONDS = 604_800;
export const DEFAULT_ROLL_EXPIRY_SECONDS = 86_400;

/** The token prefix of an environment: `dk_sandbox_` or `dk_live_`. */
export const tokenPrefix = (env: Environment): string => (env === 'sandbox' ? 'dk_sandbox_' : 'dk_live_');

/** Shape of a token: the environment prefix and 43 base64url characters (32 random bytes). */
export const isWellFormedToken = (token: string, env: Environment): boolean =>
  token.startsWith(tokenPrefix(env)) && /^[A-Za-z0-9_-]{43}$/.test(token.slice(tokenPrefix(env).length));
