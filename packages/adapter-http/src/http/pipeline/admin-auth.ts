import type { Environment } from '@debtkit/core';
import type { AppMiddleware } from '../app-context.js';
import { ApiError } from '../api-error.js';
import { type Authenticate, bearerToken, findClientByToken, secretsEqual } from './bearer-token.js';
import type { AuthFailureGuard } from './auth-failure-limit.js';

export interface AdminAuthOptions {
  readonly authenticate: Authenticate;
  readonly environment: Environment;
  /** When absent the admin API does not exist: every `/admin` path answers 404. */
  readonly adminToken?: string;
  /** The failed-authentication limit's tries (docs/decisions/rate-limits.md): one is taken before a wrong or missing token is answered; absent, nothing is limited. */
  readonly attempts?: Pick<AuthFailureGuard, 'attempt' | 'release'> | undefined;
}

/**
 * Requests under `/admin`: the admin API (docs/operations.md) takes the operator's token (`ctx.state.admin`). A
 * client's valid token is recognised and refused with 403, so an integrator who
 * tries it learns the token works but lacks the role, rather than that it is wrong.
 */
export const adminAuth = (options: AdminAuthOptions): AppMiddleware => {
  const { authenticate, environment, adminToken, attempts } = options;
  const admin = async (ctx: Parameters<AppMiddleware>[0], next: Parameters<AppMiddleware>[1]): Promise<void> => {
    if (adminToken === undefined) throw new ApiError('not_found', 'No such route');
    const token = bearerToken(ctx);
    if (token === undefined) {
      await attempts?.attempt(ctx);
      throw new ApiError('unauthorized', 'The admin token is required (Authorization: Bearer <token>)');
    }
    if (!secretsEqual(token, adminToken)) {
      await attempts?.attempt(ctx);
      let client;
      try {
        client = await findClientByToken(authenticate, environment, token);
      } catch (err) {
        await attempts?.release(ctx);
        throw err;
      }
      if (client !== undefined) {
        // A client's token, refused for its role: not a failed authentication.
        await attempts?.release(ctx);
        throw new ApiError('forbidden', 'A client token cannot be used on the admin API');
      }
      throw new ApiError('unauthorized', 'The admin token is invalid');
    }
    ctx.state.admin = true;
    return next();
  };
  // A plain function, not `async`: a step that passes a request on returns `next()`'s own promise, without an async function's wrapper (docs/performance.md, round 5).
  return function adminAuth(ctx, next) {
    return ctx.state.area === 'admin' ? admin(ctx, next) : next();
  };
};
