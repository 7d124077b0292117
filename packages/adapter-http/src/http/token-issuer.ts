/**
 * Issuing client tokens (DESIGN 5), shared by the admin API, the CLI and the
 * demo seed: a token is the environment's prefix and 43 base64url characters
 * (32 random bytes); only its SHA-256 hex is stored, the token itself is shown
 * once, to the caller.
 */
import { hash, randomBytes } from 'node:crypto';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  Client,
  Clock,
  DomainError,
  Environment,
  StorePorts,
  TokenId,
  isWellFormedToken,
  timestampOf,
  tokenPrefix,
  validationError,
} from '@debtkit/core';

/** The stored form of a token. */
// `crypto.hash` is the one-shot form: a third of createHash's cost, and it runs on every request.
export const hashToken = (token: string): string => hash('sha256', token, 'hex');

/** A fresh random token for `environment`. */
export const generateToken = (environment: Environment): string => tokenPrefix(environment) + randomBytes(32).toString('base64url');

export interface TokenIssuerDeps {
  readonly store: Pick<StorePorts, 'clients' | 'tokens'>;
  readonly clock: Clock;
}

export interface IssuedToken {
  readonly tokenId: TokenId;
  /** The secret: returned here and never again. */
  readonly token: string;
}

/**
 * Store a new token for `client`. `token` defaults to a random one; a given one
 * (the sandbox bootstrap token) must be well formed for the client's environment.
 */
export const issueToken = (
  deps: TokenIssuerDeps,
  client: Client,
  token: string = generateToken(client.environment),
): TE.TaskEither<DomainError, IssuedToken> =>
  isWellFormedToken(token, client.environment)
    ? pipe(
        deps.store.tokens.create(client.id, hashToken(token), timestampOf(deps.clock.now())),
        TE.map((record) => ({ tokenId: record.id, token })),
      )
    : TE.left(validationError(`A ${client.environment} token must be ${tokenPrefix(client.environment)} followed by 43 base64url characters`));

export interface NewClientInput {
  readonly name: string;
  readonly environment: Environment;
  /** The version the client is pinned to: the latest at creation (spec 9). */
  readonly apiVersion: string;
}

export interface CreatedClient extends IssuedToken {
  readonly client: Client;
}

/** Create a client and its first token. */
export const createClientWithToken = (deps: TokenIssuerDeps, input: NewClientInput): TE.TaskEither<DomainError, CreatedClient> =>
  pipe(
    deps.store.clients.create({
      name: input.name,
      environment: input.environment,
      api_version: input.apiVersion,
      created_at: timestampOf(deps.clock.now()),
    }),
    TE.chain((client) =>
      pipe(
        issueToken(deps, client),
        TE.map((issued) => ({ client, ...issued })),
      ),
    ),
  );
