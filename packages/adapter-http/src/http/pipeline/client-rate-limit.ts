import type { AppMiddleware, RequestContext } from '../app-context.js';
import type { ApiErrorAnswer } from '../api-error.js';
import type { ClientRateLimiter, RateLimitDecision } from '../rate-limits.js';
import type { RefusalHold } from '../refusal-hold.js';

export interface ClientRateLimitOptions {
  readonly limiter: ClientRateLimiter;
  /** Told about every refused request (the metrics count them). */
  readonly onLimited?: (limit: 'client' | 'auth_failure') => void;
  /**
   * Answers a refusal in place (the error responder's writer), as Koa's rate-limit middleware
   * do: the request goes no further and nothing is thrown through the steps above it
   * (docs/performance.md, cheap refusals).
   */
  readonly refuse: (ctx: RequestContext, refusal: ApiErrorAnswer) => void;
  /**
   * Waited out before a blocked client's refusal is answered, and the pace of a held client's allowed
   * requests (refusal-hold.ts; DEBTKIT_REFUSAL_HOLD_MS). Absent: answered at once, never paced.
   */
  readonly hold?: RefusalHold;
}

/**
 * The per-client budget of docs/decisions/rate-limits.md, counted after authentication (the key is
 * the client's id) and before the body is read. Every authenticated `/api`
 * response carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`;
 * over the budget is 429 `rate_limited` with `Retry-After`.
 */
export const clientRateLimit = (options: ClientRateLimitOptions): AppMiddleware => {
  const { limiter, onLimited, refuse, hold } = options;
  /** The decision's headers; a refusal answered; whether the request goes on. */
  const apply = (ctx: RequestContext, decision: RateLimitDecision): boolean => {
    ctx.set({
      'RateLimit-Limit': String(decision.limit),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(decision.resetSeconds),
    });
    if (decision.allowed) return true;
    onLimited?.('client');
    const retryAfter = String(decision.resetSeconds);
    refuse(ctx, {
      kind: 'rate_limited',
      message: `Too many requests; retry after ${retryAfter} s`,
      details: undefined,
      headers: { 'Retry-After': retryAfter },
    });
    return false;
  };
  // A plain function, not `async`: a step that passes a request on returns `next()`'s own promise, without an async function's wrapper (docs/performance.md, round 5).
  return function clientRateLimit(ctx, next) {
    const client = ctx.state.client;
    if (ctx.state.area !== 'client' || client === undefined) return next();
    const key = String(client.id);
    // Blocked in this process for the rest of its window: refused at once, before any counting (docs/performance.md, cheap refusals).
    const blocked = limiter.blocked(key);
    if (blocked !== undefined) {
      if (hold === undefined) return apply(ctx, blocked) ? next() : undefined;
      // Held, then refused with what is left of the block (none left: the shortest Retry-After, 1 s).
      return hold.hold(key).then(() => void apply(ctx, limiter.blocked(key) ?? { ...blocked, resetSeconds: 1 }));
    }
    return limiter.consume(key).then((decision) => {
      if (!apply(ctx, decision)) return undefined;
      // A client that was held (it ignored a Retry-After) has its allowance spread over the window.
      const turn = hold?.pace(key, decision.limit);
      return turn === undefined ? next() : turn.then(() => next());
    });
  };
};
