import type { Middleware } from 'koa';
import type { AppState } from '../app-context.js';

/**
 * Headers on every response (DESIGN 4). They are set before anything else runs
 * and the error handler never clears headers, so error responses carry them too.
 * `Vary` is unconditional because any response may be compressed.
 */
export const STANDARD_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  Vary: 'Accept-Encoding',
};

export const standardHeaders = (headers: Readonly<Record<string, string>> = STANDARD_HEADERS): Middleware<AppState> => {
  const entries = Object.entries(headers);
  return async function standardHeaders(ctx, next) {
    for (const [name, value] of entries) ctx.set(name, value);
    await next();
  };
};
