/**
 * The response head the pipeline keeps, and the answer it sends itself (DESIGN 9).
 *
 * Every response carries a dozen headers: the request id, the standard and
 * security headers, the rate limit's three and `API-Version`. Set one by one
 * with `setHeader`, Node keeps them in an object without a prototype, which V8
 * keeps as a dictionary, and re-reads that object to write the head. That cost
 * about a quarter of a request's CPU. Passed as one flat list to
 * `writeHead`, the same headers cost less than half of that.
 *
 * So the pipeline's steps add their headers to `ctx.state.head`, a flat
 * `[name, value, name, value, …]` list, instead of setting them on the
 * response. A JSON answer (`writeJson`) is kept as its text in
 * `ctx.state.answer`, and the pipeline's last step sends it with one `writeHead`
 * carrying the head, `Content-Type` and `Content-Length`.
 *
 * Anything else goes the usual way: the head is set on the response and Koa
 * sends the body. That covers a body set on `ctx.body` (`/metrics`, the OpenAPI
 * document, a compressed answer), a 204, and a client already gone. Headers
 * set directly on the response (`ctx.set`: `Allow`, `Retry-After`, `Connection`)
 * are kept either way: `writeHead` merges its list into them, its list winning
 * for a name set in both.
 */
import type { RequestContext } from './app-context.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const indexOf = (head: ReadonlyArray<string>, name: string): number => {
  const wanted = name.toLowerCase();
  for (let i = 0; i < head.length; i += 2) if (head[i]!.toLowerCase() === wanted) return i;
  return -1;
};

/** A header of the answer: from the pipeline's head, else as set on the response; `undefined` when neither has it. */
export const answerHeader = (ctx: RequestContext, name: string): string | undefined => {
  const i = indexOf(ctx.state.head, name);
  if (i >= 0) return ctx.state.head[i + 1];
  const set = ctx.res.getHeader(name);
  return set === undefined ? undefined : String(set);
};

/** Set a header of the answer (replacing the head's value for that name). */
export const setAnswerHeader = (ctx: RequestContext, name: string, value: string): void => {
  const { head } = ctx.state;
  const i = indexOf(head, name);
  if (i >= 0) head[i + 1] = value;
  else head.push(name, value);
};

/** Remove a header from the answer, wherever it was set. */
export const removeAnswerHeader = (ctx: RequestContext, name: string): void => {
  const { head } = ctx.state;
  const i = indexOf(head, name);
  if (i >= 0) head.splice(i, 2);
  ctx.res.removeHeader(name);
};

/**
 * The pipeline's last step: send the JSON answer with the head in one
 * `writeHead` (and take it from Koa), or put the head on the response for Koa
 * to send whatever else the answer is.
 */
export const sendAnswer = (ctx: RequestContext): void => {
  const { head, answer } = ctx.state;
  const { res } = ctx;
  if (answer !== undefined && ctx.writable && !res.headersSent) {
    ctx.respond = false;
    head.push('Content-Type', JSON_CONTENT_TYPE, 'Content-Length', String(Buffer.byteLength(answer)));
    res.writeHead(ctx.status, head);
    // HEAD: the head says what GET would send; Node sends no body for it anyway.
    if (ctx.method === 'HEAD') res.end();
    else res.end(answer);
    return;
  }
  if (!res.headersSent) for (let i = 0; i < head.length; i += 2) res.setHeader(head[i]!, head[i + 1]!);
  answerAsBody(ctx);
};

/** Hand a JSON answer to Koa as its body (what compression works on), headers and all. */
export const answerAsBody = (ctx: RequestContext): void => {
  const { answer } = ctx.state;
  if (answer === undefined) return;
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = answer;
  ctx.state.answer = undefined;
};
