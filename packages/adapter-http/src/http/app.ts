/**
 * The Koa application (never listens: the server, or a test through
 * `app.callback()`, does). It is one middleware, the request pipeline, whose
 * steps run in this order, each a plain function called directly (DESIGN 9:
 * one dispatch per request, not a chain of middleware each deciding again
 * whether it applies):
 *
 *   route lookup (the route table, once) → response headers (request id,
 *   standard and security headers) → by area:
 *     /api:   auth-failure limit → client authentication → client rate limit →
 *             JSON body → API version → Idempotency-Key (routed POSTs) → handler
 *     /admin: auth-failure limit → admin authentication → JSON body → handler
 *     other:  (`/metrics`: auth-failure limit) → JSON body → handler
 *   → compression (large answers) ; on any throw: the error responder ;
 *   finally: telemetry (metrics, log line).
 *
 * Authentication comes before the body (DESIGN 4.4): a request that fails it
 * never has its body read, inflated or parsed. A request no route answers gets
 * 404 (or 405 with `Allow`) where the handler would have run, after its area's
 * authentication, so unauthenticated callers learn nothing about the routes.
 *
 * Every error answers as JSON, and the headers set before it (request id,
 * standard headers) survive on errors too.
 *
 * HEAD and OPTIONS: every GET route also answers HEAD (Koa drops the body).
 * OPTIONS on a known path answers 204 with `Allow`, after the path's
 * authentication like any other request: the API is for servers holding secret
 * tokens, so browsers' CORS preflights are not served.
 */
import Koa from 'koa';
import { performance } from 'node:perf_hooks';
import { versioning } from '@debtkit/core';
import { authOfPath, type AppContext, type AppDeps, type AppState, type RequestContext, type RouteDef } from './app-context.js';
import { ApiError } from './api-error.js';
import { createBuiltinRoutes } from './routes/builtin-endpoints.js';
import { compileRouteTable, type RouteLookup, type RouteMatch, type RouteTable } from './route-table.js';
import { isClientGone } from './pipeline/client-gone.js';
import { responseHeaders } from './pipeline/response-headers.js';
import { requestTelemetry } from './pipeline/request-telemetry.js';
import { errorResponder } from './pipeline/error-responder.js';
import { compression } from './pipeline/compression.js';
import { hasBody, jsonBody } from './pipeline/json-body.js';
import { clientAuth } from './pipeline/client-auth.js';
import { adminAuth } from './pipeline/admin-auth.js';
import { apiVersion } from './pipeline/api-version.js';
import { idempotencyKey } from './pipeline/idempotency-key.js';
import { authFailureLimit } from './pipeline/auth-failure-limit.js';
import { clientRateLimit } from './pipeline/client-rate-limit.js';
import { createMetrics } from './metrics.js';
import { METRICS_PATH } from './metrics.routes.js';
import { sendAnswer } from './response-head.js';

/** DESIGN 4: bodies over 1 MiB get 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * A route's handler, checked once, at registration: its declared authentication
 * must be its path's area, so the area's authentication step (in this same
 * pipeline, unconditionally) has authenticated every request that reaches it.
 * Client routes are not checked again per request (`clientOf` still refuses to
 * hand out a missing client); admin routes keep a per-request check, since
 * their handlers read nothing that would notice a missing admin.
 */
const guarded = (route: RouteDef): RouteDef => {
  const area = authOfPath(route.path);
  if (route.auth !== area) {
    throw new Error(`createApp: ${route.method} ${route.path} declares auth '${route.auth}', but its path is in the '${area}' area`);
  }
  const { handler } = route;
  switch (route.auth) {
    case 'none':
    case 'client':
      return route;
    case 'admin':
      return {
        ...route,
        handler: async function adminRoute(ctx) {
          if (ctx.state.admin !== true) throw new ApiError('unauthorized', 'The admin token is required');
          await handler(ctx);
        },
      };
  }
};

/** A request no route answers: 405 with `Allow` on a known path (OPTIONS: 204 with `Allow`), else 404. */
const answerUnrouted = (ctx: RequestContext, allowed: ReadonlyArray<string>): void => {
  if (allowed.length === 0) throw new ApiError('not_found', 'No such route');
  const allow = [...allowed, 'OPTIONS'].join(', ');
  if (ctx.method === 'OPTIONS') {
    ctx.status = 204;
    ctx.set('Allow', allow);
    return;
  }
  throw new ApiError('method_not_allowed', `${ctx.method} is not allowed on this route; allowed: ${allow}`, undefined, { Allow: allow });
};

const tables = new WeakMap<Koa<AppState>, RouteTable>();

/** Every (method, path pattern) an app made by `createApp` answers, HEAD included (what the OpenAPI document must cover). */
export const routesOf = (app: Koa<AppState>): ReadonlyArray<{ readonly method: string; readonly path: string }> => {
  const table = tables.get(app);
  if (table === undefined) throw new Error('routesOf: this app was not made by createApp');
  return table.routes();
};

