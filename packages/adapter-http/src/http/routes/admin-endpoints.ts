/**
 * The admin API (docs/operations.md): operators create clients, issue, list, roll and
 * revoke their tokens, and read the audit log of those changes, through core's
 * client use cases. Not versioned; bearer = the admin token. Every change is
 * audited with the admin request's id and client address (`auditActorOf`), in
 * the change's own transaction. Entries of the built-in table (builtin-endpoints.ts),
 * so the router and the OpenAPI document are built from one description.
 */
import * as t from 'io-ts';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  AuditEvent,
  AuditEventsQuery,
  Client,
  Id,
  PageQuery,
  PatchClientBody,
  RollTokenBody,
  Timestamp,
  TokenSummary,
  boundedString,
  strictObject,
  versioning,
  type AuditActor,
  type DomainError,
} from '@debtkit/core';
import type { AppContext } from '../app-context.js';
import { runUseCase, type PathIdName } from '../route-kit.js';
import type { BuiltinEndpoint, BuiltinServices } from './builtin-endpoint.js';
import {
  type Checked,
  type DeclaredErrors,
  type EndpointInput,
  type EndpointSpec,
  type NoInput,
  answer,
  decodeRequest,
} from './endpoint.js';
import type { ErrorCode } from '../api-error.js';

export const CreateClientBody = strictObject('CreateClientBody', { name: boundedString(1, 100, 'string(1..100)') });
export type CreateClientBody = t.TypeOf<typeof CreateClientBody>;

/** A client token, as the admin API shows it once (docs/decisions/tenancy.md). */
const Token = t.refinement(t.string, (s) => /^dk_(sandbox|live)_[A-Za-z0-9_-]{43}$/.test(s), 'Token');

/**
 * Who asked, for the audit log: the request's id, and the client's address
 * (`ctx.ip`, the connection's peer: Koa's `proxy` is off). The one place the
 * admin API reads an address: where the pipeline resolves the client behind
 * trusted proxies, this reads that instead.
 */
export const auditActorOf = (ctx: AppContext): AuditActor => ({ request_id: ctx.state.requestId, ip: ctx.ip === '' ? null : ctx.ip });

/** An admin endpoint, typed as a resource endpoint is: its result must match its response codec, its `errors` its use case's (`Checked`). */
interface TypedAdminEndpoint<Q, B, R, P extends PathIdName, E extends DomainError, L extends ReadonlyArray<ErrorCode>> extends EndpointSpec<
  Q,
  B,
  R,
  P
> {
  readonly errors: L;
  readonly run: (
    services: BuiltinServices,
    input: Omit<EndpointInput<Q, B, P>, 'client' | 'apiVersion'>,
    actor: AuditActor,
  ) => TE.TaskEither<E, NoInfer<R>>;
}

const admin = <
  Q = NoInput,
  B = NoInput,
  R = void,
  P extends PathIdName = never,
  E extends DomainError = never,
  const L extends ReadonlyArray<ErrorCode> = readonly [],
>(
  e: TypedAdminEndpoint<Q, B, R, P, E, L>,
): Checked<BuiltinEndpoint, L[number], DeclaredErrors<E, 'admin'>> => {
  const { run, ...spec } = e;
  const entry: BuiltinEndpoint = {
    ...spec,
    auth: 'admin',
    handler: (services) =>
      async function handleAdmin(ctx: AppContext): Promise<void> {
        answer(ctx, e, await runUseCase(run(services, decodeRequest(ctx, e), auditActorOf(ctx))));
      },
  };
  // The list was checked against `E` by the result type: at run time the entry is always a `BuiltinEndpoint`.
  return entry as Checked<BuiltinEndpoint, L[number], DeclaredErrors<E, 'admin'>>;
};

const AUDITED = 'Recorded in the audit log (`GET /admin/audit_events`).';

