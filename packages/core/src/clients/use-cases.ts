/**
 * Clients and their bearer tokens (docs/decisions/tenancy.md, docs/operations.md): creating a client with its
 * first token, moving it to another API version, issuing, listing, rolling and revoking tokens, the operators'
 * audit log of those changes, and finding the client a presented token belongs to. A token is the environment's prefix and a random secret;
 * only its hash is stored, and the token itself is returned once, to the caller.
 * Hashing and randomness come through ports, so core stays free of I/O.
 */
import type * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { Clock } from '../shared/clock.js';
import type { ClientRepository } from './client-repository.js';
import type { TokenRepository } from './token-repository.js';
import type { AuditFilter, AuditLog } from './audit-log.js';
import type { TokenHasher } from './token-hasher.js';
import type { SecretGenerator } from '../shared/secret-generator.js';
import type { Page } from '../shared/paging.js';
import {
  type Client,
  type Environment,
  type TokenRecord,
  type TokenSummary,
  DEFAULT_ROLL_EXPIRY_SECONDS,
  MAX_ROLL_EXPIRY_SECONDS,
  isWellFormedToken,
  tokenPrefix,
  tokenSummaryOf,
  tokenWorksAt,
} from './client.js';
import {
  AUDIT_RETENTION_MS,
  NO_REQUEST,
  auditEventOf,
  type AuditAction,
  type AuditActor,
  type AuditEvent,
  type AuditTarget,
} from './audit.js';
import {
  conflict,
  notFound,
  validationError,
  type ValidationError,
  type NotFound,
  type Conflict,
  type Unavailable,
  type StoreError,
} from '../shared/errors.js';
import { type ClientId, type Timestamp, type TokenId, timestampOf } from '../shared/primitives.js';
import { type PageInput, inTransaction, mapPage, nowStamp, orNotFound, toPageRequest, outsideTransaction } from '../shared/deps.js';
import { AuditAction as AuditActionCodec } from './audit.js';
import { boundedInt, boundedString, strictObject } from '../shared/codec.js';
import type { Versioning } from '../shared/versioning/version-change.js';
import { pageFields } from '../shared/requests.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';

/** The ports the client and token use cases read, and nothing else. */
export interface ClientAccessDeps {
  readonly clients: ClientRepository;
  readonly tokens: TokenRepository;
  /** Every admin change appends its record here, in its own transaction (docs/operations.md). */
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly tokenHasher: TokenHasher;
  readonly secrets: SecretGenerator;
  /** Creating a client and its first token is one transaction (docs/decisions/transactions.md). */
  readonly unitOfWork: UnitOfWork;
  /** The versions a client may be moved to; default: the production registry. */
  readonly versioning: Versioning;
}

export interface IssuedToken {
  readonly tokenId: TokenId;
  /** The secret: returned here and never again. */
  readonly token: string;
}

export interface CreatedClient extends IssuedToken {
  readonly client: Client;
}

export interface RolledToken extends IssuedToken {
  /** The token rolled, and when it stops working. */
  readonly replaces: { readonly tokenId: TokenId; readonly expiresAt: Timestamp };
}

/** A token that authenticated, with its client and when it stops working (`null`: it does not expire). */
export interface AuthenticatedToken {
  readonly client: Client;
  readonly expiresAt: Timestamp | null;
}

export interface NewClientInput {
  readonly name: string;
  readonly environment: Environment;
  /** The version the client is pinned to: the latest at creation. */
  readonly apiVersion: string;
}

/** `POST /admin/tokens/{token_id}/roll`: how long the old token keeps working, in seconds (default a day). */
export const RollTokenBody = strictObject('RollTokenBody', {}, { expires_in_seconds: boundedInt(0, MAX_ROLL_EXPIRY_SECONDS) });
export type RollTokenBody = t.TypeOf<typeof RollTokenBody>;

/** `GET /admin/audit_events`: a page, optionally of one action. */
export const AuditEventsQuery = strictObject('AuditEventsQuery', {}, { ...pageFields, action: AuditActionCodec });
export type AuditEventsQuery = t.TypeOf<typeof AuditEventsQuery>;

const malformed = (environment: Environment): ValidationError =>
  validationError(`A ${environment} token must be ${tokenPrefix(environment)} followed by 43 base64url characters`);