export const createApp = (deps: AppDeps): Koa<AppState> => {
  const { health, clientAccess, idempotency, clock, config, logger } = deps;
  const metrics = deps.metrics ?? createMetrics();
  const table = compileRouteTable(
    [
      ...createBuiltinRoutes({
        health,
        clientAccess,
        metrics,
        environment: config.environment,
        ...(config.adminToken === undefined ? {} : { adminToken: config.adminToken }),
        ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
      }),
      ...deps.routes,
    ].map(guarded),
  );

  const app = new Koa<AppState>();
  tables.set(app, table);
  // The pipeline answers everything thrown in a request; what reaches Koa's
  // own 'error' event comes from writing the response (usually a client that left).
  app.silent = true;
  app.on('error', (err: unknown, ctx?: Koa.ParameterizedContext) => {
    if (ctx !== undefined && isClientGone(ctx, err)) logger.info({ request_id: ctx.state['requestId'] }, 'response not sent: the client left');
    else logger.error({ err, request_id: ctx?.state['requestId'] }, 'error while responding');
  });

  const setHeaders = responseHeaders({ environment: config.environment });
  const recordTelemetry = requestTelemetry({ logger, metrics });
  const answerError = errorResponder({
    logger,
    apiVersionFallback: versioning.latest,
    onUnavailable: () => metrics.storeErrors.inc({ kind: 'unavailable' }),
  });
  const answers = compression();
  const { authFailures, clients } = deps.rateLimits ?? {};
  const onLimited = (limit: 'client' | 'auth_failure'): void => void metrics.rateLimited.inc({ limit });
  const limitAuthFailures = authFailures === undefined ? undefined : authFailureLimit({ limiter: authFailures, onLimited });
  const authenticateClient = clientAuth({ authenticate: clientAccess.authenticateToken, knownClient: deps.knownClient, environment: config.environment });
  const authenticateAdmin = adminAuth({ authenticate: clientAccess.authenticateToken, environment: config.environment, adminToken: config.adminToken });
  const limitClient = clients === undefined ? undefined : clientRateLimit({ limiter: clients, onLimited });
  const readBody = jsonBody({ limitBytes: BODY_LIMIT_BYTES });
  const resolveVersion = apiVersion({ versioning });
  const underIdempotencyKey = idempotencyKey({
    store: idempotency,
    unitOfWork: deps.unitOfWork,
    clock,
    apiVersionFallback: versioning.latest,
    onReplay: () => metrics.idempotentReplays.inc(),
  });

  /** The route's handler, with the request's path parameters. */
  const runRoute = (ctx: RequestContext, match: RouteMatch): Promise<void> => {
    const routed = ctx as AppContext;
    routed.params = match.params;
    return match.route.handler(routed);
  };

  /**
   * After the auth-failure limit: the area's authentication (and the client's
   * rate limit), the body, the area's own steps, then the handler (or 404/405).
   */
  const authorized = async (ctx: RequestContext, lookup: RouteLookup): Promise<void> => {
    const area = ctx.state.area;
    if (area === 'client') {
      const authenticating = authenticateClient(ctx);
      if (authenticating !== undefined) await authenticating;
      if (limitClient !== undefined) await limitClient(ctx);
    } else if (area === 'admin') {
      await authenticateAdmin(ctx);
    }
    if (hasBody(ctx.req)) await readBody(ctx);
    if (area === 'client') resolveVersion(ctx);
    if (lookup.kind === 'unrouted') return answerUnrouted(ctx, lookup.allowed);
    const { match } = lookup;
    if (area === 'client' && ctx.method === 'POST' && ctx.req.headers['idempotency-key'] !== undefined) {
      return underIdempotencyKey(ctx, () => runRoute(ctx, match));
    }
    return runRoute(ctx, match);
  };

  return app.use(async function debtkit(ctx) {
    const started = performance.now();
    const { state, path } = ctx;
    const lookup = table.lookup(ctx.method, path);
    state.route = lookup.kind === 'route' ? lookup.match.route.path : lookup.pattern;
    const area = (state.area = authOfPath(path));
    setHeaders(ctx);
    // `/metrics` takes the admin token too: guessing it there is limited like on `/admin`.
    const guard = limitAuthFailures !== undefined && (area !== 'none' || path === METRICS_PATH) ? limitAuthFailures : undefined;
    try {
      guard?.check(ctx);
      try {
        await authorized(ctx, lookup);
      } catch (err) {
        await guard?.failed(ctx, err);
        throw err;
      }
      if (answers.needed(ctx)) await answers.compress(ctx);
      sendAnswer(ctx);
    } catch (err) {
      answerError(ctx, err);
      sendAnswer(ctx);
    } finally {
      recordTelemetry(ctx, performance.now() - started);
    }
  });
};
