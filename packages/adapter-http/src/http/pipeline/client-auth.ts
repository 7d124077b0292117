import type { Client, Environment } from '@debtkit/core';
import type { AppMiddleware } from '../app-context.js';
import { ApiError } from '../api-error.js';
import { type Authenticate, type KnownClient, bearerToken, findClientByToken } from './bearer-token.js';
import type { AuthFailureGuard } from './auth-failure-limit.js';
import type { SeenTokens } from './seen-tokens.js';

export interface ClientAuthOptions {
  readonly authenticate: Authenticate;
  readonly knownClient?: KnownClient | undefined;
  /** Only tokens of the server's environment are accepted (`dk_sandbox_` or `dk_live_`). */
  readonly environment: Environment;
  /** The failed-authentication limit's tries (docs/decisions/rate-limits.md): one is taken before a token is looked up; absent, nothing is limited. */
  readonly attempts?: Pick<AuthFailureGuard, 'attempt' | 'release'> | undefined;
  /** Told of every token a lookup found (docs/decisions/proxies.md: the limit still serves it from a blocked address). */
  readonly seen?: Pick<SeenTokens, 'add'> | undefined;
}

/**
 * Every request under `/api` needs a client's bearer token (docs/decisions/tenancy.md); the client is
 * put on `ctx.state.client`. Missing, malformed, unknown, revoked and
 * other-environment tokens all get the same 401, so the answer tells nothing
 * about which tokens exist.
 */
export const clientAuth = (options: ClientAuthOptions): AppMiddleware => {
  const { authenticate, environment, knownClient, attempts, seen } = options;
  /**
   * The lookups under way, by token. When a token's cache entry expires, every
   * request in flight with it misses at once: they share one lookup, so they
   * cost one store command and one try of the failed-authentication limit,
   * not one each (which could use up the limit with a good token).
   */
  const looking = new Map<string, Promise<Client | undefined>>();
  /** A try taken, then the store asked; the try given back unless the token was not found. */
  const lookUp = async (ctx: Parameters<AppMiddleware>[0], token: string): Promise<Client | undefined> => {
    await attempts?.attempt(ctx);
    let client: Client | undefined;
    try {
      client = await findClientByToken(authenticate, environment, token);
    } catch (err) {
      await attempts?.release(ctx);
      throw err;
    }
    if (client !== undefined) {
      seen?.add(token);
      await attempts?.release(ctx);
    }
    return client;
  };
  /** A request whose token the cache does not know (or that has none): looked up, with a try of the failure limit. */
  const unknownToken = async (
    ctx: Parameters<AppMiddleware>[0],
    next: Parameters<AppMiddleware>[1],
    token: string | undefined,
  ): Promise<void> => {
    if (token === undefined) {
      await attempts?.attempt(ctx);
      throw new ApiError('unauthorized', 'A bearer token is required (Authorization: Bearer <token>)');
    }
    let client: Client | undefined;
    const shared = looking.get(token);
    if (shared !== undefined) {
      // Another request is looking this token up: its answer is this one's (no second try, no second command).
      client = await shared;
      if (client === undefined) {
        await attempts?.attempt(ctx);
        throw new ApiError('unauthorized', 'The bearer token is invalid or revoked');
      }
    } else {
      const lookup = lookUp(ctx, token);
      looking.set(token, lookup);
      try {
        client = await lookup;
      } finally {
        looking.delete(token);
      }
      if (client === undefined) throw new ApiError('unauthorized', 'The bearer token is invalid or revoked');
    }
    ctx.state.client = client;
    return next();
  };
  // A plain function, not `async`: a step that passes a request on returns `next()`'s own promise, without an async function's wrapper (docs/performance.md, round 5).
  return function clientAuth(ctx, next) {
    if (ctx.state.area !== 'client') return next();
    const token = bearerToken(ctx);
    // A token the cache knows is answered at once, with no store command (and takes no try).
    const known = token === undefined ? undefined : knownClient?.(environment, token);
    if (known === undefined) return unknownToken(ctx, next, token);
    ctx.state.client = known;
    return next();
  };
};
