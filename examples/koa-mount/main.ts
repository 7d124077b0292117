/**
 * # Mounting debtkit's API in your own Koa app
 *
 * debtkit's HTTP API is an ordinary Koa app: routes on @koa/router, its
 * request steps named Koa middleware, every answer set on `ctx` and sent by
 * Koa. So a Koa service can mount it under a prefix with `koa-mount`, and put
 * its own middleware before and after it, as with any Koa middleware:
 *
 *   host.use(responseTime())       a header set with `ctx.set` AFTER `await next()`
 *   host.use(conditionalGet())     ETag and 304 for GETs, on debtkit's answers too
 *   host.use(mount('/debt', app))  debtkit's API under /debt (its routes see /api/…)
 *   host.use(hostRoutes())         the host's own routes, past debtkit's prefix
 *
 * The example listens on 127.0.0.1 on a free port, sends requests of every
 * kind debtkit answers (a success, a 401, a 404, a 405, a HEAD, a 304, a
 * gzip-compressed answer) and one the host answers itself, prints each status
 * with the host's `X-Response-Time` header, and shuts down.
 *
 * Run it: `npm run build && node examples/dist/koa-mount/main.js`.
 * The test suite runs it too (examples/test/koa-mount.test.ts).
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import mount from 'koa-mount';
import pino from 'pino';
import * as E from 'fp-ts/lib/Either.js';
import { type Clock, PORTS, newToken } from '@debtkit/core';
import { seedDemo } from '@debtkit/adapter-memory';
import { compose, resolve } from '@debtkit/adapter-http';

/** The host's timing header: set after the rest of the chain (debtkit included) has answered. */
export const responseTime = (): Koa.Middleware =>
  async function responseTime(ctx, next) {
    const started = performance.now();
    await next();
    ctx.set('X-Response-Time', `${(performance.now() - started).toFixed(2)}ms`);
  };

/**
 * ETag on answers to GET and HEAD sent as text or bytes, and 304 when the client has that one already
 * (`ctx.fresh`). debtkit sends a kept answer (a credit score, an account, a plan) as the `Buffer` of its
 * JSON, any other as a string, as koa-etag also expects.
 */
export const conditionalGet = (): Koa.Middleware =>
  async function conditionalGet(ctx, next) {
    await next();
    const body: unknown = ctx.body;
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200) return;
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) return;
    ctx.etag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
    if (ctx.fresh) ctx.status = 304;
  };

/** The host's own routes: what the service does besides debtkit. */
const hostRoutes = (): Koa.Middleware =>
  async function hostRoutes(ctx, next) {
    if (ctx.method === 'GET' && ctx.path === '/hello') ctx.body = { hello: 'from the host' };
    else await next();
  };

export interface Exchange {
  readonly label: string;
  readonly status: number;
  /** The host's header, as the client received it (`null` when missing). */
  readonly responseTime: string | null;
  readonly contentEncoding: string | null;
  readonly requestId: string | null;
}

export interface MountResult {
  readonly url: string;
  readonly exchanges: ReadonlyArray<Exchange>;
}

const systemClock: Clock = { now: () => new Date() };

export const main = async (log: (line: string) => void = console.log, clock: Clock = systemClock): Promise<MountResult> => {
  const { app, store, container, close } = await compose({
    config: { environment: 'sandbox', store: 'memory' },
    clock,
    logger: pino({ level: 'warn' }),
  });
  const token = newToken(resolve(container, PORTS.SecretGenerator), 'sandbox');
  const seeded = await seedDemo({ ...store, clock, tokenHasher: resolve(container, PORTS.TokenHasher) }, { token })();
  if (E.isLeft(seeded)) throw new Error(`seeding the demo failed: ${seeded.left.message}`);
  const userId = seeded.right.user.id;

  const host = new Koa();
  host.use(responseTime());
  host.use(conditionalGet());
  host.use(mount('/debt', app));
  host.use(hostRoutes());

  const server = host.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  log(`host listening on ${url}, debtkit's API under ${url}/debt`);
  const exchanges: Exchange[] = [];
  const auth = { Authorization: `Bearer ${token}` };
  // node:http rather than fetch: fetch adds `Cache-Control: no-cache` to a conditional request, which rules out a 304.
  const send = (label: string, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<IncomingMessage> =>
    new Promise((done, fail) => {
      const req = request(url + path, { method, headers }, (response) => {
        response.resume();
        response.once('end', () => {
          const header = (name: string): string | null => {
            const value = response.headers[name];
            return typeof value === 'string' ? value : null;
          };
          const exchange: Exchange = {
            label,
            status: response.statusCode ?? 0,
            responseTime: header('x-response-time'),
            contentEncoding: header('content-encoding'),
            requestId: header('x-request-id'),
          };
          exchanges.push(exchange);
          log(`${label}: ${exchange.status}, X-Response-Time ${exchange.responseTime ?? 'missing'}`);
          done(response);
        });
      });
      req.once('error', fail);
      req.end();
    });
  try {
    const score = await send('credit score', `/debt/api/users/${userId}/credit_scores`, 'GET', auth);
    const etag = score.headers.etag ?? '';
    await send('credit score again (If-None-Match)', `/debt/api/users/${userId}/credit_scores`, 'GET', { ...auth, 'If-None-Match': etag });
    await send('credit score, HEAD', `/debt/api/users/${userId}/credit_scores`, 'HEAD', auth);
    await send('learning modules (gzip)', '/debt/api/learning_modules', 'GET', { ...auth, 'Accept-Encoding': 'gzip' });
    await send('no token', `/debt/api/users/${userId}/credit_scores`);
    await send('unknown route', '/debt/api/nowhere', 'GET', auth);
    await send('wrong method', '/debt/api/ping', 'PUT', auth);
    await send("the host's own route", '/hello');
    return { url, exchanges };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
    await close();
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
