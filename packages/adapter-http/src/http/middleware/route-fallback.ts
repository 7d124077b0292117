import type { Middleware } from 'koa';
import type { Layer } from '@koa/router';
import type { AppState } from '../app-context.js';
import { ApiError } from '../api-error.js';

/**
 * After the router, for requests no route answered: a known path with another
 * method is 405 with `Allow` (or, for OPTIONS, 204 with `Allow`); anything else
 * is 404. The router has already collected the layers matching the path.
 */
export const routeFallback = (): Middleware<AppState> =>
  async function routeFallback(ctx) {
    const layers = (ctx as { matched?: ReadonlyArray<Layer> }).matched ?? [];
    const methods = new Set(layers.flatMap((layer) => layer.methods));
    if (methods.size === 0) throw new ApiError('not_found', 'No such route');
    methods.add('OPTIONS');
    const allow = [...methods].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      ctx.set('Allow', allow);
      return;
    }
    throw new ApiError('method_not_allowed', `${ctx.method} is not allowed on this route; allowed: ${allow}`, undefined, { Allow: allow });
  };
