import { performance } from 'node:perf_hooks';
import type { Middleware, ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { AppState } from '../app-context.js';
import { isClientGone } from './client-gone.js';

export interface RequestLogOptions {
  readonly logger: Logger;
}

const MAX_LOGGED_PATH = 200;

/**
 * One JSON line per request: method, route pattern (the raw path only when no
 * route matched), status, duration and request id. Headers, query strings and
 * bodies are never logged: they carry tokens and personal data.
 */
export const requestLog = (options: RequestLogOptions): Middleware<AppState> => {
  const logRequest = requestLogLine(options);
  return async function requestLog(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      logRequest(ctx, performance.now() - started);
    }
  };
};

/** Write a finished request's line; `elapsedMs` since it came in. `requestLog`'s work, for a middleware that does more at the end of a request. */
export const requestLogLine = (options: RequestLogOptions): ((ctx: ParameterizedContext<AppState>, elapsedMs: number) => void) => {
  const { logger } = options;
  return (ctx, elapsedMs) => {
    const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    const line = {
      request_id: ctx.state.requestId,
      method: ctx.method,
      route: typeof matched === 'string' ? matched : ctx.path.slice(0, MAX_LOGGED_PATH),
      status: ctx.status,
      duration_ms: Math.round(elapsedMs * 100) / 100,
    };
    if (isClientGone(ctx)) logger.info({ ...line, aborted: true }, 'request aborted by the client');
    else logger.info(line, 'request');
  };
};
