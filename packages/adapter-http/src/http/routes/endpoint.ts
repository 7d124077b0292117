/**
 * Endpoints as data. One `Endpoint` says everything about a route:
 * method and path, which path segments are ids, the codecs of its query and
 * body, its success status and response codec, the errors it can answer, and
 * the use case it runs. `toRouteDef` turns it into a handler (decode → use case
 * → render for the requested version); the OpenAPI document is generated from
 * the same table, so the two cannot disagree.
 */
import * as t from 'io-ts';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { Application, Client, DomainError, Id, ResponseKind, strictObject } from '@debtkit/core';
import type { ErrorCode } from '../api-error.js';
import { clientOf, decodeBody, decodeQuery, noContent, parseId, respond, runUseCase } from '../route-kit.js';
import type { AppContext, RouteAuth, RouteDef } from '../app-context.js';
import { writeJson } from '../json-response.js';

export interface EndpointInput<Q, B> {
  readonly client: Client;
  readonly ids: Readonly<Record<string, Id>>;
  readonly query: Q;
  readonly body: B;
}

/** What the router and the OpenAPI document need to know about an endpoint, besides what it runs. */
export interface EndpointSpec<Q = unknown, B = unknown> {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  /** Who may call it; default `client` (resource endpoints). Must agree with the path's area. */
  readonly auth?: RouteAuth;
  /** Path parameters that are ids, in path order. */
  readonly pathIds: ReadonlyArray<string>;
  readonly query?: t.Type<Q, unknown, unknown>;
  readonly body?: t.Type<B, unknown, unknown>;
  readonly status: 200 | 201 | 204;
  /**
   * The response's codec (for the OpenAPI document) and, for versioned `/api`
   * responses, its shape (`kind`, rendered for the requested version); without
   * `kind` the body is written as it is (admin API, probes). Absent for 204.
   */
  readonly response?: { readonly kind?: ResponseKind; readonly codec: t.Mixed };
  /** Error codes this endpoint answers besides the ones every route of its area can (e.g. 401, 400 version, 500, 503). */
  readonly errors: ReadonlyArray<ErrorCode>;
  /** The success body's media type when it is not JSON (`/metrics`). */
  readonly responseMediaType?: string;
  /** A route outside `/admin` that still takes the admin token (`/metrics`). */
  readonly adminToken?: true;
}

export interface Endpoint<Q = unknown, B = unknown> extends EndpointSpec<Q, B> {
  readonly run: (app: Application, input: EndpointInput<Q, B>) => TE.TaskEither<DomainError, unknown>;
}

/** Declare an endpoint with its query and body types inferred from the codecs. */
export const endpoint = <Q = undefined, B = undefined>(e: Endpoint<Q, B>): Endpoint<unknown, unknown> =>
  e as unknown as Endpoint<unknown, unknown>;

/** No fields: a body-less operation accepts no body or `{}`, a query-less one no parameters. */
const NoFields = strictObject('EmptyBody', {}) as t.Type<unknown, unknown, unknown>;

/** What `NoFields` decodes an absent query or body to. */
const NO_FIELDS: unknown = Object.freeze({});

/** A request's ids, query and body, decoded with the endpoint's codecs (400 on anything else). */
export const decodeRequest = (ctx: AppContext, e: EndpointSpec): Omit<EndpointInput<unknown, unknown>, 'client'> => {
  const ids: Record<string, Id> = {};
  for (const name of e.pathIds) ids[name] = parseId(ctx, name);
  // An endpoint without a query (or body) codec takes none: nothing to decode when none came.
  const query = e.query === undefined && ctx.querystring === '' ? NO_FIELDS : decodeQuery(ctx, e.query ?? NoFields);
  const body =
    e.method === 'GET' || e.method === 'DELETE'
      ? undefined
      : e.body === undefined && ctx.request.body === undefined
        ? NO_FIELDS
        : decodeBody(ctx, e.body ?? NoFields);
  return { ids, query, body };
};

/** Answer with the endpoint's status: 204, the body as it is, or the body rendered for the requested version. */
export const answer = (ctx: AppContext, e: EndpointSpec, value: unknown): void => {
  if (e.response === undefined) noContent(ctx);
  else if (e.response.kind === undefined) writeJson(ctx, e.status, value);
  else respond(ctx, e.status, e.response.kind, value);
};

export const toRouteDef = (app: Application, e: Endpoint): RouteDef => ({
  method: e.method,
  path: e.path,
  auth: e.auth ?? 'client',
  handler: async function handleEndpoint(ctx: AppContext): Promise<void> {
    const client = clientOf(ctx);
    const value = await runUseCase(e.run(app, { client, ...decodeRequest(ctx, e) }));
    answer(ctx, e, value);
  },
});
