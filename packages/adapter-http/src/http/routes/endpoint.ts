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
import {
  Application,
  Client,
  DomainError,
  RESPONSE_CODECS,
  ResponseKind,
  renderContextOf,
  strictObject,
  type Change,
  type ResponseOf,
  versioning,
} from '@debtkit/core';
import type { ErrorCode } from '../api-error.js';
import { clientOf, decodeBody, decodeQuery, noContent, parseId, respond, runUseCase, type PathId, type PathIdName } from '../route-kit.js';
import type { AppContext, RouteAuth, RouteDef } from '../app-context.js';
import { writeJson, writeJsonText } from '../json-response.js';
import { boundedJsonText } from './paged-list.js';

/** A request's path ids, keyed by the names in `pathIds`, each of its kind (`PATH_ID_KINDS`). */
export type PathIds<P extends PathIdName> = { readonly [N in P]: PathId<N> };

/** What a use case is handed: the client, the path's ids (keyed by the names in `pathIds`), the decoded query and body. */
export interface EndpointInput<Q, B, P extends PathIdName = PathIdName> {
  readonly client: Client;
  /** The request's API version (docs/decisions/versioning.md), for a use case that renders in it itself (`inRequestVersion`). */
  readonly apiVersion: string;
  readonly ids: PathIds<P>;
  readonly query: Q;
  readonly body: B;
}

/**
 * The query or body of an endpoint that declares no codec for it: `{}` (no
 * parameters, or an empty body) or, for a GET or DELETE body, `undefined`.
 */
export type NoInput = Readonly<Record<string, never>> | undefined;

/**
 * What the router and the OpenAPI document need to know about an endpoint,
 * besides what it runs. The codecs are typed with the query (`Q`), body (`B`)
 * and response (`R`) they decode and describe; the table as a whole holds
 * `EndpointSpec` with the types erased (`t.Mixed`), which is all the OpenAPI
 * document reads (`any` for erased, as `t.Mixed` is `t.Type<any, any, unknown>`).
 */
// `any` (the defaults) erases the types, as io-ts's `t.Mixed` does.
export interface EndpointSpec<Q = any, B = any, R = any, P extends PathIdName = PathIdName> {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  /** Who may call it; default `client` (resource endpoints). Must agree with the path's area. */
  readonly auth?: RouteAuth;
  /** Path parameters that are ids, in path order (each named in `PATH_ID_KINDS`). */
  readonly pathIds: ReadonlyArray<P>;
  readonly query?: Codec<Q>;
  readonly body?: Codec<B>;
  readonly status: 200 | 201 | 202 | 204;
  /**
   * The response's codec (for the OpenAPI document) and, for versioned `/api`
   * responses, its shape (`kind`, rendered for the requested version); without
   * `kind` the body is written as it is (admin API, probes). Absent for 204.
   */
  readonly response?: {
    readonly kind?: ResponseKind;
    readonly codec: Codec<R>;
    readonly example?: NoInfer<R>;
    /**
     * The use case answers already in the request's version (`EndpointInput.apiVersion`):
     * written as it is, bounded as every list. The events API: each event is rendered
     * with its own stored render context (docs/decisions/tenancy.md), which a whole-body render has not.
     */
    readonly inRequestVersion?: true;
  };
  /** Error codes this endpoint answers besides the ones every route of its area can (e.g. 401, 400 version, 500, 503). */
  readonly errors: ReadonlyArray<ErrorCode>;
  /**
   * Codes the route can answer that the OpenAPI document must not list yet. A code added
   * to an error response is an addition (docs/decisions/versioning.md), so no route uses
   * this today. Checked with `errors` against the use case (docs/decisions/errors.md); never served.
   */
  readonly undocumentedErrors?: ReadonlyArray<ErrorCode>;
  /** The success body's media type when it is not JSON (`/metrics`). */
  readonly responseMediaType?: string;
  /** A route outside `/admin` that still takes the admin token (`/metrics`). */
  readonly adminToken?: true;
}

/** A codec decoding (or describing) an `A`; `Codec<any>` is io-ts's `t.Mixed` with the output left `unknown`. */
type Codec<A> = t.Type<A, unknown, unknown>;

/**
 * A versioned answer names only its kind: its codec is the kind's in core's
 * `RESPONSE_CODECS`, paired once. An answer that adds to its kind's shape (a
 * created webhook endpoint's secret) also names its codec, which must describe
 * a subtype of the kind's. An answer without a kind (admin API, probes) names its codec.
 */
export interface DeclaredResponse<K extends ResponseKind, R> {
  readonly kind?: K;
  readonly codec?: Codec<R>;
  readonly example?: NoInfer<R>;
  /** As `EndpointSpec`'s. */
  readonly inRequestVersion?: true;
}

/** What a declared response answers: its codec's type, else its kind's (`void` for neither: a 204). */
export type KindValue<K extends ResponseKind> = [K] extends [never] ? void : ResponseOf<K>;

/** A codec given beside a kind must describe its kind's shape (or more): anything else does not compile. */
export type AgreesWithKind<K extends ResponseKind, R> = [K] extends [never]
  ? unknown
  : [R] extends [ResponseOf<K>]
    ? unknown
    : { readonly codec: 'a codec beside a kind must describe a subtype of the kind codec' };

