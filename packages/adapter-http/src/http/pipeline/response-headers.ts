import { randomUUID } from 'node:crypto';
import type { Environment } from '@debtkit/core';
import { authOfPath, type AppMiddleware } from '../app-context.js';
import { requestHeader } from '../request-header.js';
import { securityHeaderSet } from './security-headers.js';

/** A client-supplied id is kept only when it is safe to echo and to log. */
export const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Headers on every response (docs/decisions/api-conventions.md). They are set before anything else runs
 * and the error responder never clears headers, so error responses carry them too.
 * `Vary` is unconditional because any response may be compressed.
 */
export const STANDARD_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  Vary: 'Accept-Encoding',
};

export interface ResponseHeadersOptions {
  readonly environment: Environment;
  readonly generate?: () => string;
}

/**
 * The request's id (`ctx.state.requestId`, `X-Request-Id`: the client's when it
 * is acceptable, else a new UUID), the standard and security headers (the
 * fixed ones worked out once), and the path's area (`ctx.state.area`), for the
 * steps after it. The first of debtkit's middleware.
 */
export const responseHeaders = (options: ResponseHeadersOptions): AppMiddleware => {
  const fixed = { ...STANDARD_HEADERS, ...securityHeaderSet(options) };
  const generate = options.generate ?? randomUUID;
  // A plain function, not `async`: a step that passes a request on returns `next()`'s own promise, without an async function's wrapper (docs/performance.md, round 5).
  return function responseHeaders(ctx, next) {
    const given = requestHeader(ctx.req, 'x-request-id');
    const id = ACCEPTABLE_REQUEST_ID.test(given) ? given : generate();
    ctx.state.requestId = id;
    ctx.state.area = authOfPath(ctx.path);
    // One `ctx.set` for all of them: Koa's `set` allocates per call (docs/performance.md).
    ctx.set({ 'X-Request-Id': id, ...fixed });
    return next();
  };
};
