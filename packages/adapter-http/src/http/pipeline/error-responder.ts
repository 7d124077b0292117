import type { Logger } from '../../logger.js';
import { areaOf, type AppMiddleware, type RequestContext } from '../app-context.js';
import { ApiError, ERROR_TABLE, errorBody, toApiError, type ApiErrorAnswer } from '../api-error.js';
import { ResponseTooLarge, writeJson } from '../json-response.js';
import { isClientGone } from './client-gone.js';

export interface ErrorResponderOptions {
  readonly logger: Logger;
  /**
   * `API-Version` for an `/api` error raised before the request's version was
   * resolved (401, 413, 415, …): error bodies are the same in every version, so
   * this names the latest.
   */
  readonly apiVersionFallback: string;
  /** Told about every store failure a request ran into (answered 503): the metrics count them. */
  readonly onUnavailable?: () => void;
}

const hasBodyHeaders = (ctx: RequestContext): boolean =>
  ctx.req.headers['transfer-encoding'] !== undefined || ctx.req.headers['content-length'] !== undefined;

/**
 * Everything the steps after it throw becomes the JSON error body of docs/decisions/errors.md
 * (the headers set before the throw stay).
 * An unexpected error is logged with its stack and the request id, and answered
 * with a generic 500: its message may name internals (a driver, a file path).
 */
export const errorResponder = (options: ErrorResponderOptions): AppMiddleware => {
  const { logger, apiVersionFallback, onUnavailable } = options;
  const answer = (ctx: RequestContext, err: unknown): void => {
    const known = toApiError(err);
    if (err instanceof ResponseTooLarge) {
      // The net under the size rules (json-response.ts): what was refused and why, no stack (the rule is known, not a crash).
      logger.error({ request_id: ctx.state.requestId, reason: err.message }, 'answer over the 1 MiB bound: answered 500');
    } else if (known === undefined && !isClientGone(ctx, err)) {
      logger.error({ err, request_id: ctx.state.requestId }, 'unhandled error');
    } else if (known?.kind === 'unavailable') {
      onUnavailable?.();
      // Not a bug, but an operator wants to see outages (docs/decisions/mongodb.md).
      logger.warn({ request_id: ctx.state.requestId }, 'store unavailable: answered 503');
    }
    try {
      writeApiError(ctx, known ?? new ApiError('internal_server_error', 'An unexpected error occurred'), apiVersionFallback);
    } catch (failed) {
      // An error answer that cannot be written (over the bound despite the caps): still the JSON envelope, never Koa's plain text.
      logger.error(
        { request_id: ctx.state.requestId, reason: failed instanceof Error ? failed.message : String(failed) },
        'error answer not written: answered 500',
      );
      writeApiError(ctx, new ApiError('internal_server_error', 'An unexpected error occurred'), apiVersionFallback);
    }
  };
  // A plain function: koa-compose's `next()` never throws, it rejects (docs/performance.md).
  return function errorResponder(ctx, next) {
    return next().catch((err: unknown) => answer(ctx, err));
  };
};

/** Answer `apiError`: its status and headers from the error table, the JSON error body. */
export const writeApiError = (ctx: RequestContext, apiError: ApiErrorAnswer, apiVersionFallback: string): void => {
  const rule = ERROR_TABLE[apiError.kind];
  ctx.set({ ...rule.headers, ...apiError.headers });
  if (areaOf(ctx) === 'client' && !ctx.response.get('API-Version')) ctx.set('API-Version', apiVersionFallback);
  // Refused before its body arrived (401, 415, 429, …): close rather than let Node drain up to the rest of it.
  if (!ctx.req.complete && ctx.req.headers['content-length'] !== '0' && hasBodyHeaders(ctx)) ctx.set('Connection', 'close');
  writeJson(ctx, rule.status, errorBody(apiError, ctx.state.requestId));
};
