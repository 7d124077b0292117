/**
 * The *tight* reference of `npm run bench` (reported, not a target): the floor
 * app (bare Koa + @koa/router, debtkit's route table and bodies) with the
 * per-request work docs/decisions/api-conventions.md, docs/decisions/rate-limits.md, docs/performance.md require of every debtkit answer added
 * in front of it as one middleware, written as tightly as it can be with
 * debtkit's own parts:
 *
 *   the request id (a UUID), the ten response headers (request id,
 *   standard, security, the rate limit's three, API-Version) in two `ctx.set`
 *   calls, the bearer token looked up in a Map, the client's rate limiter
 *   (debtkit's memory limiter), the client's address (round 4: the peer's, as
 *   no proxy is trusted in the bench, read from the socket) and an admission
 *   slot (round 4: a count of requests in progress for the process and for
 *   the client, under debtkit's bench limits, given back at the response's
 *   `finish` or `close`), a JSON request body read and parsed when one is sent, then after
 *   the router the metrics (debtkit's table) and the log line with the
 *   address (pino through the server's log destination, to /dev/null).
 *
 * No store, no validation, no versioning, no error handling, no area checks:
 * it is the least any Koa app can do and still send what debtkit sends. What
 * it costs over the floor is the required work; what debtkit costs over it is
 * debtkit's own (its pipeline, the store read, validation, rendering).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type Koa from 'koa';
import getRawBody from 'raw-body';
import { createMetrics } from '../src/http/metrics.js';
import { createRateLimits } from '../src/http/rate-limits.js';
import { STANDARD_HEADERS } from '../src/http/pipeline/response-headers.js';
import { securityHeaderSet } from '../src/http/pipeline/security-headers.js';
import { createServerLogger } from '../src/main/log-destination.js';
import { defaultMaxInProgress } from '../src/http/admission-queue.js';
import { benchConfig } from './bench-config.js';
import { createBareApp, type RoutePattern } from './bare-app.js';
import type { CannedResponse } from './bench-routes.js';

export interface TightOptions {
  /** The bearer token it accepts (the demo client's). */
  readonly token: string;
  /** The API-Version it answers. */
  readonly apiVersion: string;
  /** Where the request log goes (`/dev/null` in the bench). */
  readonly logDestination: string;
}

const BEARER = /^Bearer +(\S+) *$/;

export const createTightApp = (
  responses: ReadonlyArray<CannedResponse>,
  table: ReadonlyArray<RoutePattern>,
  options: TightOptions,
): Koa => {
  const metrics = createMetrics();
  const { logger } = createServerLogger({ level: 'info', dest: options.logDestination });
  const limits = createRateLimits({ requestsPerSecond: 100_000_000, authFailuresPerMinute: 0 }, { kind: 'memory' });
  const limiter = limits.clients;
  if (limiter === undefined) throw new Error('tight: the client rate limiter is off');
  const clients = new Map([[options.token, { id: 1, apiVersion: options.apiVersion }]]);
  // Admission (round 4): requests in progress, for the process and per client, at debtkit's bench limits.
  const maxInProgress = defaultMaxInProgress();
  const clientConcurrency = benchConfig().clientConcurrency ?? maxInProgress;
  let inProgress = 0;
  const perClient = new Map<number, number>();
  const fixed = { ...STANDARD_HEADERS, ...securityHeaderSet({ environment: 'sandbox' }) };
  const app = createBareApp(responses, table);
  app.middleware.unshift(async function tight(ctx, next) {
    const started = performance.now();
    const id = randomUUID();
    ctx.set({ 'X-Request-Id': id, ...fixed });
    const client = clients.get(BEARER.exec(ctx.get('Authorization'))?.[1] ?? '');
    if (client === undefined) return ctx.throw(401);
    const decision = await limiter.consume(String(client.id));
    ctx.set({
      'RateLimit-Limit': String(decision.limit),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(decision.resetSeconds),
      'API-Version': client.apiVersion,
    });
    const address = ctx.req.socket.remoteAddress ?? '';
    const mine = perClient.get(client.id) ?? 0;
    if (inProgress >= maxInProgress || mine >= clientConcurrency) return ctx.throw(429);
    inProgress += 1;
    perClient.set(client.id, mine + 1);
    // Given back once, at `finish` or at `close` (a client that left), as debtkit's admission does.
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      inProgress -= 1;
      perClient.set(client.id, (perClient.get(client.id) ?? 1) - 1);
    };
    ctx.res.once('finish', release);
    ctx.res.once('close', release);
    if (ctx.request.length !== undefined)
      ctx.state['body'] = JSON.parse(await getRawBody(ctx.req, { encoding: 'utf8', limit: '1mb' })) as unknown;
    await next();
    const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    const elapsedMs = performance.now() - started;
    metrics.recordRequest(ctx.method, typeof route === 'string' ? route : 'unmatched', ctx.status, elapsedMs / 1000);
    logger.info(
      {
        request_id: id,
        client_id: client.id,
        ip: address,
        method: ctx.method,
        route,
        status: ctx.status,
        duration_ms: Math.round(elapsedMs * 100) / 100,
      },
      'request',
    );
  });
  return app;
};