/**
 * A resource endpoint, typed: `Q` and `B` are inferred from the query and body
 * codecs (`NoInput` without one), `R` from the response's codec or, without one,
 * its kind's codec (`NoInfer` in `run`), so `run`'s result must be assignable to
 * what the response codec describes: a use case whose result drifts from its
 * codec does not compile. `E` is inferred from `run`: the errors it can return.
 */
export interface TypedEndpoint<
  Q,
  B,
  K extends ResponseKind,
  R,
  P extends PathIdName,
  M extends EndpointSpec['method'] = EndpointSpec['method'],
  A extends RouteAuth = RouteAuth,
  E extends DomainError = DomainError,
  L extends ReadonlyArray<ErrorCode> = ReadonlyArray<ErrorCode>,
  U extends ReadonlyArray<ErrorCode> = ReadonlyArray<ErrorCode>,
> extends Omit<EndpointSpec<Q, B, R, P>, 'response'> {
  readonly method: M;
  readonly auth?: A;
  /** Absent for 204. */
  readonly response?: DeclaredResponse<K, R> & AgreesWithKind<K, R>;
  /** With `undocumentedErrors`, exactly `DeclaredErrors` of its use case (checked on `endpoint`'s result, `Checked`). */
  readonly errors: L;
  readonly undocumentedErrors?: U;
  /**
   * The use case. A POST under /api takes an Idempotency-Key, which core keeps
   * with the change it answers: its use case returns its `Change` as it is
   * (`noChange(task)` for a POST that changes nothing), checked here.
   */
  readonly run: (app: Application, input: EndpointInput<Q, B, P>) => KeyedRun<M, A, NoInfer<R>, E>;
}

/**
 * The public code of each error tag in `E` (docs/decisions/errors.md): its tag, except
 * `unavailable` (503 `service_unavailable`), which the OpenAPI document lists for every
 * route of the client and admin areas (openapi-document.ts `areaErrors`), so a route
 * there does not list it; a route of no area does.
 */
export type PublicCodes<E, A> = E extends { readonly _tag: infer T }
  ? T extends 'unavailable'
    ? A extends 'none'
      ? 'service_unavailable'
      : never
    : T
  : never;

/**
 * The code a route answers itself, whatever its use case: `validation_error`, since
 * `decodeRequest` decodes every request's path ids (`parseId`), its query (a route
 * without a query codec rejects any parameter) and, for POST and PATCH, its body
 * (without a body codec, anything but `{}`).
 */
export type RouteCodes = 'validation_error';

/** What a route's `errors` lists: its use case's public codes and the route's own. */
export type DeclaredErrors<E, A> = PublicCodes<E, A> | RouteCodes;

/** `never` when the codes `Listed` are exactly `X`; else what is missing from them, or extra in them. */
export type ErrorListMismatch<Listed extends ErrorCode, X> = [Exclude<X, Listed>] extends [never]
  ? [Exclude<Listed, X>] extends [never]
    ? never
    : { readonly 'error codes listed that the use case cannot return': Exclude<Listed, X> }
  : { readonly 'error codes the use case returns that are not listed': Exclude<X, Listed> };

/**
 * `T` when the route's `errors` are exactly its `DeclaredErrors`, else the mismatch, which
 * is no entry of a table: a missing or an extra code does not compile. (Checked on the
 * result rather than on `errors` itself, so that `E` is still inferred from `run`.)
 */
export type Checked<T, Listed extends ErrorCode, X> = [ErrorListMismatch<Listed, X>] extends [never] ? T : ErrorListMismatch<Listed, X>;

/** What a use case returns for a route: a `Change` for a POST of the client area (it takes an Idempotency-Key), else a task. */
export type KeyedRun<M, A, R, E extends DomainError = DomainError> = M extends 'POST'
  ? A extends 'client'
    ? Change<R, E>
    : TE.TaskEither<E, R>
  : TE.TaskEither<E, R>;

/** The change a keyed route's use case answered with (the endpoint's type requires one; a route built otherwise is a bug). */
const changeOf = <A>(task: TE.TaskEither<DomainError, A>): Change<A> => {
  if (!('change' in task)) throw new Error('endpoint: a POST route of the client area ran a use case that is not a Change');
  return task as Change<A>;
};

/** An entry of the endpoint table: its spec (types erased) and the handler it becomes, typed inside. */
export interface Endpoint extends EndpointSpec {
  readonly handler: (app: Application) => RouteDef['handler'];
}

/**
 * Declare an endpoint with its query, body, response and path id types
 * inferred from the declaration; the handler is built here, where they are known,
 * and a response named by its kind gets the kind's codec from `RESPONSE_CODECS`.
 */
export const endpoint = <
  Q = NoInput,
  B = NoInput,
  K extends ResponseKind = never,
  R = KindValue<K>,
  P extends PathIdName = never,
  M extends EndpointSpec['method'] = EndpointSpec['method'],
  A extends RouteAuth = 'client',
  E extends DomainError = never,
  const L extends ReadonlyArray<ErrorCode> = readonly [],
  const U extends ReadonlyArray<ErrorCode> = readonly [],
