import type { IncomingMessage } from 'node:http';

/**
 * A request header's value by its lower-case name, `''` when absent (what Koa's
 * `ctx.get` answers, without its name normalisation on the hot path). Node joins
 * repeated headers with `, `, except the few it keeps as lists.
 */
export const requestHeader = (req: IncomingMessage, lowerCaseName: string): string => {
  const value = req.headers[lowerCaseName];
  return value === undefined ? '' : typeof value === 'string' ? value : value.join(', ');
};
