import { performance } from 'node:perf_hooks';
import type { Middleware } from 'koa';
import type { AppState } from '../app-context.js';
import { type RequestLogOptions, requestLogLine } from './request-log.js';
import { type RequestMetricsOptions, requestMetricsRecord } from './request-metrics.js';

/**
 * `requestLog` and `requestMetrics` in one middleware (DESIGN 9): one clock
 * read at each end and one `finally` per request instead of two of each. The
 * metrics are recorded first, then the line is written, as when the log
 * middleware ran outside the metrics one; both see the status the error
 * handler answered with.
 */
export const requestTelemetry = (options: RequestLogOptions & RequestMetricsOptions): Middleware<AppState> => {
  const recordRequest = requestMetricsRecord(options);
  const logRequest = requestLogLine(options);
  return async function requestTelemetry(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      const elapsedMs = performance.now() - started;
      recordRequest(ctx, elapsedMs);
      logRequest(ctx, elapsedMs);
    }
  };
};
