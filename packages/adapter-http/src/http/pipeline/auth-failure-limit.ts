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
 * until the minute is over. Wraps the rest of the request: every 401 in it is a
 * failure.
 *
 * The address is the connection's peer (`ctx.ip`, Koa's `proxy` off): behind a
 * proxy every client shares the proxy's address.
 */
export const authFailureLimit = (options: AuthFailureLimitOptions): ((ctx: RequestContext, rest: () => Promise<void>) => Promise<void>) => {
  const { limiter, onLimited } = options;
  return async function authFailureLimit(ctx, rest) {
    const blockedFor = await limiter.blockedFor(ctx.ip);
    if (blockedFor > 0) {
      onLimited?.('auth_failure');
      const retryAfter = String(blockedFor);
      throw new ApiError('rate_limited', `Too many failed authentications from this address; retry after ${retryAfter} s`, undefined, {
        'Retry-After': retryAfter,
      });
    }
    try {
      await rest();
    } catch (err) {
      if (toApiError(err)?.kind === 'unauthorized') await limiter.recordFailure(ctx.ip);
      throw err;
    }
  };
};
