import type { Versioning } from '@debtkit/core';
import type { AppMiddleware } from '../app-context.js';
import { ApiError } from '../api-error.js';
import type { RenderCache } from '../render-cache.js';
import { requestHeader } from '../request-header.js';

export interface ApiVersionOptions {
  readonly versioning: Pick<Versioning, 'latest' | 'known' | 'isKnown'>;
  /** The app's render cache (render-cache.ts), handed to `respond` with the version; absent: every answer is serialised. */
  readonly renderCache?: RenderCache;
}

const DATE_LIKE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * How an `/api` request's answer is rendered. Its version (docs/decisions/versioning.md): the
 * `API-Version` header when present (it must be known), else the client's pinned version; it
 * goes on `ctx.state.apiVersion` for `respond` and in the `API-Version` response header. And the
 * app's render cache, on `ctx.state.renderCache` for `respond`: the text of a resource that cannot
 * change is then serialised once per version (docs/decisions/tenancy.md). On `ctx.state`, not
 * `app.context`, so it holds when the app is mounted into another (koa-mount runs the middleware
 * on the outer context). Runs after authentication, which provides the client.
 */
export const apiVersion = (options: ApiVersionOptions): AppMiddleware => {
  const { versioning, renderCache } = options;
  const knownList = versioning.known.join(', ');
  // A plain function, not `async`: a step that passes a request on returns `next()`'s own promise, without an async function's wrapper (docs/performance.md, round 5).
  return function apiVersion(ctx, next) {
    if (ctx.state.area !== 'client') return next();
    const requested = requestHeader(ctx.req, 'api-version').trim();
    let version: string;
    if (requested !== '') {
      if (!versioning.isKnown(requested)) {
        // Echo only what looks like a version: the header is client input.
        const named = DATE_LIKE.test(requested) ? `"${requested}" is not a known API version` : 'API-Version is not a known API version';
        throw new ApiError('unsupported_version', `${named}; known versions: ${knownList}`);
      }
      version = requested;
    } else {
      const pinned = ctx.state.client?.api_version;
      // A pin this build does not know (data written by a newer build, then a
      // rollback) is served the latest shape rather than failing every request.
      version = pinned !== undefined && versioning.isKnown(pinned) ? pinned : versioning.latest;
    }
    ctx.state.apiVersion = version;
    if (renderCache !== undefined) ctx.state.renderCache = renderCache;
    ctx.set('API-Version', version);
    return next();
  };
};
