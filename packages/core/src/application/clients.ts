/**
 * Clients and their bearer tokens (DESIGN 5, 6): creating a client with its
 * first token, issuing and revoking tokens, and finding the client a presented
 * token belongs to. A token is the environment's prefix and a random secret;
 * only its hash is stored, and the token itself is returned once, to the caller.
 * Hashing and randomness come through ports, so core stays free of I/O.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { Clock } from '../ports/clock.js';
import type { ClientRepository } from '../ports/client-repository.js';
import type { TokenRepository } from '../ports/token-repository.js';
import type { TokenHasher } from '../ports/token-hasher.js';
import type { SecretGenerator } from '../ports/secret-generator.js';
import type { Page } from '../ports/paging.js';
import { type Client, type Environment, isWellFormedToken, tokenPrefix } from '../domain/client.js';
import { type DomainError, notFound, validationError } from '../domain/errors.js';
import type { ClientId, TokenId } from '../domain/primitives.js';
import { type PageInput, inTransaction, nowStamp, orNotFound, toPageRequest } from './deps.js';
import type { UnitOfWork } from '../ports/unit-of-work.js';

/** The ports the client and token use cases read, and nothing else. */
export interface ClientAccessDeps {
  readonly clients: ClientRepository;
  readonly tokens: TokenRepository;
  readonly clock: Clock;
  readonly tokenHasher: TokenHasher;
  readonly secrets: SecretGenerator;
  /** Creating a client and its first token is one transaction (DESIGN 4.6). */
  readonly unitOfWork: UnitOfWork;
}

export interface IssuedToken {
  readonly tokenId: TokenId;
  /** The secret: returned here and never again. */
  readonly token: string;
}

export interface CreatedClient extends IssuedToken {
  readonly client: Client;
}

export interface NewClientInput {
  readonly name: string;
  readonly environment: Environment;
  /** The version the client is pinned to: the latest at creation. */
  readonly apiVersion: string;
}

const malformed = (environment: Environment): DomainError =>
  validationError(`A ${environment} token must be ${tokenPrefix(environment)} followed by 43 base64url characters`);

/** A fresh token for `environment`: the prefix and the generator's secret. */
export const newToken = (secrets: SecretGenerator, environment: Environment): string => tokenPrefix(environment) + secrets.secret();

const storeToken =
  (deps: Pick<ClientAccessDeps, 'tokens' | 'clock' | 'tokenHasher'>) =>
  (client: Client, token: string): TE.TaskEither<DomainError, IssuedToken> =>
    isWellFormedToken(token, client.environment)
      ? pipe(
          deps.tokens.create(client.id, deps.tokenHasher.hash(token), nowStamp(deps.clock)),
          TE.map((record) => ({ tokenId: record.id, token })),
        )
      : TE.left(malformed(client.environment));

/**
 * Issue a token for the client. `token` defaults to a random one; a given one
 * (the sandbox bootstrap token an operator fixes) must be well formed for the client's environment.
 */
export const issueToken =
  (deps: ClientAccessDeps) =>
  (clientId: ClientId, token?: string): TE.TaskEither<DomainError, IssuedToken> =>
    // One transaction: the client read and the token written together (every change is one, DESIGN 4.6).
    inTransaction(deps, (tx) =>
      pipe(
        tx.clients.findById(clientId),
        orNotFound('Client'),
        TE.chain((client) => storeToken(tx)(client, token ?? newToken(deps.secrets, client.environment))),
      ),
    );

/** Create a client and its first token (random, or `token` when given). */
export const createClient =
  (deps: ClientAccessDeps) =>
  (input: NewClientInput, token?: string): TE.TaskEither<DomainError, CreatedClient> =>
    token !== undefined && !isWellFormedToken(token, input.environment)
      ? TE.left(malformed(input.environment))
      : inTransaction(deps, (tx) =>
          pipe(
            tx.clients.create({ name: input.name, environment: input.environment, api_version: input.apiVersion, created_at: nowStamp(deps.clock) }),
            TE.chain((client) =>
              pipe(
                storeToken(tx)(client, token ?? newToken(deps.secrets, client.environment)),
                TE.map((issued) => ({ client, ...issued })),
              ),
            ),
          ),
        );

export const listClients =
  (deps: Pick<ClientAccessDeps, 'clients'>) =>
  (page: PageInput): TE.TaskEither<DomainError, Page<Client>> =>
    deps.clients.list(toPageRequest(page));

/**
 * The client a presented token belongs to: `some` when the token is well formed
 * for `environment`, known, not revoked, and its client is of that environment;
 * `none` for every other token, so a caller cannot tell which of those it was.
 * A store failure stays an error: "the store is down" must not read as "your token is wrong".
 */
export const authenticateToken =
  (deps: Pick<ClientAccessDeps, 'clients' | 'tokens' | 'tokenHasher'>) =>
  (environment: Environment, token: string): TE.TaskEither<DomainError, O.Option<Client>> =>
    !isWellFormedToken(token, environment)
      ? TE.right(O.none)
      : pipe(
          deps.tokens.findByHash(deps.tokenHasher.hash(token)),
          TE.chain(
            O.match(
              () => TE.right(O.none),
              (record) =>
                record.revoked_at !== null
                  ? TE.right(O.none)
                  : pipe(
                      deps.clients.findById(record.client_id),
                      TE.map(O.filter((client) => client.environment === environment)),
                    ),
            ),
          ),
        );

/** Revoke a token (revoking twice keeps the first time); `not_found` when there is no such token. */
export const revokeToken =
  (deps: Pick<ClientAccessDeps, 'clock' | 'unitOfWork'>) =>
  (tokenId: TokenId): TE.TaskEither<DomainError, void> =>
    inTransaction(deps, (tx) =>
      pipe(
        tx.tokens.revoke(tokenId, nowStamp(deps.clock)),
        TE.chain(O.match(() => TE.left(notFound('Token not found')), () => TE.right(undefined))),
      ),
    );

/** The client and token use cases bound to their ports. */
export const createClientAccess = (deps: ClientAccessDeps) => ({
  createClient: createClient(deps),
  listClients: listClients(deps),
  issueToken: issueToken(deps),
  authenticateToken: authenticateToken(deps),
  revokeToken: revokeToken(deps),
});

export type ClientAccess = ReturnType<typeof createClientAccess>;