/** A fresh token for `environment`: the prefix and the generator's secret. */
export const newToken = (secrets: SecretGenerator, environment: Environment): string => tokenPrefix(environment) + secrets.secret();

/** Append the audit record of an admin change (inside the change's transaction). */
const audit = (
  tx: Pick<ClientAccessDeps, 'audit' | 'clock'>,
  actor: AuditActor,
  action: AuditAction,
  target: AuditTarget,
): TE.TaskEither<StoreError, void> => {
  const now = tx.clock.now();
  return pipe(
    tx.audit.append({
      at: timestampOf(now),
      action,
      target,
      request_id: actor.request_id,
      ip: actor.ip,
      expires_at: timestampOf(new Date(now.getTime() + AUDIT_RETENTION_MS)),
    }),
    TE.map(() => undefined),
  );
};

/** Store a new token of `client` (its hash) and audit it as issued. */
const storeToken =
  (deps: Pick<ClientAccessDeps, 'tokens' | 'audit' | 'clock' | 'tokenHasher'>, actor: AuditActor) =>
  (client: Client, token: string): TE.TaskEither<ValidationError | StoreError, IssuedToken> =>
    isWellFormedToken(token, client.environment)
      ? pipe(
          deps.tokens.create(client.id, deps.tokenHasher.hash(token), nowStamp(deps.clock)),
          TE.chainFirstW((record) => audit(deps, actor, 'token.issued', { type: 'token', id: record.id })),
          TE.map((record) => ({ tokenId: record.id, token })),
        )
      : TE.left(malformed(client.environment));

/**
 * Issue a token for the client. `token` defaults to a random one; a given one
 * (the sandbox bootstrap token an operator fixes) must be well formed for the client's environment.
 */
export const issueToken =
  (deps: ClientAccessDeps) =>
  (
    clientId: ClientId,
    token?: string,
    actor: AuditActor = NO_REQUEST,
  ): TE.TaskEither<ValidationError | NotFound | StoreError, IssuedToken> =>
    // One transaction: the client read, the token and its audit record written together (every change is one, docs/decisions/transactions.md).
    inTransaction(deps, (tx) =>
      pipe(
        tx.clients.findById(clientId),
        orNotFound('Client'),
        TE.chainW((client) => storeToken(tx, actor)(client, token ?? newToken(deps.secrets, client.environment))),
      ),
    );

/** Create a client and its first token (random, or `token` when given). */
export const createClient =
  (deps: ClientAccessDeps) =>
  (input: NewClientInput, token?: string, actor: AuditActor = NO_REQUEST): TE.TaskEither<ValidationError | StoreError, CreatedClient> =>
    token !== undefined && !isWellFormedToken(token, input.environment)
      ? TE.left(malformed(input.environment))
      : inTransaction(deps, (tx) =>
          pipe(
            tx.clients.create({
              name: input.name,
              environment: input.environment,
              api_version: input.apiVersion,
              created_at: nowStamp(deps.clock),
            }),
            TE.chainFirstW((client) => audit(tx, actor, 'client.created', { type: 'client', id: client.id })),
            TE.chainW((client) =>
              pipe(
                storeToken(tx, actor)(client, token ?? newToken(deps.secrets, client.environment)),
                TE.map((issued) => ({ client, ...issued })),
              ),
            ),
          ),
        );

/**
 * Move a client to another known API version (docs/decisions/versioning.md, docs/operations.md): its requests
 * without `API-Version`, and the webhook endpoints it creates from now on
 * without one, use it. One transaction: the client and its audit record
 * (`client.version_changed`). 400 naming `api_version` for a version this
 * build does not know; `not_found` for an unknown client. Moving a client to
 * the version it is on changes nothing and records nothing.
 */
