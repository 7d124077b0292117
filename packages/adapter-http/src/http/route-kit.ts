/**
 * What a route handler uses: decode the request, run a use case, answer.
 *
 * Errors have ONE mechanism: a handler reports a failure by throwing. Every
 * tool here throws an `ApiError` for a bad request, and `runUseCase` throws a use
 * case's `Left` (a `DomainError`) as one; the error handler turns it into the
 * JSON error body with the status from `ERROR_TABLE`. So a handler reads top to
 * bottom, with no error plumbing:
 *
 * ```ts
 * handler: async (ctx) => {
 *   const userId = parseId(ctx, 'id');
 *   const body = decodeBody(ctx, PatchUserBody);
 *   const user = await runUseCase(app.updateUser({ clientId: clientOf(ctx).id, userId }, body));
 *   respond(ctx, 200, 'user', user);
 * }
 * ```
 */
import type * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  Client,
  DomainError,
  idCodecOf,
  ResponseKind,
  decode,
  versioning,
  type IdKind,
  type IdOf,
  type RenderContext,
  type Versioning,
} from '@debtkit/core';
import type { AppContext } from './app-context.js';
import { ApiError, fromDomainError } from './api-error.js';
import { writeJsonBytes, writeJsonText } from './json-response.js';
import { boundedJsonText } from './routes/paged-list.js';

const PATH_ID = /^[1-9][0-9]{0,15}$/;

/**
 * The kind of id each path parameter is (docs/decisions/ids.md): an endpoint names its
 * path ids by parameter (`pathIds: ['id', 'account_id']`) and is handed them
 * with these kinds; a parameter missing here does not compile in `pathIds`.
 * `id` is always a user's (`/api/users/:id`); every other resource's id is named for it.
 */
export const PATH_ID_KINDS = {
  id: 'user',
  account_id: 'account',
  payment_plan_id: 'payment_plan',
  article_id: 'article',
  endpoint_id: 'webhook_endpoint',
  event_id: 'event',
  client_id: 'client',
  token_id: 'token',
} as const satisfies Readonly<Record<string, IdKind>>;
/** A path parameter that is an id. */
export type PathIdName = keyof typeof PATH_ID_KINDS;
/** The id a path parameter decodes to: `PathId<'account_id'>` is an `AccountId`. */
export type PathId<N extends PathIdName> = IdOf<(typeof PATH_ID_KINDS)[N]>;

/**
 * The path parameter `name` as an id of its kind (`PATH_ID_KINDS`): digits
 * without a leading zero, at most 2^53−1. Anything else (`0`, `-1`, `1.5`,
 * `abc`, `9007199254740993`) is 400.
 */
export const parseId = <N extends PathIdName>(ctx: AppContext, name: N): PathId<N> => {
  const raw = ctx.params[name];
  if (raw !== undefined && PATH_ID.test(raw)) {
    const n = Number(raw);
    // The kind's codec is `Id`'s: the same check, typed with the kind.
    const codec = idCodecOf(PATH_ID_KINDS[name]);
    if (codec.is(n)) return n;
  }
  throw new ApiError('validation_error', `Invalid path parameter ${name}`, [
    { path: name, message: 'must be a positive integer id (1 to 9007199254740991)' },
  ]);
};

const orThrow = <A>(result: E.Either<DomainError, A>): A => {
  if (E.isLeft(result)) throw fromDomainError(result.left);
  return result.right;
};

/**
 * The JSON body decoded with `codec`; a request without a body decodes as `{}`.
 * With a registry and the request's version, a body sent in an older version is
 * first validated with that version's codec (its errors name its own fields)
 * and migrated forward to the latest shape (registry/versioning/versions.ts).
 */
export const decodeBody = <A, O>(
  ctx: AppContext,
  codec: t.Type<A, O, unknown>,
  versions?: Pick<Versioning, 'latest' | 'migrateRequest'>,
  version?: string,
): A => {
  const body: unknown = ctx.state.body ?? {};
  const migrated =
    versions === undefined || version === undefined || version === versions.latest
      ? body
      : orThrow(versions.migrateRequest(codec.name, body, version));
  return orThrow(decode(codec, 'request body')(migrated));
};

/** The query string decoded with `codec` (values are strings; a repeated key is an array). */
export const decodeQuery = <A, O>(ctx: AppContext, codec: t.Type<A, O, unknown>): A =>
  orThrow(decode(codec, 'query string')({ ...ctx.query }));

/** The use case's result, or its error thrown as an `ApiError`. */
// A promise chain, not an async function: every request runs it, one step fewer (docs/performance.md).
export const runUseCase = <A>(task: TE.TaskEither<DomainError, A>): Promise<A> => task().then(orThrow);

/** The authenticated client of an `/api` request (authentication guarantees it). */
export const clientOf = (ctx: AppContext): Client => {
  const client = ctx.state.client;
  if (client === undefined) throw new Error(`clientOf: no authenticated client on ${ctx.method} ${ctx.path}`);
  return client;
};

/**
 * Answer with `body`, built in the latest shape, rendered for the request's API
 * version (with `context`: what older shapes need that the body lacks); a list ends early rather than pass 1 MiB (docs/decisions/tenancy.md, paged-list.ts).
 * With the app's render cache (`ctx.state.renderCache`, render-cache.ts), the
 * bytes of a resource that cannot change are serialised once per version, and
 * what was written is left on `ctx.state.rendered` for the compression step.
 */
export const respond = (ctx: AppContext, status: number, kind: ResponseKind, body: unknown, context?: RenderContext): void => {
  const version = ctx.state.apiVersion ?? versioning.latest;
  const cache = ctx.state.renderCache;
  if (cache === undefined) return writeJsonText(ctx, status, boundedJsonText(versioning.render(kind, body, version, context)));
  const rendered = cache.render(kind, body, version, undefined, context);
  if ('text' in rendered) return writeJsonText(ctx, status, rendered.text, rendered.bytes);
  writeJsonBytes(ctx, status, rendered.data);
  if (rendered.key !== undefined) ctx.state.rendered = { data: rendered.data, key: rendered.key };
};

/** Answer 204 with no body. */
export const noContent = (ctx: AppContext): void => {
  ctx.status = 204;
};
