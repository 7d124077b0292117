/**
 * The endpoints every debtkit app has besides the resources: ping (docs/operations.md,
 * authenticated like all of `/api`), the probes `/healthz` (the process runs)
 * and `/readyz` (the store answers), this API's OpenAPI document (no token, so
 * orchestrators and tools can call them), and the admin API (docs/operations.md:
 * operators create clients and issue and revoke their tokens, through core's
 * client use cases; not versioned). Entries of the same kind of table as the
 * resource endpoints, so the router and the OpenAPI document are built from
 * one description.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  Client,
  Id,
  PageQuery,
  PingBody,
  boundedString,
  strictObject,
  isDomainError,
  noChange,
  unavailable,
  versioning,
  type DomainError,
  type ResponseKind,
  type StoreHealth,
} from '@debtkit/core';
import type { AppContext, RouteDef } from '../app-context.js';
import { ApiError } from '../api-error.js';
import { runUseCase, type PathIdName } from '../route-kit.js';
import { serveMetrics } from '../metrics.routes.js';
import {
  type AgreesWithKind,
  type Checked,
  type DeclaredErrors,
  type DeclaredResponse,
  type EndpointInput,
  type EndpointSpec,
  type KindValue,
  type NoInput,
  answer,
  decodeRequest,
  resolveResponse,
} from './endpoint.js';
import type { ErrorCode } from '../api-error.js';
import { ADMIN_ENDPOINTS } from './admin-endpoints.js';
import type { BuiltinEndpoint, BuiltinServices } from './builtin-endpoint.js';

export type { BuiltinEndpoint, BuiltinServices };

/**
 * What a built-in endpoint does: a use case whose value is answered as JSON, or, for
 * the two answers that are not a plain JSON value (the OpenAPI document
 * naming this server, the Prometheus text), a handler of its own.
 */
type BuiltinRun<Q, B, R, P extends PathIdName, E extends DomainError = DomainError> =
  | ((services: BuiltinServices, input: Omit<EndpointInput<Q, B, P>, 'client' | 'apiVersion'>) => TE.TaskEither<E, NoInfer<R>>)
  | { readonly handler: (services: BuiltinServices) => RouteDef['handler'] };

/** A built-in endpoint, typed as a resource endpoint is (`TypedEndpoint`): its result must match its response codec (its kind's). */
interface TypedBuiltinEndpoint<Q, B, K extends ResponseKind, R, P extends PathIdName, E extends DomainError = DomainError> extends Omit<
  EndpointSpec<Q, B, R, P>,
  'response'
> {
  readonly auth: NonNullable<EndpointSpec['auth']>;
  readonly response?: DeclaredResponse<K, R> & AgreesWithKind<K, R>;
  readonly run: BuiltinRun<Q, B, R, P, E>;
}

/**
 * A built-in endpoint that runs a use case: its `errors` are checked against the use
 * case's, as a resource endpoint's are (`Checked`). One with a handler of its own
 * (`builtin`: the probes, this document, the metrics) has no use case to check its list against.
 */
const checkedBuiltin = <
  Q = NoInput,
  B = NoInput,
  K extends ResponseKind = never,
  R = KindValue<K>,
  P extends PathIdName = never,
  E extends DomainError = never,
  Au extends NonNullable<EndpointSpec['auth']> = NonNullable<EndpointSpec['auth']>,
  const L extends ReadonlyArray<ErrorCode> = readonly [],
>(
  e: TypedBuiltinEndpoint<Q, B, K, R, P, E> & {
    readonly auth: Au;
    readonly errors: L;
    readonly run: Extract<BuiltinRun<Q, B, R, P, E>, (...args: never[]) => unknown>;
  },
): Checked<BuiltinEndpoint, L[number], DeclaredErrors<E, Au>> =>
  // The list was checked against `E` by the result type: at run time the entry is always a `BuiltinEndpoint`.
  builtin<Q, B, K, R, P>(e) as Checked<BuiltinEndpoint, L[number], DeclaredErrors<E, Au>>;

