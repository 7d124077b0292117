import { performance } from 'node:perf_hooks';
import type { Middleware, ParameterizedContext } from 'koa';
import type { AppState } from '../app-context.js';
import { toApiError } from '../api-error.js';
import type { Metrics } from '../metrics.js';

/** The route label when no route matched: raw paths would make one series per URL a client invents. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts and times every request by method, route pattern and final status.
 * Runs outside the error handler, so errors are counted with the status they
 * were answered with.
 */
export interface RequestMetricsOptions {
  readonly metrics: Metrics;
  /**
   * The route pattern of a path, for requests answered before the router ran
   * (401, 413, 415, 429): without it they would all count as `unmatched`.
   */
  readonly routeOf?: (method: string, path: string) => string | undefined;
}

export const requestMetrics = (options: RequestMetricsOptions): Middleware<AppState> => {
  const recordRequest = requestMetricsRecord(options);
  return async function requestMetrics(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      recordRequest(ctx, performance.now() - started);
    }
  };
};

/** Count and time a finished request; `elapsedMs` since it came in. `requestMetrics`'s work, for a middleware that does more at the end of a request. */
export const requestMetricsRecord = (options: RequestMetricsOptions): ((ctx: ParameterizedContext<AppState>, elapsedMs: number) => void) => {
  const { requests, requestDuration } = options.metrics;
  const routeOf = options.routeOf ?? (() => undefined);
  return (ctx, elapsedMs) => {
    const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    const route = typeof matched === 'string' ? matched : (routeOf(ctx.method, ctx.path) ?? UNMATCHED_ROUTE);
    const labels = { method: ctx.method, route, status: String(ctx.status) };
    requests.inc(labels);
    requestDuration.observe(labels, elapsedMs / 1000);
  };
};

/**
 * Counts the store failures requests run into (answered 503). Runs inside the
 * error handler, where the thrown error is still what the store reported.
 */
export const storeErrorMetrics = (options: { readonly metrics: Metrics }): Middleware<AppState> => {
  const { storeErrors } = options.metrics;
  return async function storeErrorMetrics(ctx, next) {
    try {
      await next();
    } catch (err) {
      if (toApiError(err)?.kind === 'unavailable') storeErrors.inc({ kind: 'unavailable' });
      throw err;
    }
  };
};
