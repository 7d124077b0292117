/**
 * The Koa application (never listens: the server, or a test through
 * `app.callback()`, does). Middleware order is the request's path through it:
 *
 *   responseHeaders (request id, standard and security headers) → requestTelemetry (metrics, log line) → errorHandler →
 *   storeErrorMetrics → compression → authFailureLimit (/api, /admin) → clientAuth (/api) → adminAuth (/admin) →
 *   clientRateLimit (/api) → jsonBody → apiVersion (/api) →
 *   idempotencyKey (POST /api) → router (the route table) → routeFallback (404 / 405)
 *
 * Authentication comes before the body (DESIGN 4.4): a request that fails it
 * never has its body read, inflated or parsed.
 *
 * Everything from the error handler inward answers errors as JSON, and the
 * headers set before it (request id, standard headers) survive on errors too.
 *
 * HEAD and OPTIONS: every GET route also answers HEAD (the router registers both;
 * Koa drops the body). OPTIONS on a known path answers 204 with `Allow`, after
 * the path's authentication like any other request: the API is for servers
 * holding secret tokens, so browsers' CORS preflights are not served.
 */
import Koa from 'koa';
import Router from '@koa/router';
import { versioning } from '@debtkit/core';
import { authOfPath, type AppDeps, type AppState, type RouteDef } from './app-context.js';
import { ApiError } from './api-error.js';
import { createBuiltinRoutes } from './routes/builtin-endpoints.js';
import { isClientGone } from './middleware/client-gone.js';
import { responseHeaders } from './middleware/response-headers.js';
import { requestTelemetry } from './middleware/request-telemetry.js';
import { errorHandler } from './middleware/error-handler.js';
import { compression } from './middleware/compression.js';
import { jsonBody } from './middleware/json-body.js';
import { clientAuth } from './middleware/client-auth.js';
import { adminAuth } from './middleware/admin-auth.js';
import { apiVersion } from './middleware/api-version.js';
import { idempotencyKey } from './middleware/idempotency-key.js';
import { routeFallback } from './middleware/route-fallback.js';
import { authFailureLimit } from './middleware/auth-failure-limit.js';
import { clientRateLimit } from './middleware/client-rate-limit.js';
import { createMetrics } from './metrics.js';
import { METRICS_PATH } from './metrics.routes.js';
import { storeErrorMetrics } from './middleware/request-metrics.js';

/** DESIGN 4: bodies over 1 MiB get 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * A route's handler, checked once, at registration: its declared authentication
 * must be its path's area, so the area's middleware (clientAuth, adminAuth, in
 * this same app, unconditionally) has authenticated every request that reaches
 * it. Client routes are not checked again per request (`clientOf` still refuses
 * to hand out a missing client); admin routes keep a per-request check, since
 * their handlers read nothing that would notice a missing admin.
 */
const guarded = (route: RouteDef): RouteDef['handler'] => {
  const area = authOfPath(route.path);
  if (route.auth !== area) {
    throw new Error(`createApp: ${route.method} ${route.path} declares auth '${route.auth}', but its path is in the '${area}' area`);
  }
  const { handler } = route;
  switch (route.auth) {
    case 'none':
    case 'client':
      return handler;
    case 'admin':
      return async function adminRoute(ctx) {
        if (ctx.state.admin !== true) throw new ApiError('unauthorized', 'The admin token is required');
        await handler(ctx);
      };
  }
};

const buildRouter = (routes: ReadonlyArray<RouteDef>): Router<AppState> => {
  // Case-sensitive, so the router and the areas' prefix checks agree on every path.
  const router = new Router<AppState>({ sensitive: true });
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`createApp: ${key} is registered twice`);
    seen.add(key);
    router.register(route.path, [route.method], guarded(route));
  }
  return router;
};

/** The pattern of the route a path belongs to (this method's, else any method's), if any. */
const patternOf = (router: Router<AppState>, method: string, path: string): string | undefined => {
  const match = router.match(path, method);
  const pattern = (match.pathAndMethod[0] ?? match.path[0])?.path;
  // Every route here is registered with a string pattern.
  return typeof pattern === 'string' ? pattern : undefined;
};

export const createApp = (deps: AppDeps): Koa<AppState> => {
  const { health, clientAccess, idempotency, clock, config, logger } = deps;
  const metrics = deps.metrics ?? createMetrics();
  const router = buildRouter([
    ...createBuiltinRoutes({
      health,
      clientAccess,
      metrics,
      environment: config.environment,
      ...(config.adminToken === undefined ? {} : { adminToken: config.adminToken }),
      ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
    }),
    ...deps.routes,
  ]);

  const app = new Koa<AppState>();
  // The error handler answers everything thrown in a request; what reaches Koa's
  // own 'error' event comes from writing the response (usually a client that left).
  app.silent = true;
  app.on('error', (err: unknown, ctx?: Koa.ParameterizedContext) => {
    if (ctx !== undefined && isClientGone(ctx, err)) logger.info({ request_id: ctx.state['requestId'] }, 'response not sent: the client left');
    else logger.error({ err, request_id: ctx?.state['requestId'] }, 'error while responding');
  });

  // requestId, standardHeaders and securityHeaders in one; requestLog and requestMetrics in one (DESIGN 9).
  app.use(responseHeaders({ environment: config.environment }));
  app.use(requestTelemetry({ logger, metrics, routeOf: (method, path) => patternOf(router, method, path) }));
  app.use(errorHandler({ logger, apiVersionFallback: versioning.latest }));
  app.use(storeErrorMetrics({ metrics }));
  app.use(compression());
  const { authFailures, clients } = deps.rateLimits ?? {};
  const onLimited = (limit: 'client' | 'auth_failure'): void => void metrics.rateLimited.inc({ limit });
  // `/metrics` takes the admin token too: guessing it there is limited like on `/admin`.
  const guards = (path: string): boolean => authOfPath(path) !== 'none' || path === METRICS_PATH;
  if (authFailures !== undefined) app.use(authFailureLimit({ limiter: authFailures, guards, onLimited }));
  app.use(clientAuth({ authenticate: clientAccess.authenticateToken, environment: config.environment }));
  app.use(adminAuth({ authenticate: clientAccess.authenticateToken, environment: config.environment, adminToken: config.adminToken }));
  if (clients !== undefined) app.use(clientRateLimit({ limiter: clients, onLimited }));
  app.use(jsonBody({ limitBytes: BODY_LIMIT_BYTES }));
  app.use(apiVersion({ versioning }));
  app.use(idempotencyKey({ store: idempotency, clock, apiVersionFallback: versioning.latest, onReplay: () => metrics.idempotentReplays.inc() }));
  app.use(router.routes());
  app.use(routeFallback());
  return app;
};
