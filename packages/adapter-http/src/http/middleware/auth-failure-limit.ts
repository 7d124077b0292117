import type { Middleware } from 'koa';
import { authOfPath, type AppState } from '../app-context.js';
import { ApiError, toApiError } from '../api-error.js';
import type { AuthFailureLimiter } from '../rate-limits.js';

export interface AuthFailureLimitOptions {
  readonly limiter: AuthFailureLimiter;
  /** The paths whose authentication is counted; default: `/api` and `/admin`. */
  readonly guards?: (path: string) => boolean;
  /** Told about every refused request (the metrics count them). */
  readonly onLimited?: (area: 'client' | 'auth_failure') => void;
}

/**
 * Failed authentication is limited per client address (DESIGN 4.3): once an
 * address has failed too often this minute, its `/api` and `/admin` requests get
 * 429 without the token being looked at, until the minute is over. Runs before
 * the authentication it counts; every 401 below it is a failure.
 *
 * The address is the connection's peer (`ctx.ip`, Koa's `proxy` off): behind a
 * proxy every client shares the proxy's address.
 */
export const authFailureLimit = (options: AuthFailureLimitOptions): Middleware<AppState> => {
  const { limiter, onLimited } = options;
  const guards = options.guards ?? ((path: string) => authOfPath(path) !== 'none');
  return async function authFailureLimit(ctx, next) {
    if (!guards(ctx.path)) return next();
    const blockedFor = await limiter.blockedFor(ctx.ip);
    if (blockedFor > 0) {
      onLimited?.('auth_failure');
      const retryAfter = String(blockedFor);
      throw new ApiError('rate_limited', `Too many failed authentications from this address; retry after ${retryAfter} s`, undefined, {
        'Retry-After': retryAfter,
      });
    }
    try {
      await next();
    } catch (err) {
      if (toApiError(err)?.kind === 'unauthorized') await limiter.recordFailure(ctx.ip);
      throw err;
    }
  };
};