export const ADMIN_ENDPOINTS: ReadonlyArray<BuiltinEndpoint> = [
  admin({
    method: 'POST',
    path: '/admin/clients',
    summary: 'Create a client and its first token',
    tag: 'Admin',
    pathIds: [],
    body: CreateClientBody,
    description: `The client is created in the server's environment and pinned to the latest API version. The token is shown once. ${AUDITED}`,
    status: 201,
    response: { codec: t.type({ client: Client, token: Token }, 'CreatedClient') },
    errors: ['validation_error', 'conflict'],
    run: (s, i, actor) =>
      pipe(
        s.clientAccess.createClient({ name: i.body.name, environment: s.environment, apiVersion: versioning.latest }, undefined, actor),
        TE.map((created) => ({ client: created.client, token: created.token })),
      ),
  }),
  admin({
    method: 'GET',
    path: '/admin/clients',
    summary: 'List clients',
    tag: 'Admin',
    pathIds: [],
    query: PageQuery,
    status: 200,
    response: { codec: t.type({ clients: t.readonlyArray(Client), has_more: t.boolean }, 'ClientList') },
    errors: ['validation_error'],
    run: (s, i) =>
      pipe(
        s.clientAccess.listClients(i.query),
        TE.map((page) => ({ clients: page.items, has_more: page.hasMore })),
      ),
  }),
  admin({
    method: 'PATCH',
    path: '/admin/clients/:client_id',
    summary: 'Move a client to another API version',
    tag: 'Admin',
    pathIds: ['client_id'],
    body: PatchClientBody,
    description:
      `\`api_version\` must be a known version (${versioning.known.join(', ')}); anything else is 400 naming it. From the answer on, the client's requests ` +
      'without `API-Version`, and the webhook endpoints it creates without one, use it (its existing endpoints keep their own versions). ' +
      `Moving a client to the version it is on changes nothing and records nothing. 404 for an unknown client. ${AUDITED}`,
    status: 200,
    response: { codec: Client },
    errors: ['validation_error', 'not_found', 'conflict'],
    run: (s, i, actor) => s.clientAccess.changeClientApiVersion(i.ids.client_id, i.body.api_version, actor),
  }),
  admin({
    method: 'POST',
    path: '/admin/clients/:client_id/tokens',
    summary: 'Issue another token for a client',
    tag: 'Admin',
    pathIds: ['client_id'],
    // Issuing a token takes no input; a body, if sent, must be empty.
    description: `Takes no body (or an empty object). The token is shown once. ${AUDITED}`,
    status: 201,
    response: { codec: t.type({ token_id: Id, token: Token }, 'IssuedToken') },
    errors: ['validation_error', 'not_found', 'conflict'],
    run: (s, i, actor) =>
      pipe(
        s.clientAccess.issueToken(i.ids.client_id, undefined, actor),
        TE.map((issued) => ({ token_id: issued.tokenId, token: issued.token })),
      ),
  }),
  admin({
    method: 'GET',
    path: '/admin/clients/:client_id/tokens',
    summary: "List a client's tokens",
    tag: 'Admin',
    pathIds: ['client_id'],
    query: PageQuery,
    description:
      'Every token of the client, revoked and expired ones too, ascending by id: when each was created, expires (a rolled token) and was revoked. Never the token itself. 404 for an unknown client.',
    status: 200,
    response: { codec: t.type({ tokens: t.readonlyArray(TokenSummary), has_more: t.boolean }, 'TokenList') },
    errors: ['validation_error', 'not_found'],
    run: (s, i) =>
      pipe(
        s.clientAccess.listTokens(i.ids.client_id, i.query),
        TE.map((page) => ({ tokens: page.items, has_more: page.hasMore })),
      ),
  }),
  admin({
    method: 'POST',
    path: '/admin/tokens/:token_id/roll',
    summary: 'Roll a token (rotate it with an overlap)',
    tag: 'Admin',
    pathIds: ['token_id'],
    body: RollTokenBody,
    description:
      'Issues a new token for the same client, which works at once, and sets the old one to expire after `expires_in_seconds` ' +
      '(0 to 604800, default 86400; 0: it stops at once). Until then both work; from `expires_at` on the old one answers 401 on every process. ' +
      'The new token is shown once. 404 for an unknown, revoked or expired token; 409 `conflict` for a token already rolled (roll its replacement instead). ' +
      AUDITED,
    status: 201,
    response: {
      codec: t.type(
        { token_id: Id, token: Token, replaces: t.type({ token_id: Id, expires_at: Timestamp }, 'ReplacedToken') },
        'RolledToken',
      ),
    },
    errors: ['validation_error', 'not_found', 'conflict'],
    run: (s, i, actor) =>
      pipe(
        s.clientAccess.rollToken(i.ids.token_id, i.body.expires_in_seconds, actor),
        TE.map((rolled) => ({
          token_id: rolled.tokenId,
          token: rolled.token,
          replaces: { token_id: rolled.replaces.tokenId, expires_at: rolled.replaces.expiresAt },
        })),
      ),
  }),
  admin({
    method: 'DELETE',
    path: '/admin/tokens/:token_id',
    summary: 'Revoke a token',
    tag: 'Admin',
    pathIds: ['token_id'],
    description: `The token stops working at once. Revoking a revoked token answers 204 again (recorded once). ${AUDITED}`,
    status: 204,
    errors: ['validation_error', 'not_found', 'conflict'],
    run: (s, i, actor) => s.clientAccess.revokeToken(i.ids.token_id, actor),
  }),
  admin({
    method: 'GET',
    path: '/admin/audit_events',
    summary: 'The audit log',
    tag: 'Admin',
    pathIds: [],
    query: AuditEventsQuery,
    description:
      'Every admin change (client created or moved to another version; token issued, rolled or revoked), oldest first, kept a year: when, what, on which client or token, ' +
      'and the admin request that made it (`request_id`, `ip`; both null when the `debtkit` CLI made it). Never a token. Filter with `action`.',
    status: 200,
    response: { codec: t.type({ audit_events: t.readonlyArray(AuditEvent), has_more: t.boolean }, 'AuditEventList') },
    errors: ['validation_error'],
    run: (s, i) =>
      pipe(
        s.clientAccess.listAuditEvents(i.query, i.query.action === undefined ? {} : { action: i.query.action }),
        TE.map((page) => ({ audit_events: page.items, has_more: page.hasMore })),
      ),
  }),
];
