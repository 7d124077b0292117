/**
 * The Koa application (never listens: the server, or a test through
 * `app.callback()`, does). Its middleware, in order (docs/decisions/api-conventions.md, docs/decisions/koa.md), each a
 * named Koa middleware made by a factory:
 *
 *   clientAddress (behind trusted proxies: the client's address and scheme) →
 *   responseHeaders (request id, area, standard and security headers) →
 *   requestTelemetry (metrics, log line) → errorResponder → compression →
 *   interactiveDocs (`/docs`, when configured) → authFailureLimit (/api, /admin) → clientAuth (/api) →
 *   adminAuth (/admin) → clientRateLimit (/api) → fairAdmission (/api) →
 *   apiVersion (/api: the version and the render cache, render-cache.ts) → router (@koa/router: the endpoint tables; a route runs
 *   adminTokenLimit when it takes the admin token outside /admin (/metrics),
 *   then jsonBody, then idempotencyKey for POST under /api, before its handler) →
 *   routeFallback (404 / 405 / OPTIONS)
 *
 * Each step under an area passes other requests straight on. Authentication
 * comes before the body (docs/decisions/api-conventions.md): a request that fails it never has its
 * body read, inflated or parsed; and the body is read by the route that
 * answers, so a path no route answers (404, 405), and the routes that take
 * no body, never read one (docs/decisions/proxies.md). A request no route answers gets 404 (or 405
 * with `Allow`) where the handler would have run, after its area's
 * authentication, so unauthenticated callers learn nothing about the routes.
 *
 * Every error answers as JSON, and the headers set before it (request id,
 * standard headers) survive on errors too. Nothing here writes to the raw
 * response: answers are set on `ctx` and Koa sends them, so an embedding app's
 * middleware around these (`ctx.set` after `await next()`) reaches every answer,
 * and the app can be mounted under a prefix (koa-mount).
 *
 * HEAD and OPTIONS: every GET route also answers HEAD (the router's rule; Koa
 * drops the body). OPTIONS on a known path answers 204 with `Allow`, after the
 * path's authentication like any other request: the API is for servers
 * holding secret tokens, so browsers' CORS preflights are not served.
 */
import Koa from 'koa';
import { versioning } from '@debtkit/core';
import { authOfPath, type AppDeps, type AppState, type RequestContext, type RouteDef } from './app-context.js';
import { ApiError, type ApiErrorAnswer } from './api-error.js';
import { createBuiltinRoutes } from './routes/builtin-endpoints.js';
import { serveOpenApi } from '../openapi/openapi-document.js';
import { createRouter, type ApiRouter, type RouteMiddleware } from './router.js';
import { isClientGone } from './pipeline/client-gone.js';
import { responseHeaders } from './pipeline/response-headers.js';
import { requestTelemetry } from './pipeline/request-telemetry.js';
import { traceRequests } from './pipeline/tracing.js';
import { errorResponder, writeApiError } from './pipeline/error-responder.js';
import { compression } from './pipeline/compression.js';
import { jsonBody } from './pipeline/json-body.js';
import { clientAuth } from './pipeline/client-auth.js';
import { adminAuth } from './pipeline/admin-auth.js';
import { apiVersion } from './pipeline/api-version.js';
import { idempotencyKey } from './pipeline/idempotency-key.js';
import { adminTokenLimit, authFailureGuard, authFailureLimit, provenCredential } from './pipeline/auth-failure-limit.js';
import { seenTokens } from './pipeline/seen-tokens.js';
import { clientAddress } from './pipeline/client-address.js';
import { clientRateLimit } from './pipeline/client-rate-limit.js';
import { createRefusalHold } from './refusal-hold.js';
import { fairAdmission } from './pipeline/fair-admission.js';
import { routeFallback } from './pipeline/route-fallback.js';
import { createMetrics } from './metrics.js';
import { interactiveDocs } from './interactive-docs.js';

/** docs/decisions/api-conventions.md: bodies over 1 MiB get 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * A route's handler, checked once, at registration: its declared authentication
 * must be its path's area, so the area's authentication middleware (in this
 * same app, unconditionally) has authenticated every request that reaches it.
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

const routers = new WeakMap<Koa<AppState>, ApiRouter>();

/** Every (method, path pattern) an app made by `createApp` answers, HEAD included (what the OpenAPI document must cover). */
export const routesOf = (app: Koa<AppState>): ReadonlyArray<{ readonly method: string; readonly path: string }> => {
  const api = routers.get(app);
  if (api === undefined) throw new Error('routesOf: this app was not made by createApp');
  return api.routes();
};

