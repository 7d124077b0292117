import type { Environment } from '@debtkit/core';
import type { AppMiddleware } from '../app-context.js';
import { ApiError } from '../api-error.js';
import { type Authenticate, type KnownClient, bearerToken, findClientByToken } from './bearer-token.js';
import type { AuthFailureGuard } from './auth-failure-limit.js';

export interface ClientAuthOptions {
  readonly authenticate: Authenticate;
  readonly knownClient?: KnownClient | undefined;
  /** Only tokens of the server's environment are accepted (`dk_sandbox_` or `dk_live_`). */
  readonly environment: Environment;
  /** The failed-authentication limit's tries (DESIGN 4.3): one is taken before a token is looked up; absent, nothing is limited. */
  readonly attempts?: Pick<AuthFailureGuard, 'attempt' | 'release'> | undefined;
}

/**
 * Every request under `/api` needs a client's bearer token (DESIGN 5); the client is
 * put on `ctx.state.client`. Missing, malformed, unknown, revoked and
 * other-environment tokens all get the same 401, so the answer tells nothing
 * about which tokens exist.
 */
export const clientAuth = (options: ClientAuthOptions): AppMiddleware => {
  const { authenticate, environment, knownClient, attempts } = options;
  return async function clientAuth(ctx, next) {
    if (ctx.state.area !== 'client') return next();
    const token = bearerToken(ctx);
    if (token === undefined) {
      await attempts?.attempt(ctx);
      throw new ApiError('unauthorized', 'A bearer token is required (Authorization: Bearer <token>)');
    }
    // A token the cache knows is answered at once, with no store command (and takes no try).
    let client = knownClient?.(environment, token);
    if (client === undefined) {
      await attempts?.attempt(ctx);
      try {
        client = await findClientByToken(authenticate, environment, token);
      } catch (err) {
        await attempts?.release(ctx);
        throw err;
      }
      if (client === undefined) throw new ApiError('unauthorized', 'The bearer token is invalid or revoked');
      await attempts?.release(ctx);
    }
    ctx.state.client = client;
    await next();
  };
};
