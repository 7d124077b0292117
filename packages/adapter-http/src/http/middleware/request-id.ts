import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from '../app-context.js';

/** A client-supplied id is kept only when it is safe to echo and to log. */
export const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export interface RequestIdOptions {
  readonly generate?: () => string;
}

/** Give every request an id: `ctx.state.requestId` and the `X-Request-Id` response header. */
export const requestId = (options: RequestIdOptions = {}): Middleware<AppState> => {
  const generate = options.generate ?? randomUUID;
  return async function requestId(ctx, next) {
    const given = ctx.get('X-Request-Id');
    const id = ACCEPTABLE_REQUEST_ID.test(given) ? given : generate();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
};