const builtin = <Q = NoInput, B = NoInput, K extends ResponseKind = never, R = KindValue<K>, P extends PathIdName = never>(
  declared: TypedBuiltinEndpoint<Q, B, K, R, P>,
): BuiltinEndpoint => {
  const e = { ...declared, response: resolveResponse(declared.response) };
  const { run, ...spec } = e;
  return {
    ...spec,
    handler:
      typeof run === 'function'
        ? (services) =>
            // A plain function and one `then`, as routes/endpoint.ts's handler (its route's stack makes a throw a rejection).
            function handleBuiltin(ctx: AppContext): Promise<void> {
              // A built-in endpoint changes nothing: under an Idempotency-Key, its answer is kept all the same (pipeline/idempotency-key.ts).
              if (ctx.state.underIdempotencyKey === true) {
                ctx.state.keyedAnswer = { change: noChange(run(services, decodeRequest(ctx, e))), shape: e };
                return Promise.resolve();
              }
              return runUseCase(run(services, decodeRequest(ctx, e))).then((value) => answer(ctx, e, value));
            }
        : run.handler,
  };
};

/** A client token, as the admin API shows it once (docs/decisions/tenancy.md). */
const Token = t.refinement(t.string, (s) => /^dk_(sandbox|live)_[A-Za-z0-9_-]{43}$/.test(s), 'Token');

/** The OpenAPI document, as `GET /openapi.json` answers it (its top-level keys). */
const OpenApiDocument = t.type(
  {
    openapi: t.literal('3.1.0'),
    info: t.UnknownRecord,
    servers: t.array(
      t.intersection([t.type({ url: t.string }), t.partial({ description: t.string, variables: t.UnknownRecord })]),
      'Servers',
    ),
    tags: t.array(t.intersection([t.type({ name: t.string }), t.partial({ description: t.string })]), 'Tags'),
    security: t.array(t.record(t.string, t.array(t.string)), 'SecurityRequirements'),
    paths: t.UnknownRecord,
    webhooks: t.UnknownRecord,
    components: t.UnknownRecord,
  },
  'OpenApiDocument',
);

/** `GET /openapi.json`'s query: the API version the document describes. */
const OpenApiQuery = t.partial(
  { version: t.keyof(Object.fromEntries(versioning.known.map((v) => [v, null])) as Record<string, null>, 'ApiVersionName') },
  'OpenApiQuery',
);

/**
 * How long `/readyz` waits for the store. A probe must answer fast even when the
 * store is down: the driver would otherwise wait its whole server-selection
 * timeout (5 s) before saying so, longer than most probes' own timeout.
 */
export const READINESS_TIMEOUT_MS = 800;

/** The store's ping, or a failure when it has not answered within `timeoutMs`. */
const storeAnswersWithin =
  (health: StoreHealth, timeoutMs: number): TE.TaskEither<unknown, void> =>
  async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<E.Either<string, void>>((resolve) => {
      timer = setTimeout(() => resolve(E.left('no answer in time')), timeoutMs);
    });
    try {
      return await Promise.race([health.ping()(), late]);
    } finally {
      clearTimeout(timer);
    }
  };

/** docs/decisions/proxies.md: `/readyz` asks the store at most this often; probes in between get its last answer. */
export const READINESS_REUSE_MS = 1000;

/**
 * The store's answer to a probe, asked at most once per `READINESS_REUSE_MS`:
 * probes in between (however many load balancers send them) share the last
 * answer, or the one still being asked. A clock that went back counts as the
 * time being up, so a clock change cannot stretch a stale answer.
 */
const readinessOf = (health: StoreHealth, now: () => number): (() => Promise<E.Either<unknown, void>>) => {
  let last: { readonly at: number; readonly answer: Promise<E.Either<unknown, void>> } | undefined;
  return () => {
    const at = now();
    if (last !== undefined && at >= last.at && at - last.at < READINESS_REUSE_MS) return last.answer;
    const answer = storeAnswersWithin(health, READINESS_TIMEOUT_MS)();
    last = { at, answer };
    return answer;
  };
};

