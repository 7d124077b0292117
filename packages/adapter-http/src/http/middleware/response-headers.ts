import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Environment } from '@debtkit/core';
import type { AppState } from '../app-context.js';
import { ACCEPTABLE_REQUEST_ID } from './request-id.js';
import { STANDARD_HEADERS } from './standard-headers.js';
import { securityHeaderSet } from './security-headers.js';

export interface ResponseHeadersOptions {
  readonly environment: Environment;
  readonly generate?: () => string;
}

/**
 * `requestId`, `standardHeaders` and `securityHeaders` in one middleware
 * (DESIGN 9): the request's id, and every header each of them sets, in one
 * `ctx.set` per request, with the fixed ones worked out once.
 */
export const responseHeaders = (options: ResponseHeadersOptions): Middleware<AppState> => {
  const fixed = Object.freeze({ ...STANDARD_HEADERS, ...securityHeaderSet(options) });
  const generate = options.generate ?? randomUUID;
  return async function responseHeaders(ctx, next) {
    const given = ctx.get('X-Request-Id');
    const id = ACCEPTABLE_REQUEST_ID.test(given) ? given : generate();
    ctx.state.requestId = id;
    ctx.set({ 'X-Request-Id': id, ...fixed });
    await next();
  };
};
