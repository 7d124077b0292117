/**
 * Answering with JSON. The body is serialised here, once, and kept as the
 * request's answer: the pipeline sends it with the response head in one
 * `writeHead` (response-head.ts), or hands it to Koa (compression).
 */
import type { RequestContext } from './app-context.js';

export const writeJson = (ctx: RequestContext, status: number, body: unknown): void => {
  ctx.status = status;
  ctx.state.answer = JSON.stringify(body);
};