>(
  declared: TypedEndpoint<Q, B, K, R, P, M, A, E, L, U>,
): Checked<Endpoint, L[number] | U[number], DeclaredErrors<E, A>> => {
  const e: EndpointSpec<Q, B, R, P> & Pick<TypedEndpoint<Q, B, K, R, P, M, A, E, L, U>, 'run'> = {
    ...declared,
    response: resolveResponse(declared.response),
  };
  // A `Change` is a task: run on its own, it commits on its own.
  const { run, ...spec } = e as unknown as EndpointSpec<Q, B, R, P> & {
    run: (app: Application, input: EndpointInput<Q, B, P>) => TE.TaskEither<DomainError, R>;
  };
  const entry: Endpoint = {
    ...spec,
    handler: (app) =>
      // A plain function and one `then`, not `async` (docs/performance.md, round 5): it ends its route's koa-compose
      // stack, which turns what it throws (a 401, a 400 from decoding) into the rejection an `async` handler would give.
      function handleEndpoint(ctx: AppContext): Promise<void> {
        const client = clientOf(ctx);
        const input = { client, apiVersion: ctx.state.apiVersion ?? versioning.latest, ...decodeRequest(ctx, e) };
        // Under an Idempotency-Key the change is handed back, not run: core runs it and keeps its answer (pipeline/idempotency-key.ts).
        if (ctx.state.underIdempotencyKey === true) {
          ctx.state.keyedAnswer = { change: changeOf(run(app, input)), shape: e };
          return Promise.resolve();
        }
        return runUseCase(run(app, input)).then((value) => answer(ctx, e, value));
      },
  };
  // The list was checked against `E` by the result type: at run time the entry is always an `Endpoint`.
  return entry as Checked<Endpoint, L[number] | U[number], DeclaredErrors<E, A>>;
};

/**
 * A declared response with its codec: its own, else its kind's in `RESPONSE_CODECS`
 * (which describes an `R`: `R` is the kind's value when no codec is declared).
 */
export const resolveResponse = <K extends ResponseKind, R>(
  response: DeclaredResponse<K, R> | undefined,
): EndpointSpec<unknown, unknown, R>['response'] => {
  if (response === undefined) return undefined;
  const codec = response.codec ?? (response.kind === undefined ? undefined : (RESPONSE_CODECS[response.kind] satisfies t.Mixed as t.Mixed));
  if (codec === undefined) throw new Error('endpoint: a response names its kind or its codec');
  return { ...response, codec };
};

/** No fields: a body-less operation accepts no body or `{}`, a query-less one no parameters. */
const NoFields = strictObject('EmptyBody', {});

/** What `NoFields` decodes an absent query or body to. */
const NO_FIELDS: NoInput = Object.freeze({});

/**
 * The one type assertion of the table: an endpoint without a query (body)
 * codec has `Q` (`B`) = `NoInput`, since `Q` and `B` are inferred only from
 * those codecs, so the `NoInput` value decoded for it is a `Q` (`B`).
 */
const noInput = <A>(value: NoInput): A => value as A;

/** A request's ids, query and body, decoded with the endpoint's codecs (400 on anything else). */
export const decodeRequest = <Q, B, R, P extends PathIdName>(
  ctx: AppContext,
  e: EndpointSpec<Q, B, R, P>,
): Omit<EndpointInput<Q, B, P>, 'client' | 'apiVersion'> => {
  const ids: { -readonly [N in P]?: PathId<N> } = {};
  for (const name of e.pathIds) ids[name] = parseId(ctx, name);
  // An endpoint without a query (or body) codec takes none: nothing to decode when none came.
  const query: Q =
    e.query !== undefined
      ? decodeQuery<Q, unknown>(ctx, e.query)
      : noInput(ctx.querystring === '' ? NO_FIELDS : decodeQuery(ctx, NoFields));
  const body: B =
    e.method === 'GET' || e.method === 'DELETE'
      ? noInput(undefined)
      : e.body !== undefined
        ? decodeBody<B, unknown>(ctx, e.body, versioning, ctx.state.apiVersion)
        : noInput(ctx.state.body === undefined ? NO_FIELDS : decodeBody(ctx, NoFields));
  // Every name in `pathIds` was set just above: the partial record is a whole one.
  return { ids: ids as PathIds<P>, query, body };
};

/** Answer with the endpoint's status: 204, the body as it is, or the body rendered for the requested version (with its render context, if any). */
export const answer = (ctx: AppContext, e: EndpointSpec, value: unknown): void => {
  if (e.response === undefined) noContent(ctx);
  else if (e.response.kind === undefined) writeJson(ctx, e.status, value);
  else if (e.response.inRequestVersion === true) writeJsonText(ctx, e.status, boundedJsonText(value));
  else respond(ctx, e.status, e.response.kind, value, renderContextOf(value));
};

export const toRouteDef = (app: Application, e: Endpoint): RouteDef => ({
  method: e.method,
  path: e.path,
  auth: e.auth ?? 'client',
  handler: e.handler(app),
});
