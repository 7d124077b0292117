import type { Environment } from '@debtkit/core';
import type { RequestContext } from '../app-context.js';
import { ApiError } from '../api-error.js';
import { type Authenticate, type KnownClient, bearerToken, findClientByToken } from './bearer-token.js';

export interface ClientAuthOptions {
  readonly authenticate: Authenticate;
  readonly knownClient?: KnownClient | undefined;
  /** Only tokens of the server's environment are accepted (`dk_sandbox_` or `dk_live_`). */
  readonly environment: Environment;
}

/**
 * Every `/api` request needs a client's bearer token (DESIGN 5); the client is
 * put on `ctx.state.client`. Missing, malformed, unknown, revoked and
 * other-environment tokens all get the same 401, so the answer tells nothing
 * about which tokens exist.
 */
export const clientAuth = (options: ClientAuthOptions): ((ctx: RequestContext) => Promise<void> | undefined) => {
  const { authenticate, environment, knownClient } = options;
  /**
   * Done at once (`undefined`) for a token the cache knows; otherwise the
   * promise of the store's answer. Throws (or rejects with) the 401.
   */
  return function clientAuth(ctx) {
    const token = bearerToken(ctx);
    if (token === undefined) throw new ApiError('unauthorized', 'A bearer token is required (Authorization: Bearer <token>)');
    const known = knownClient?.(environment, token);
    if (known !== undefined) {
      ctx.state.client = known;
      return undefined;
    }
    return findClientByToken(authenticate, environment, token).then((client) => {
      if (client === undefined) throw new ApiError('unauthorized', 'The bearer token is invalid or revoked');
      ctx.state.client = client;
    });
  };
};
