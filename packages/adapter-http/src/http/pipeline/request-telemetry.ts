import type { Logger } from '../../logger.js';
import { performance } from 'node:perf_hooks';
import type { AppMiddleware, RequestContext } from '../app-context.js';
import type { Metrics } from '../metrics.js';
import { isClientGone } from './client-gone.js';
import { requestLineWriter } from './request-line.js';
import { schemeOf } from './client-address.js';

/** The route label when no route matched: raw paths would make one series per URL a client invents. */
export const UNMATCHED_ROUTE = 'unmatched';

const MAX_LOGGED_PATH = 200;

export interface RequestTelemetryOptions {
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** The pattern of the request's route, for a request the router did not name (refused before it ran, or unrouted). */
  readonly routeOf: (ctx: RequestContext) => string | undefined;
}

/**
 * What is recorded once debtkit's middleware has answered a request (with the
 * status the error responder chose): its count and duration by method, route pattern and
 * status (`unmatched` when no route matched), then one JSON log line with the
 * client's address and scheme (as trusted proxies report them, docs/decisions/proxies.md), the
 * method, the route pattern (the raw path, cut to 200 characters, when no
 * route matched), status, duration and request id. Headers, query strings and
 * bodies are never logged: they carry tokens and personal data.
 */
export const requestTelemetry = (options: RequestTelemetryOptions): AppMiddleware => {
  const writeLine = requestLineWriter(options.logger);
  const { recordRequest } = options.metrics;
  const { routeOf } = options;
  const record = (ctx: RequestContext, elapsedMs: number): void => {
    const { method, status, state } = ctx;
    // A routed request's pattern is named by its route (router.ts); others are looked up.
    const matched = (state.route ??= routeOf(ctx));
    recordRequest(method, matched ?? UNMATCHED_ROUTE, status, elapsedMs / 1000);
    writeLine({
      requestId: state.requestId,
      ...(state.client === undefined ? {} : { clientId: state.client.id }),
      ip: ctx.ip,
      scheme: schemeOf(ctx),
      method,
      route: matched ?? ctx.path.slice(0, MAX_LOGGED_PATH),
      status,
      durationMs: Math.round(elapsedMs * 100) / 100,
      aborted: isClientGone(ctx),
    });
  };
  // A plain function and one `then`, not an `async` function's try/finally: the same order, fewer promises (docs/performance.md).
  return function requestTelemetry(ctx, next) {
    const started = performance.now();
    return next().then(
      () => record(ctx, performance.now() - started),
      (err: unknown) => {
        record(ctx, performance.now() - started);
        throw err;
      },
    );
  };
};
