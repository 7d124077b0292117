/**
 * Writing a JSON body. The body is serialised here, once: Koa would otherwise
 * stringify an object twice (for `Content-Length`, which compression needs, and
 * again to send it).
 */
import type { ParameterizedContext } from 'koa';

export const writeJson = (ctx: ParameterizedContext, status: number, body: unknown): void => {
  ctx.status = status;
  // Set directly: `ctx.type` looks the type up through mime-types on every call.
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = JSON.stringify(body);
};
