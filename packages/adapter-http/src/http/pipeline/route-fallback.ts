import type { AppMiddleware } from '../app-context.js';
import { ApiError } from '../api-error.js';
import { allowedMethodsOf } from '../router.js';

/** The layers @koa/router found matching the request's path (whatever their method), kept on the context. */
interface RouterMatches {
  readonly matched?: ReadonlyArray<{ readonly path: string | RegExp; readonly methods: ReadonlyArray<string> }>;
}

/**
 * After the router: a request it passed on has no route for its method. A
 * known path answers 405 with `Allow` (OPTIONS: 204 with `Allow`), anything
 * else 404; what the router's `allowedMethods()` does, answered as the API's
 * JSON errors. `OPTIONS` is always allowed on a known path.
 *
 * It runs where the handler would have, after the path's authentication, so
 * unauthenticated callers learn nothing about the routes.
 */
export const routeFallback = (): AppMiddleware =>
  async function routeFallback(ctx) {
    const matched = (ctx as RouterMatches).matched ?? [];
    const first = matched[0]?.path;
    if (typeof first === 'string') ctx.state.route ??= first;
    const allowed = allowedMethodsOf(matched);
    if (allowed.length === 0) throw new ApiError('not_found', 'No such route');
    const allow = [...allowed, 'OPTIONS'].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set('Allow', allow);
      return;
    }
    throw new ApiError('method_not_allowed', `${ctx.method} is not allowed on this route; allowed: ${allow}`, undefined, { Allow: allow });
  };
