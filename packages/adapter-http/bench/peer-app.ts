/**
 * The peer of docs/performance.md: what a team would write by hand with the usual
 * libraries for the features debtkit has, serving the same routes and bodies.
 * It is the app debtkit must beat (1.3× its requests per second, at most 0.8×
 * its CPU per request), written the way such apps usually are:
 *
 *   request id + helmet's headers (as koa-helmet runs helmet) → pino request
 *   logger (one line per request, non-blocking destination) → prom-client
 *   histogram (method, route, status) → error handler (JSON errors) →
 *   koa-compress (1 KiB threshold) → bearer token, looked up in a Map →
 *   rate-limiter-flexible (per client, RateLimit-* headers) → the client's
 *   address by proxy-addr (round 4; no proxy trusted, as in the bench) and an
 *   admission slot (round 4: requests in progress per process and per client,
 *   at debtkit's bench limits, released by on-finished) →
 *   @koa/bodyparser (JSON) → API-Version → @koa/router with debtkit's whole
 *   route table, answering debtkit's bodies.
 *
 * Like the floor app, it answers debtkit's captured bodies (serialised per
 * request) rather than reading a store: the store reads are debtkit's extra.
 */
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import Router, { type RouterMiddleware } from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import compress from 'koa-compress';
import helmet from 'helmet';
import pino from 'pino';
import { Histogram, Registry } from 'prom-client';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import proxyAddr from 'proxy-addr';
import onFinished from 'on-finished';
import { defaultMaxInProgress } from '../src/http/admission-queue.js';
import { benchConfig } from './bench-config.js';
import type { RoutePattern } from './bare-app.js';
import type { CannedResponse } from './bench-routes.js';

export interface PeerOptions {
  /** The bearer token the peer accepts (the demo client's), and the client it names. */
  readonly token: string;
  /** The API-Version it answers. */
  readonly apiVersion: string;
  /** Where the request log goes (`/dev/null` in the bench). */
  readonly logDestination: string;
}

interface PeerState {
  requestId: string;
  clientId?: number;
  address?: string;
}

export const createPeerApp = (
  responses: ReadonlyArray<CannedResponse>,
  table: ReadonlyArray<RoutePattern>,
  options: PeerOptions,
): Koa<PeerState> => {
  const app = new Koa<PeerState>();
  app.silent = true;
  const logger = pino({ level: 'info' }, pino.destination({ dest: options.logDestination, sync: false }));
  const registry = new Registry();
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'request duration',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const limiter = new RateLimiterMemory({ points: 100_000_000, duration: 1 });
  const tokens = new Map<string, { id: number }>([[options.token, { id: 1 }]]);
  const secure = helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  }) as (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

  app.use(async function securityHeaders(ctx, next) {
    ctx.state.requestId = ctx.get('X-Request-Id') || randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Vary', 'Accept-Encoding');
    await new Promise<void>((resolve, reject) => secure(ctx.req, ctx.res, (err) => (err === undefined ? resolve() : reject(err))));
    await next();
  });
  app.use(async function requestLogger(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = typeof ctx['_matchedRoute'] === 'string' ? (ctx['_matchedRoute'] as string) : 'unmatched';
      const seconds = (performance.now() - started) / 1000;
      duration.observe({ method: ctx.method, route, status: String(ctx.status) }, seconds);
      logger.info(
        {
          request_id: ctx.state.requestId,
          ip: ctx.state.address,
          method: ctx.method,
          route,
          status: ctx.status,
          duration_ms: seconds * 1000,
        },
        'request',
      );
    }
  });
  app.use(async function errors(ctx, next) {
    try {
      await next();
    } catch (err) {
      const status = typeof (err as { status?: unknown }).status === 'number' ? (err as { status: number }).status : 500;
      ctx.status = status;
      ctx.body = {
        error: {
          code: status === 401 ? 'unauthorized' : status === 429 ? 'rate_limited' : 'error',
          message: String((err as Error).message),
          request_id: ctx.state.requestId,
        },
      };
    }
  });
  app.use(compress({ threshold: 1024 }));
  app.use(async function bearerAuth(ctx, next) {
    const match = /^Bearer (\S+)$/.exec(ctx.get('Authorization'));
    const client = match?.[1] === undefined ? undefined : tokens.get(match[1]);
    if (client === undefined) return ctx.throw(401, 'bearer token required');
    ctx.state.clientId = client.id;
    await next();
  });
  app.use(async function rateLimit(ctx, next) {
    try {
      const res = await limiter.consume(String(ctx.state.clientId));
      ctx.set('RateLimit-Limit', '100000000');
      ctx.set('RateLimit-Remaining', String(res.remainingPoints));
      ctx.set('RateLimit-Reset', String(Math.ceil(res.msBeforeNext / 1000)));
    } catch (err) {
      if (err instanceof RateLimiterRes) ctx.throw(429, 'too many requests');
      throw err;
    }
    await next();
  });
  const trust = proxyAddr.compile([]);
  const maxInProgress = defaultMaxInProgress();
  const clientConcurrency = benchConfig().clientConcurrency ?? maxInProgress;
  let inProgress = 0;
  const perClient = new Map<number, number>();
  app.use(async function admission(ctx, next) {
    ctx.state.address = proxyAddr(ctx.req, trust);
    const id = ctx.state.clientId!;
    const mine = perClient.get(id) ?? 0;
    if (inProgress >= maxInProgress || mine >= clientConcurrency) ctx.throw(429, 'too many requests in progress');
    inProgress += 1;
    perClient.set(id, mine + 1);
    onFinished(ctx.res, () => {
      inProgress -= 1;
      perClient.set(id, (perClient.get(id) ?? 1) - 1);
    });
    await next();
  });
  app.use(bodyParser({ enableTypes: ['json'] }));
  app.use(async function apiVersion(ctx, next) {
    ctx.set('API-Version', options.apiVersion);
    await next();
  });

  const router = new Router<PeerState>({ sensitive: true });
  const cannedOf = (method: string, pattern: string): CannedResponse | undefined =>
    responses.find((r) => r.method === method && r.pattern === pattern);
  for (const r of table) {
    const canned = cannedOf(r.method, r.pattern) ?? {
      method: r.method as CannedResponse['method'],
      pattern: r.pattern,
      status: 200,
      body: {},
      gzip: false,
    };
    const answer: RouterMiddleware<PeerState> = async function answer(ctx) {
      ctx.status = canned.status;
      ctx.body = canned.body;
    };
    router.register(canned.pattern, [canned.method], [answer]);
  }
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
};
