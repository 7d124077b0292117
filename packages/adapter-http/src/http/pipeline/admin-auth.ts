import type { Environment } from '@debtkit/core';
import type { RequestContext } from '../app-context.js';
import { ApiError } from '../api-error.js';
import { type Authenticate, bearerToken, findClientByToken, secretsEqual } from './bearer-token.js';

export interface AdminAuthOptions {
  readonly authenticate: Authenticate;
  readonly environment: Environment;
  /** When absent the admin API does not exist: every `/admin` path answers 404. */
  readonly adminToken?: string;
}

/**
 * The admin API (DESIGN 6) takes the operator's token (`ctx.state.admin`). A
 * client's valid token is recognised and refused with 403, so an integrator who
 * tries it learns the token works but lacks the role, rather than that it is wrong.
 */
export const adminAuth = (options: AdminAuthOptions): ((ctx: RequestContext) => Promise<void>) => {
  const { authenticate, environment, adminToken } = options;
  return async function adminAuth(ctx) {
    if (adminToken === undefined) throw new ApiError('not_found', 'No such route');
    const token = bearerToken(ctx);
    if (token === undefined) throw new ApiError('unauthorized', 'The admin token is required (Authorization: Bearer <token>)');
    if (!secretsEqual(token, adminToken)) {
      if ((await findClientByToken(authenticate, environment, token)) !== undefined) {
        throw new ApiError('forbidden', 'A client token cannot be used on the admin API');
      }
      throw new ApiError('unauthorized', 'The admin token is invalid');
    }
    ctx.state.admin = true;
  };
};
