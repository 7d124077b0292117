import type { AppMiddleware, RequestContext } from '../app-context.js';
import { ApiError } from '../api-error.js';
import type { ClientRateLimiter, RateLimitDecision } from '../rate-limits.js';

export interface ClientRateLimitOptions {
  readonly limiter: ClientRateLimiter;
  /** Told about every refused request (the metrics count them). */
  readonly onLimited?: (limit: 'client' | 'auth_failure') => void;
}

/**
 * The per-client budget of docs/decisions/rate-limits.md, counted after authentication (the key is
 * the client's id) and before the body is read. Every authenticated `/api`
 * response carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`;
 * over the budget is 429 `rate_limited` with `Retry-After`.
 */
export const clientRateLimit = (options: ClientRateLimitOptions): AppMiddleware => {
  const { limiter, onLimited } = options;
  const apply = (ctx: RequestContext, decision: RateLimitDecision): void => {
    ctx.set({
      'RateLimit-Limit': String(decision.limit),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(decision.resetSeconds),
    });
    if (!decision.allowed) {
      onLimited?.('client');
      const retryAfter = String(decision.resetSeconds);
      throw new ApiError('rate_limited', `Too many requests; retry after ${retryAfter} s`, undefined, { 'Retry-After': retryAfter });
    }
  };
  // A plain function, not `async`: a step that passes a request on returns `next()`'s own promise, without an async function's wrapper (docs/performance.md, round 5).
  return function clientRateLimit(ctx, next) {
    const client = ctx.state.client;
    if (ctx.state.area !== 'client' || client === undefined) return next();
    const key = String(client.id);
    // Blocked in this process for the rest of its window: refused at once, before any counting (docs/performance.md, cheap refusals).
    const blocked = limiter.blocked(key);
    if (blocked !== undefined) {
      apply(ctx, blocked);
      return next();
    }
    return limiter.consume(key).then((decision) => {
      apply(ctx, decision);
      return next();
    });
  };
};
