import type { AppMiddleware } from '../app-context.js';
import type { RenderCache } from '../render-cache.js';

/**
 * Hands the app's render cache (render-cache.ts) to `respond`, on
 * `ctx.state.renderCache`: the text of a resource that cannot
 * change is then serialised once per API version (docs/decisions/tenancy.md). A step of the
 * app rather than a property of `app.context`, so it holds when the app is
 * mounted into another (koa-mount runs the middleware on the outer context).
 */
export const renderedAnswers = (options: { readonly cache: RenderCache }): AppMiddleware => {
  const { cache } = options;
  // A plain function, not `async`: a step that passes a request on returns `next()`'s own promise, without an async function's wrapper (docs/performance.md, round 5).
  return function renderedAnswers(ctx, next) {
    ctx.state.renderCache = cache;
    return next();
  };
};
