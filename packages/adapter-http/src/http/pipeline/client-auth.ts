import type { Environment } from '@debtkit/core';
import type { RequestContext } from '../app-context.js';
import { ApiError } from '../api-error.js';
import { type Authenticate, bearerToken, findClientByToken } from './bearer-token.js';

export interface ClientAuthOptions {
  readonly authenticate: Authenticate;
  /** Only tokens of the server's environment are accepted (`dk_sandbox_` or `dk_live_`). */
  readonly environment: Environment;
}

/**
 * Every `/api` request needs a client's bearer token (DESIGN 5); the client is
 * put on `ctx.state.client`. Missing, malformed, unknown, revoked and
 * other-environment tokens all get the same 401, so the answer tells nothing
 * about which tokens exist.
 */
export const clientAuth = (options: ClientAuthOptions): ((ctx: RequestContext) => Promise<void>) => {
  const { authenticate, environment } = options;
  return async function clientAuth(ctx) {
    const token = bearerToken(ctx);
    if (token === undefined) throw new ApiError('unauthorized', 'A bearer token is required (Authorization: Bearer <token>)');
    const client = await findClientByToken(authenticate, environment, token);
    if (client === undefined) throw new ApiError('unauthorized', 'The bearer token is invalid or revoked');
    ctx.state.client = client;
  };
};
