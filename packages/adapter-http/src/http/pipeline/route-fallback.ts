import type { AppMiddleware } from '../app-context.js';
import { ApiError } from '../api-error.js';
import type { ApiRouter } from '../router.js';

/**
 * After the router: a request it passed on has no route for its method. A
 * known path answers 405 with `Allow` (OPTIONS: 204 with `Allow`), anything
 * else 404; what the router's `allowedMethods()` does, answered as the API's
 * JSON errors. `OPTIONS` is always allowed on a known path.
 *
 * It runs where the handler would have, after the path's authentication, so
 * unauthenticated callers learn nothing about the routes.
 */
export const routeFallback = (router: Pick<ApiRouter, 'lookup'>): AppMiddleware =>
  async function routeFallback(ctx) {
    // Asked of the router's public `match` (router.ts), not read from what it leaves on the context.
    const found = router.lookup(ctx.method, ctx.path);
    if (found.pattern !== undefined) ctx.state.route ??= found.pattern;
    const allowed = found.kind === 'unrouted' ? found.allowed : [found.method];
    if (allowed.length === 0) throw new ApiError('not_found', 'No such route');
    const allow = [...allowed, 'OPTIONS'].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set('Allow', allow);
      return;
    }
    throw new ApiError('method_not_allowed', `${ctx.method} is not allowed on this route; allowed: ${allow}`, undefined, { Allow: allow });
  };