export const createApp = (deps: AppDeps): Koa<AppState> => {
  const { health, clientAccess, idempotency, clock, config, logger } = deps;
  const metrics = deps.metrics ?? createMetrics();
  const underIdempotencyKey = idempotencyKey({
    store: idempotency,
    clock,
    erasures: deps.erasures,
    renderer: deps.answerRenderer,
    apiVersionFallback: versioning.latest,
    onReplay: () => metrics.idempotentReplays.inc(),
  });
  const { authFailures, clients } = deps.rateLimits ?? {};
  const onLimited = (limit: 'client' | 'auth_failure'): void => void metrics.rateLimited.inc({ limit });
  // docs/decisions/proxies.md: from an address over its failure limit, tokens seen working here are still served.
  const seen = authFailures === undefined ? undefined : seenTokens();
  const proven = provenCredential({ adminToken: config.adminToken, seen });
  const attempts = authFailures === undefined ? undefined : authFailureGuard({ limiter: authFailures, onLimited, proven });
  // A route outside the areas that takes the admin token (`/metrics`) is limited as the route that answers (docs/decisions/proxies.md).
  const limitOf = (route: RouteDef): ReadonlyArray<RouteMiddleware> =>
    attempts !== undefined && route.adminToken === true ? [adminTokenLimit({ guard: attempts, adminToken: config.adminToken })] : [];
  // The body is read by the route that answers, after its credential: an unrouted request never reads one (docs/decisions/proxies.md).
  const body = jsonBody({ limitBytes: BODY_LIMIT_BYTES });
  // docs/decisions/idempotency.md: every POST under /api takes an Idempotency-Key.
  const routeMiddleware = (route: RouteDef): ReadonlyArray<RouteMiddleware> => [
    ...limitOf(route),
    body,
    ...(route.method === 'POST' && route.auth === 'client' ? [underIdempotencyKey] : []),
  ];
  const api = createRouter(
    [
      ...createBuiltinRoutes({
        health,
        clientAccess,
        metrics,
        environment: config.environment,
        ...(config.adminToken === undefined ? {} : { adminToken: config.adminToken }),
        openApi: serveOpenApi({
          environment: config.environment,
          ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
        }),
      }),
      ...deps.routes,
    ].map(guarded),
    routeMiddleware,
  );

  const app = new Koa<AppState>();
  routers.set(app, api);
  // The error responder answers everything thrown in a request; what reaches Koa's
  // own 'error' event comes from writing the response (usually a client that left).
  app.silent = true;
  app.on('error', (err: unknown, ctx?: Koa.ParameterizedContext) => {
    if (ctx !== undefined && isClientGone(ctx, err))
      logger.info({ request_id: ctx.state['requestId'] }, 'response not sent: the client left');
    else logger.error({ err, request_id: ctx?.state['requestId'] }, 'error while responding');
  });

  const routeOf = (ctx: RequestContext): string | undefined => api.patternOf(ctx.method, ctx.path);

  if (config.trustedProxies !== undefined) app.use(clientAddress({ trustedProxies: config.trustedProxies }));
  app.use(traceRequests());
  app.use(responseHeaders({ environment: config.environment }));
  app.use(requestTelemetry({ logger, metrics, routeOf }));
  app.use(
    errorResponder({
      logger,
      apiVersionFallback: versioning.latest,
      onUnavailable: () => metrics.storeErrors.inc({ kind: 'unavailable' }),
    }),
  );
  app.use(compression(deps.renderCache === undefined ? {} : { renderCache: deps.renderCache }));
  // docs/sandbox-over-time.md: the interactive docs (no token: outside /api and /admin), when configured.
  if (config.docs === true) app.use(interactiveDocs({ versions: versioning.known }));
  if (attempts !== undefined) {
    // Every path under /api and /admin takes a token (unknown ones too: 401 before 404).
    app.use(authFailureLimit({ guard: attempts, guards: (ctx) => ctx.state.area !== 'none' }));
  }
  const { authenticateToken: authenticate } = clientAccess;
  app.use(clientAuth({ authenticate, knownClient: deps.knownClient, environment: config.environment, attempts, seen }));
  app.use(adminAuth({ authenticate, environment: config.environment, adminToken: config.adminToken, attempts }));
  if (clients !== undefined) {
    const hold = createRefusalHold(config.refusalHoldMs ?? 0);
    const refuse = (ctx: RequestContext, refusal: ApiErrorAnswer): void => writeApiError(ctx, refusal, versioning.latest);
    app.use(clientRateLimit({ limiter: clients, onLimited, refuse, ...(hold === undefined ? {} : { hold }) }));
  }
  if (deps.admission !== undefined) {
    metrics.watchAdmission(deps.admission);
    app.use(
      fairAdmission({
        queue: deps.admission,
        onAdmitted: metrics.observeAdmissionWait,
        onTimedOut: () => metrics.rateLimited.inc({ limit: 'queue' }),
      }),
    );
  }
  app.use(apiVersion({ versioning, ...(deps.renderCache === undefined ? {} : { renderCache: deps.renderCache }) }));
  app.use(api.router.routes());
  app.use(routeFallback(api));
  return app;
};
