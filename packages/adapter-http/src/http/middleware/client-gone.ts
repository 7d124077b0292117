import type { ParameterizedContext } from 'koa';

const DISCONNECT_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Whether the client went away before the response could be written. That is
 * the client's choice, not a server fault: it is logged at info, never as an error.
 */
export const isClientGone = (ctx: ParameterizedContext, err?: unknown): boolean => {
  if (!ctx.writable) return true;
  if (typeof err !== 'object' || err === null) return false;
  const { code, type } = err as { code?: unknown; type?: unknown };
  return (typeof code === 'string' && DISCONNECT_CODES.has(code)) || type === 'request.aborted';
};
