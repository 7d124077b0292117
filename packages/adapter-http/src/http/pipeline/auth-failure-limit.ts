import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import type { AppMiddleware, RequestContext } from '../app-context.js';
import { ApiError, toApiError } from '../api-error.js';
import type { AuthFailureLimiter } from '../rate-limits.js';
import { bearerToken, secretsEqual } from './bearer-token.js';

export interface AuthFailureGuardOptions {
  readonly limiter: AuthFailureLimiter;
  /** Told about every refused request (the metrics count them). */
  readonly onLimited?: (limit: 'client' | 'auth_failure') => void;
  /**
   * Whether the request carries a credential the limit never refuses
   * (docs/decisions/proxies.md): the admin token, when right, or a token this
   * process has seen authenticate lately. Asked only of a blocked address, and before a lookup.
   */
  readonly proven: (ctx: RequestContext) => boolean;
}

/** IPv6 addresses' keys, kept: parsing one costs microseconds, and every guarded request asks (`check`). */
const ipv6Keys = new LRUCache<string, string>({ max: 10_000 });

/**
 * The key an address is counted under: IPv4 as it is (an IPv4-mapped IPv6
 * address as its IPv4), IPv6 by its /64, the block one subscriber or host is
 * usually given (so stepping through one's own /64 does not reset the count).
 * Anything else (no address: a socket without a peer) is its own key. Every
 * guarded request asks, so the common cases skip `ipaddr.js`, whose validity
 * test throws and catches for each form it rejects: dotted IPv4 is checked by
 * `node:net`, and an IPv6 address's key is kept once made.
 */
export const addressKey = (address: string): string => {
  if (isIPv4(address) || !isIPv6(address)) return address;
  const kept = ipv6Keys.get(address);
  if (kept !== undefined) return kept;
  const parsed = ipaddr.process(address);
  const key =
    parsed.kind() === 'ipv4'
      ? parsed.toString()
      : `${(parsed as ipaddr.IPv6).parts
          .slice(0, 4)
          .map((p) => p.toString(16))
          .join(':')}::/64`;
  ipv6Keys.set(address, key);
  return key;
};

/** What `proven` answers for a request: the admin token (on `/admin` and `/metrics`), or a seen token (on `/api`). */
export const provenCredential =
  (options: { readonly adminToken?: string | undefined; readonly seen?: { has(token: string): boolean } | undefined }) =>
  (ctx: RequestContext): boolean => {
    const token = bearerToken(ctx);
    if (token === undefined) return false;
    if (ctx.state.area === 'client') return options.seen?.has(token) === true;
    return options.adminToken !== undefined && secretsEqual(token, options.adminToken);
  };

/**
 * Failed authentication is limited per client address (docs/decisions/rate-limits.md, docs/decisions/proxies.md): past
 * `DEBTKIT_AUTH_FAILURE_LIMIT` failures this minute, an address's requests to
 * the guarded routes (`/api`, `/admin`, `/metrics`) get 429 without their token
 * being looked up, until the minute is over; except a proven credential (the
 * admin token, compared in constant time, or a token this process has seen
 * authenticate in the last day), which is still checked and served. So one
 * client flooding bad tokens behind a shared proxy or NAT cannot lock out the
 * others already working there, nor the operator.
 *
 * To hold exactly under concurrency, a token is never looked up without a try
 * taken from the address's budget first (`attempt`, atomic in the shared
 * counter); the authentication steps take it, and give it back when the
 * token was good (`release`). A token the token cache knows takes no try
 * (and so no store command), nor does a token seen authenticate (it is looked
 * up at once, even from a blocked address); a 401 that took no try (such a
 * token, since revoked or expired) is counted after the fact by `failed`.
 *
 * The address is `ctx.ip`: the client's as the trusted proxies report it (the
 * client-address step; without trusted proxies, the connection's peer),
 * counted under `addressKey` (IPv6 per /64).
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
  const { limiter, onLimited, proven } = options;
  /** The requests holding a try. */
  const trying = new WeakSet<RequestContext>();
  return {
    check(ctx) {
      const blockedFor = limiter.blockedFor(addressKey(ctx.ip));
      if (blockedFor > 0 && !proven(ctx)) {
        onLimited?.('auth_failure');
        throw refuse(blockedFor);
      }
    },
    async attempt(ctx) {
      if (ctx.state.area === 'client' && proven(ctx)) return;
      const wait = await limiter.attempt(addressKey(ctx.ip));
      if (wait > 0) {
        onLimited?.('auth_failure');
        throw refuse(wait);
      }
      trying.add(ctx);
    },
    async release(ctx) {
      if (trying.delete(ctx)) await limiter.giveBack(addressKey(ctx.ip));
    },
    async failed(ctx, err) {
      if (!trying.has(ctx) && toApiError(err)?.kind === 'unauthorized') await limiter.recordFailure(addressKey(ctx.ip));
    },
  };
};

export interface AuthFailureLimitOptions {
  readonly guard: AuthFailureGuard;
  /** Whether a request is guarded here (under `/api` or `/admin`, where every path takes a token); default: all. */
  readonly guards?: (ctx: RequestContext) => boolean;
}

/**
 * Refuses a blocked address before any authentication (unless its credential
 * is proven), and counts what the steps after it failed without a try.
 */
export const authFailureLimit = (options: AuthFailureLimitOptions): AppMiddleware => {
  const { guard, guards } = options;
  // A plain function (docs/performance.md): `check` throwing is a rejection to koa-compose, as from an `async` step.
  return function authFailureLimit(ctx, next) {
    if (guards !== undefined && !guards(ctx)) return next();
    guard.check(ctx);
    return next().catch((err: unknown) =>
      guard.failed(ctx, err).then(() => {
        throw err;
      }),
    );
  };
};

export interface AdminTokenLimitOptions {
  readonly guard: AuthFailureGuard;
  /** Absent: the route answers 404 (nothing to guess). */
  readonly adminToken?: string | undefined;
}

/**
 * The limit as a route's own middleware, for a route outside `/admin` whose
 * handler takes the admin token (`GET /metrics`): it runs for whatever
 * spelling of the path the router answers (`/metrics/` too), so no spelling
 * escapes it (docs/decisions/proxies.md). A wrong or missing token takes a try before the
 * handler answers 401, as on `/admin`, so the count is exact under concurrency.
 */
export const adminTokenLimit = (options: AdminTokenLimitOptions): AppMiddleware => {
  const { guard, adminToken } = options;
  return async function adminTokenLimit(ctx, next) {
    if (adminToken === undefined) return next();
    guard.check(ctx);
    const token = bearerToken(ctx);
    if (token === undefined || !secretsEqual(token, adminToken)) await guard.attempt(ctx);
    return next();
  };
};
