/**
 * Answering with JSON. The body is serialised here, once, and set on Koa as
 * text: compression needs its length, and the Idempotency-Key step keeps the
 * text as it was sent. Koa sends it (with `Content-Length` from the text).
 */
import type { ParameterizedContext } from 'koa';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Answer `status` with `text`, a JSON document already serialised. */
export const writeJsonText = (ctx: ParameterizedContext, status: number, text: string): void => {
  ctx.status = status;
  // Set before the body, so Koa does not guess a type for the string.
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = text;
};

export const writeJson = (ctx: ParameterizedContext, status: number, body: unknown): void => writeJsonText(ctx, status, JSON.stringify(body));