const notReady = (error: unknown): ApiError =>
  new ApiError(
    'unavailable',
    isDomainError(error) && error._tag === 'unavailable' && error.explained === true ? error.message : 'The store is not reachable',
  );

export const BUILTIN_ENDPOINTS: ReadonlyArray<BuiltinEndpoint> = [
  checkedBuiltin({
    method: 'POST',
    path: '/api/ping',
    summary: 'Ping',
    tag: 'Ping',
    auth: 'client',
    pathIds: [],
    body: PingBody,
    description: 'Echoes the payload: checks the token, the API version and the round trip.',
    status: 200,
    response: { kind: 'ping' },
    errors: ['validation_error'],
    run: (_s, i) => TE.right({ payload: i.body.payload }),
  }),
  checkedBuiltin({
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness probe',
    tag: 'Operations',
    auth: 'none',
    pathIds: [],
    description: 'Answers 200 while the process runs. Needs no token.',
    status: 200,
    response: { codec: t.type({ status: t.literal('ok') }, 'Health') },
    errors: ['validation_error'],
    run: () => TE.right({ status: 'ok' } as const),
  }),
  builtin({
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness probe',
    tag: 'Operations',
    auth: 'none',
    pathIds: [],
    description:
      'Answers 200 when the store answers, else 503. The store is asked at most once a second; probes in between get its last answer. Needs no token.',
    status: 200,
    response: { codec: t.type({ status: t.literal('ready') }, 'Readiness') },
    errors: ['service_unavailable'],
    // Whatever the store says went wrong, or if it says nothing in time, the answer to a probe is "not ready";
    // a reason the store explains for operators (e.g. a standalone MongoDB, docs/decisions/transactions.md) is passed on.
    run: {
      handler: (s) => {
        const ready = readinessOf(s.health, s.now ?? Date.now);
        return async function readiness(ctx) {
          const answer = await ready();
          if (E.isLeft(answer)) throw notReady(answer.left);
          ctx.status = 200;
          ctx.body = { status: 'ready' };
        };
      },
    },
  }),
  builtin({
    method: 'GET',
    path: '/openapi.json',
    summary: 'This OpenAPI document',
    tag: 'Operations',
    auth: 'none',
    pathIds: [],
    description:
      'The OpenAPI 3.1 document of the API, generated from the codecs the server validates with. Needs no token. ' +
      '`version` picks the API version it describes (default: the latest); an unknown one answers 400 `unsupported_version`.',
    query: OpenApiQuery,
    status: 200,
    response: { codec: OpenApiDocument },
    errors: ['unsupported_version'],
    run: {
      handler: (s) => s.openApi,
    },
  }),
  builtin({
    method: 'GET',
    path: '/metrics',
    summary: 'Prometheus metrics',
    tag: 'Operations',
    auth: 'none',
    pathIds: [],
    description:
      'Prometheus text format: requests by method, route pattern and status (count and duration), rate-limited requests, ' +
      'idempotent replays, store errors, webhook deliveries, and Node process metrics. Bearer = the admin token; 404 when no admin token is configured.',
    status: 200,
    response: { codec: t.string },
    responseMediaType: 'text/plain',
    adminToken: true,
    errors: ['unauthorized', 'not_found', 'rate_limited'],
    run: { handler: (s) => serveMetrics({ metrics: s.metrics, ...(s.adminToken === undefined ? {} : { adminToken: s.adminToken }) }) },
  }),
  ...ADMIN_ENDPOINTS,
];

export const builtinRouteDef = (services: BuiltinServices, e: BuiltinEndpoint): RouteDef => ({
  method: e.method,
  path: e.path,
  auth: e.auth,
  ...(e.adminToken === true ? { adminToken: true } : {}),
  handler: e.handler(services),
});

/** The built-in routes, bound to their services. */
export const createBuiltinRoutes = (services: BuiltinServices): RouteDef[] => BUILTIN_ENDPOINTS.map((e) => builtinRouteDef(services, e));
