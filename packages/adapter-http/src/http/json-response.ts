/**
 * Answering with JSON. The body is serialised here, once, and set on Koa as
 * text: compression needs its length, and the Idempotency-Key step keeps the
 * text as it was sent. Koa sends it (with `Content-Length` from the text).
 * A body the render cache kept (render-cache.ts) is set as its UTF-8 bytes
 * instead, encoded once when it was kept.
 */
import type { ParameterizedContext } from 'koa';
import { MAX_RESPONSE_BODY_BYTES } from '@debtkit/core';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A body over the bound of docs/decisions/tenancy.md (1 MiB before compression) was about to
 * be sent. The rules that keep every answer under it are the plan-size rule at
 * creation (core's payment-plans/plan-size.ts) and lists ending early (paged-list.ts);
 * this is only the net under them: the error step answers 500 and logs it.
 */
export class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge';
}

/** `text`'s UTF-8 length passes `max` (measured only when it could: at most 3 bytes per UTF-16 unit). */
export const passesBytes = (text: string, max: number): boolean => text.length * 3 > max && Buffer.byteLength(text) > max;

/** Answer `status` with `text`, a JSON document already serialised; never more than 1 MiB of it (`bytes`: its UTF-8 length, when known). */
export const writeJsonText = (ctx: ParameterizedContext, status: number, text: string, bytes?: number): void => {
  if (bytes === undefined ? passesBytes(text, MAX_RESPONSE_BODY_BYTES) : bytes > MAX_RESPONSE_BODY_BYTES) {
    throw new ResponseTooLarge(
      `refused to send a ${bytes ?? Buffer.byteLength(text)}-byte body for ${ctx.method} ${ctx.path}: over the 1 MiB bound`,
    );
  }
  ctx.status = status;
  // Set before the body, so Koa does not guess a type for the string.
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = text;
};

/** Answer `status` with `data`, a JSON document's UTF-8 bytes; never more than 1 MiB of them. */
export const writeJsonBytes = (ctx: ParameterizedContext, status: number, data: Buffer): void => {
  if (data.length > MAX_RESPONSE_BODY_BYTES)
    throw new ResponseTooLarge(`refused to send a ${data.length}-byte body for ${ctx.method} ${ctx.path}: over the 1 MiB bound`);
  ctx.status = status;
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = data;
};

export const writeJson = (ctx: ParameterizedContext, status: number, body: unknown): void =>
  writeJsonText(ctx, status, JSON.stringify(body));
