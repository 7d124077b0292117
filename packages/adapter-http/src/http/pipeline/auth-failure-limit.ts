import type { AppMiddleware, RequestContext } from '../app-context.js';
import { ApiError, toApiError } from '../api-error.js';
import type { AuthFailureLimiter } from '../rate-limits.js';

export interface AuthFailureGuardOptions {
  readonly limiter: AuthFailureLimiter;
  /** Told about every refused request (the metrics count them). */
  readonly onLimited?: (limit: 'client' | 'auth_failure') => void;
}

/**
 * Failed authentication is limited per client address (DESIGN 4.3): past
 * `DEBTKIT_AUTH_FAILURE_LIMIT` failures this minute, an address's requests to
 * the guarded paths (`/api`, `/admin`, `/metrics`) get 429 without their token
 * being looked at, until the minute is over.
 *
 * To hold exactly under concurrency, a token is never looked up without a try
 * taken from the address's budget first (`attempt`, atomic in the shared
 * counter); the authentication steps take it, and give it back when the
 * token was good (`release`). A token this process already knows takes no
 * try (and so no store command). A 401 that took no try (`/metrics`' admin
 * token, compared in place) is counted after the fact by `failed`.
 *
 * The address is the connection's peer (`ctx.ip`, Koa's `proxy` off): behind a
 * proxy every client shares the proxy's address.
 */
export interface AuthFailureGuard {
  /** Throws 429 when the address is blocked in this process (no I/O). */
  check(ctx: RequestContext): void;
  /** Take a try before looking a token up (or answering 401 for a missing one); throws 429 when none is left. */
  attempt(ctx: RequestContext): Promise<void>;
  /** The request's try did not fail authentication (a good token, or the store failed): give it back. */
  release(ctx: RequestContext): Promise<void>;
  /** What the rest of the request threw: a 401 that took no try is counted now. */
  failed(ctx: RequestContext, err: unknown): Promise<void>;
}

const refuse = (retryAfterSeconds: number): ApiError => {
  const retryAfter = String(retryAfterSeconds);
  return new ApiError('rate_limited', `Too many failed authentications from this address; retry after ${retryAfter} s`, undefined, {
    'Retry-After': retryAfter,
  });
};

export const authFailureGuard = (options: AuthFailureGuardOptions): AuthFailureGuard => {
  const { limiter, onLimited } = options;
  /** The requests holding a try. */
  const trying = new WeakSet<RequestContext>();
  return {
    check(ctx) {
      const blockedFor = limiter.blockedFor(ctx.ip);
      if (blockedFor > 0) {
        onLimited?.('auth_failure');
        throw refuse(blockedFor);
      }
    },
    async attempt(ctx) {
      const wait = await limiter.attempt(ctx.ip);
      if (wait > 0) {
        onLimited?.('auth_failure');
        throw refuse(wait);
      }
      trying.add(ctx);
    },
    async release(ctx) {
      if (trying.delete(ctx)) await limiter.giveBack(ctx.ip);
    },
    async failed(ctx, err) {
      if (!trying.has(ctx) && toApiError(err)?.kind === 'unauthorized') await limiter.recordFailure(ctx.ip);
    },
  };
};

export interface AuthFailureLimitOptions {
  readonly guard: AuthFailureGuard;
  /** Whether a request is on a guarded path (one that takes a token). */
  readonly guards: (ctx: RequestContext) => boolean;
}

/** Refuses a blocked address before any authentication, and counts what the steps after it failed without a try. */
export const authFailureLimit = (options: AuthFailureLimitOptions): AppMiddleware => {
  const { guard, guards } = options;
  return async function authFailureLimit(ctx, next) {
    if (!guards(ctx)) return next();
    guard.check(ctx);
    try {
      await next();
    } catch (err) {
      await guard.failed(ctx, err);
      throw err;
    }
  };
};
