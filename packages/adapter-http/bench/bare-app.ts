/**
 * The baseline of docs/performance.md: Koa 3 and @koa/router with no middleware at all,
 * answering each benchmarked route with debtkit's own response body as a
 * constant. It does no authentication, versioning, validation, store lookup or
 * logging, and does not read request bodies: the gap to debtkit is the cost of
 * all of that. The body is an object Koa serialises per request, as any Koa app
 * answering JSON does (debtkit serialises per request too).
 *
 * Compression: the one route requested with `Accept-Encoding: gzip` gets
 * koa-compress with debtkit's threshold (1 KiB), on that route only, so both
 * apps send the same gzip bytes for it.
 */
import Koa from 'koa';
import Router, { type RouterMiddleware } from '@koa/router';
import compress from 'koa-compress';
import type { CannedResponse } from './bench-routes.js';

/** debtkit's compression threshold (docs/decisions/api-conventions.md). */
const COMPRESS_THRESHOLD_BYTES = 1024;

/** A route debtkit registers (method and @koa/router pattern). */
export interface RoutePattern {
  readonly method: string;
  readonly pattern: string;
}

/**
 * `table` is debtkit's whole route table, in debtkit's order, so the router
 * does the same matching work on both sides (docs/performance.md: "registers as many
 * routes as debtkit"); the benchmarked routes answer debtkit's captured bodies,
 * every other route a constant `{}` (they are registered, never requested).
 */
export const createBareApp = (responses: ReadonlyArray<CannedResponse>, table: ReadonlyArray<RoutePattern> = []): Koa => {
  // Case-sensitive like debtkit's router.
  const router = new Router({ sensitive: true });
  const gzip = compress({ threshold: COMPRESS_THRESHOLD_BYTES });
  const cannedOf = (method: string, pattern: string): CannedResponse | undefined =>
    responses.find((r) => r.method === method && r.pattern === pattern);
  const routes: ReadonlyArray<CannedResponse> = [
    ...table.map(
      (r): CannedResponse =>
        cannedOf(r.method, r.pattern) ?? {
          method: r.method as CannedResponse['method'],
          pattern: r.pattern,
          status: 200,
          body: {},
          gzip: false,
        },
    ),
    // A benchmarked route missing from the table (it never is) still answers.
    ...responses.filter((r) => !table.some((t) => t.method === r.method && t.pattern === r.pattern)),
  ];
  for (const response of routes) {
    const answer: RouterMiddleware = async function answer(ctx) {
      ctx.status = response.status;
      ctx.body = response.body;
    };
    router.register(response.pattern, [response.method], response.gzip ? [gzip, answer] : [answer]);
  }
  const app = new Koa();
  // autocannon ends a run by closing its sockets, cutting responses in flight: not worth a stack trace each.
  app.silent = true;
  app.use(router.routes());
  return app;
};
