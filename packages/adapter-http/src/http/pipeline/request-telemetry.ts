import type { Logger } from '../../logger.js';
import type { RequestContext } from '../app-context.js';
import type { Metrics } from '../metrics.js';
import { isClientGone } from './client-gone.js';
import { requestLineWriter } from './request-line.js';

/** The route label when no route matched: raw paths would make one series per URL a client invents. */
export const UNMATCHED_ROUTE = 'unmatched';

const MAX_LOGGED_PATH = 200;

export interface RequestTelemetryOptions {
  readonly logger: Logger;
  readonly metrics: Metrics;
}

/**
 * What is recorded once a request is answered (with the status the error
 * responder chose): its count and duration by method, route pattern and
 * status (`unmatched` when no route matched), then one JSON log line with the
 * method, the route pattern (the raw path, cut to 200 characters, when no
 * route matched), status, duration and request id. Headers, query strings and
 * bodies are never logged: they carry tokens and personal data.
 */
export const requestTelemetry = (options: RequestTelemetryOptions): ((ctx: RequestContext, elapsedMs: number) => void) => {
  const writeLine = requestLineWriter(options.logger);
  const { recordRequest } = options.metrics;
  return function requestTelemetry(ctx, elapsedMs) {
    const { method, status } = ctx;
    const matched = ctx.state.route;
    recordRequest(method, matched ?? UNMATCHED_ROUTE, status, elapsedMs / 1000);
    writeLine({
      requestId: ctx.state.requestId,
      ...(ctx.state.client === undefined ? {} : { clientId: ctx.state.client.id }),
      method,
      route: matched ?? ctx.path.slice(0, MAX_LOGGED_PATH),
      status,
      durationMs: Math.round(elapsedMs * 100) / 100,
      // An answer the pipeline already sent (response-head.ts) reached the socket: the client had not left.
      aborted: !ctx.res.writableEnded && isClientGone(ctx),
    });
  };
};
