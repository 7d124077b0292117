import type { RequestContext } from '../app-context.js';
import { ApiError, toApiError } from '../api-error.js';
import type { AuthFailureLimiter } from '../rate-limits.js';

export interface AuthFailureLimitOptions {
  readonly limiter: AuthFailureLimiter;
  /** Told about every refused request (the metrics count them). */
  readonly onLimited?: (limit: 'client' | 'auth_failure') => void;
}

/**
 * Failed authentication is limited per client address (DESIGN 4.3): once an
 * address has failed too often this minute, its requests to the guarded paths
 * (`/api`, `/admin`, `/metrics`) get 429 without the token being looked at,
 * until the minute is over. The pipeline checks before authenticating and
 * reports what the rest of the request threw: every 401 in it is a failure.
 *
 * The address is the connection's peer (`ctx.ip`, Koa's `proxy` off): behind a
 * proxy every client shares the proxy's address.
 */
export interface AuthFailureGuard {
  /** Refuse (429) an address that failed too often; called before the authentication it guards. */
  check(ctx: RequestContext): void;
  /** Count a failed authentication (`err` is what the rest of the request threw); the caller rethrows `err`. */
  failed(ctx: RequestContext, err: unknown): Promise<void>;
}

export const authFailureLimit = (options: AuthFailureLimitOptions): AuthFailureGuard => {
  const { limiter, onLimited } = options;
  return {
    check(ctx) {
      const blockedFor = limiter.blockedFor(ctx.ip);
      if (blockedFor > 0) {
        onLimited?.('auth_failure');
        const retryAfter = String(blockedFor);
        throw new ApiError('rate_limited', `Too many failed authentications from this address; retry after ${retryAfter} s`, undefined, {
          'Retry-After': retryAfter,
        });
      }
    },
    async failed(ctx, err) {
      if (toApiError(err)?.kind === 'unauthorized') await limiter.recordFailure(ctx.ip);
    },
  };
};
