/**
 * Resource endpoints as data. One `Endpoint` says everything about a route:
 * method and path, which path segments are ids, the codecs of its query and
 * body, its success status and response codec, the errors it can answer, and
 * the use case it runs. `toRouteDef` turns it into a handler (decode → use case
 * → render for the requested version); the OpenAPI document is generated from
 * the same table, so the two cannot disagree.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { Application, Client, DomainError, Id, ResponseKind, decode, strictObject, validationError, versioning } from '@debtkit/core';
import { ApiError, ErrorCode, fromDomainError } from '../api-error.js';
import type { AppContext, RouteDef } from '../app-context.js';

export interface EndpointInput<Q, B> {
  readonly client: Client;
  readonly ids: Readonly<Record<string, Id>>;
  readonly query: Q;
  readonly body: B;
}

export interface Endpoint<Q = unknown, B = unknown> {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** Path parameters that are ids, in path order. */
  readonly pathIds: ReadonlyArray<string>;
  readonly query?: t.Type<Q, unknown, unknown>;
  readonly body?: t.Type<B, unknown, unknown>;
  readonly status: 200 | 201 | 204;
  /** The response shape (for versioning) and its codec (for the OpenAPI document); absent for 204. */
  readonly response?: { readonly kind: ResponseKind; readonly codec: t.Mixed };
  /** Error codes this endpoint answers besides the ones every `/api` route can (401, 400 version, 500, 503). */
  readonly errors: ReadonlyArray<ErrorCode>;
  readonly run: (app: Application, input: EndpointInput<Q, B>) => TE.TaskEither<DomainError, unknown>;
}

/** Declare an endpoint with its query and body types inferred from the codecs. */
export const endpoint = <Q = undefined, B = undefined>(e: Endpoint<Q, B>): Endpoint<unknown, unknown> =>
  e as unknown as Endpoint<unknown, unknown>;

const ID = /^[1-9][0-9]{0,15}$/;

/** A path id: `^[1-9][0-9]{0,15}$` and at most 2^53−1 (DESIGN 4), else 400. */
export const parsePathId = (name: string, raw: string | undefined): E.Either<DomainError, Id> => {
  const n = raw !== undefined && ID.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(n)
    ? E.right(n as Id)
    : E.left(validationError(`Invalid path parameter ${name}`, [{ path: name, message: 'must be a positive integer id (1 to 9007199254740991)' }]));
};

/** A body-less operation accepts no body, or an empty JSON object. */
const NoBody = strictObject('EmptyBody', {}) as t.Type<object, unknown, unknown>;

const orThrow = <A>(e: E.Either<DomainError, A>): A => {
  if (E.isLeft(e)) throw fromDomainError(e.left);
  return e.right;
};

const hasBody = (ctx: AppContext): boolean =>
  ctx.request.length > 0 || ctx.request.headers['transfer-encoding'] !== undefined;

export const toRouteDef = (app: Application, e: Endpoint): RouteDef => ({
  method: e.method,
  path: e.path,
  auth: 'client',
  handler: async function handleEndpoint(ctx: AppContext): Promise<void> {
    const client = ctx.state.client;
    if (client === undefined) throw new ApiError('unauthorized', 'Authentication required');
    const ids: Record<string, Id> = {};
    for (const name of e.pathIds) ids[name] = orThrow(parsePathId(name, ctx.params[name]));
    const query = orThrow(decode<unknown, unknown>(e.query ?? NoBody, 'query parameters', 'query')({ ...ctx.query }));
    const raw = (ctx.request as { body?: unknown }).body;
    const body =
      e.body !== undefined
        ? orThrow(decode(e.body)(hasBody(ctx) ? raw : undefined))
        : hasBody(ctx)
          ? orThrow(decode(NoBody)(raw))
          : undefined;
    const result = await e.run(app, { client, ids, query, body })();
    const value = orThrow(result);
    ctx.status = e.status;
    if (e.response !== undefined) {
      ctx.body = versioning.render(e.response.kind, value, ctx.state.apiVersion ?? versioning.latest);
    }
  },
});
