import type { ParameterizedContext } from 'koa';

/**
 * Whether the client went away before the response could be written. That is
 * the client's choice, not a server fault: it is logged at info, never as an error.
 *
 * The client's own socket decides, not an error code: EPIPE or ECONNRESET also
 * come from the store's connection when the database goes away (issue 11), and
 * that is a 503, not a client that left. So a disconnect code counts only when
 * this request's socket is in fact gone.
 */
export const isClientGone = (ctx: ParameterizedContext, err?: unknown): boolean => {
  if (!ctx.writable || ctx.req.socket.destroyed) return true;
  if (typeof err !== 'object' || err === null) return false;
  // raw-body's "the request was aborted" names this request's stream.
  return (err as { type?: unknown }).type === 'request.aborted';
};