export const changeClientApiVersion =
  (deps: Pick<ClientAccessDeps, 'clock' | 'unitOfWork' | 'versioning'>) =>
  (
    clientId: ClientId,
    apiVersion: string,
    actor: AuditActor = NO_REQUEST,
  ): TE.TaskEither<ValidationError | NotFound | StoreError, Client> => {
    const versions = deps.versioning;
    return !versions.isKnown(apiVersion)
      ? TE.left(
          validationError('Unknown API version', [
            { path: 'api_version', message: `must be a known API version: ${versions.known.join(', ')}` },
          ]),
        )
      : inTransaction(deps, (tx) =>
          pipe(
            tx.clients.findById(clientId),
            orNotFound('Client'),
            TE.chainW((client) =>
              client.api_version === apiVersion
                ? TE.right(client)
                : pipe(
                    tx.clients.setApiVersion(clientId, apiVersion),
                    orNotFound('Client'),
                    TE.chainFirstW(() => audit(tx, actor, 'client.version_changed', { type: 'client', id: clientId })),
                  ),
            ),
          ),
        );
  };

/** `PATCH /admin/clients/{client_id}`: the version to move the client to. */
export const PatchClientBody = strictObject('PatchClientBody', { api_version: boundedString(1, 32) });
export type PatchClientBody = t.TypeOf<typeof PatchClientBody>;

export const listClients =
  (deps: Pick<ClientAccessDeps, 'clients'>) =>
  (page: PageInput): TE.TaskEither<Unavailable, Page<Client>> =>
    outsideTransaction(deps.clients.list(toPageRequest(page)));

/**
 * The client a presented token belongs to, and when the token stops working:
 * `some` when the token is well formed for `environment`, known, not revoked,
 * not past its `expires_at` (by the clock), and its client is of that
 * environment; `none` for every other token, so a caller cannot tell which of
 * those it was. A store failure stays an error: "the store is down" must not
 * read as "your token is wrong".
 */
export const authenticateTokenWithExpiry =
  (deps: Pick<ClientAccessDeps, 'clients' | 'tokens' | 'tokenHasher' | 'clock'>) =>
  (environment: Environment, token: string): TE.TaskEither<Unavailable, O.Option<AuthenticatedToken>> =>
    !isWellFormedToken(token, environment)
      ? TE.right(O.none)
      : pipe(
          outsideTransaction(deps.tokens.findByHash(deps.tokenHasher.hash(token))),
          TE.chainW(
            O.match(
              () => TE.right(O.none),
              (record) =>
                !tokenWorksAt(record, deps.clock.now())
                  ? TE.right(O.none)
                  : pipe(
                      outsideTransaction(deps.clients.findById(record.client_id)),
                      TE.map(O.filter((client) => client.environment === environment)),
                      TE.map(O.map((client): AuthenticatedToken => ({ client, expiresAt: record.expires_at }))),
                    ),
            ),
          ),
        );

/** `authenticateTokenWithExpiry`, the client only. */
export const authenticateToken =
  (deps: Pick<ClientAccessDeps, 'clients' | 'tokens' | 'tokenHasher' | 'clock'>) =>
  (environment: Environment, token: string): TE.TaskEither<Unavailable, O.Option<Client>> =>
    pipe(authenticateTokenWithExpiry(deps)(environment, token), TE.map(O.map((found) => found.client)));

/**
 * Revoke a token: it stops working at once. Revoking twice keeps the first time
 * (and audits once); `not_found` when there is no such token.
 */
export const revokeToken =
  (deps: Pick<ClientAccessDeps, 'clock' | 'unitOfWork'>) =>
  (tokenId: TokenId, actor: AuditActor = NO_REQUEST): TE.TaskEither<NotFound | StoreError, void> =>
    inTransaction(deps, (tx) =>
      pipe(
        tx.tokens.findById(tokenId),
        orNotFound('Token'),
        TE.chainW((record) =>
          record.revoked_at !== null
            ? TE.right(undefined)
            : pipe(
                tx.tokens.revoke(tokenId, nowStamp(deps.clock)),
                orNotFound('Token'),
                TE.chainW(() => audit(tx, actor, 'token.revoked', { type: 'token', id: tokenId })),
              ),
        ),
      ),
    );

/** The client's tokens (never their secrets), paged; `not_found` when there is no such client. */
export const listTokens =
  (deps: Pick<ClientAccessDeps, 'clients' | 'tokens'>) =>
  (clientId: ClientId, page: PageInput): TE.TaskEither<NotFound | Unavailable, Page<TokenSummary>> =>
    pipe(
      outsideTransaction(deps.clients.findById(clientId)),
      orNotFound('Client'),
      TE.chainW(() => outsideTransaction(deps.tokens.listByClient(clientId, toPageRequest(page)))),
      TE.map(mapPage(tokenSummaryOf)),
    );

/** A token that no longer works (revoked, or past its expiry) is gone for the admin API: nothing to roll. */
const rollable = (record: TokenRecord, now: Date): E.Either<NotFound | Conflict, TokenRecord> =>
  !tokenWorksAt(record, now)
    ? E.left(notFound('Token not found (revoked or expired)'))
    : record.expires_at !== null
      ? E.left(conflict(`The token was already rolled: it expires at ${record.expires_at}`))
      : E.right(record);

/**
 * Roll a token (key rotation without downtime, docs/operations.md): a new token for the
 * same client works at once; the old one keeps working for
 * `expiresInSeconds` (default a day; 0: it stops at once), then stops on every
 * process. One transaction: the old token's expiry, the new token and their two
 * audit records (`token.rolled` for the old, `token.issued` for the new).
 * `not_found` for an unknown, revoked or expired token; `conflict` for a token
 * already rolled (it is expiring: roll its replacement instead).
 */
export const rollToken =
  (deps: ClientAccessDeps) =>
  (
    tokenId: TokenId,
    expiresInSeconds: number = DEFAULT_ROLL_EXPIRY_SECONDS,
    actor: AuditActor = NO_REQUEST,
  ): TE.TaskEither<ValidationError | NotFound | StoreError, RolledToken> =>
    !Number.isInteger(expiresInSeconds) || expiresInSeconds < 0 || expiresInSeconds > MAX_ROLL_EXPIRY_SECONDS
      ? TE.left(
          validationError(`expires_in_seconds must be an integer from 0 to ${MAX_ROLL_EXPIRY_SECONDS}`, [
            { path: 'expires_in_seconds', message: `must be an integer from 0 to ${MAX_ROLL_EXPIRY_SECONDS}` },
          ]),
        )
      : inTransaction(deps, (tx) => {
          const now = deps.clock.now();
          const expiresAt = timestampOf(new Date(now.getTime() + expiresInSeconds * 1000));
          return pipe(
            tx.tokens.findById(tokenId),
            orNotFound('Token'),
            TE.chainEitherKW((record) => rollable(record, now)),
            TE.chainW((record) =>
              pipe(
                tx.clients.findById(record.client_id),
                orNotFound('Client'),
                TE.chainFirstW(() =>
                  pipe(
                    tx.tokens.expire(tokenId, expiresAt),
                    orNotFound('Token'),
                    // The record as stored decides: a concurrent roll or revoke that committed first shows here.
                    TE.chainEitherKW((stored) =>
                      stored.expires_at === expiresAt && stored.revoked_at === null ? E.right(stored) : rollable(stored, now),
                    ),
                  ),
                ),
              ),
            ),
            TE.chainFirstW(() => audit(tx, actor, 'token.rolled', { type: 'token', id: tokenId })),
            TE.chainW((client) => storeToken(tx, actor)(client, newToken(deps.secrets, client.environment))),
            TE.map((issued): RolledToken => ({ ...issued, replaces: { tokenId, expiresAt } })),
          );
        });

/** The audit log, oldest first, paged and optionally filtered by action; expired records are not answered. */
export const listAuditEvents =
  (deps: Pick<ClientAccessDeps, 'audit' | 'clock'>) =>
  (page: PageInput, filter: AuditFilter = {}): TE.TaskEither<Unavailable, Page<AuditEvent>> =>
    pipe(outsideTransaction(deps.audit.list(toPageRequest(page), filter, deps.clock.now())), TE.map(mapPage(auditEventOf)));

/** The client and token use cases bound to their ports. */
export const createClientAccess = (deps: ClientAccessDeps) => ({
  createClient: createClient(deps),
  listClients: listClients(deps),
  changeClientApiVersion: changeClientApiVersion(deps),
  issueToken: issueToken(deps),
  authenticateToken: authenticateToken(deps),
  authenticateTokenWithExpiry: authenticateTokenWithExpiry(deps),
  revokeToken: revokeToken(deps),
  listTokens: listTokens(deps),
  rollToken: rollToken(deps),
  listAuditEvents: listAuditEvents(deps),
});

export type ClientAccess = ReturnType<typeof createClientAccess>;
