import { bodyParser } from '@koa/bodyparser';
import type { IncomingMessage } from 'node:http';
import type { ParameterizedContext } from 'koa';
import type { RequestContext } from '../app-context.js';
import { ApiError, toApiError } from '../api-error.js';
import { isClientGone } from './client-gone.js';

export interface JsonBodyOptions {
  readonly limitBytes: number;
}

/** Whether the request says it has a body (the pipeline reads bodies only then). */
export const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** DESIGN 4.4: the request codings accepted; `inflation` (inside the body parser) decodes them. */
const CONTENT_ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);

/**
 * The request's single content coding, lower-cased (`identity` when absent), or
 * `undefined` when it is not one we decode (another coding, or several stacked).
 */
const contentEncodingOf = (req: IncomingMessage): string | undefined => {
  const given = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  return CONTENT_ENCODINGS.has(given) ? given : undefined;
};

/** zlib's and brotli's decoding failures (`Z_DATA_ERROR`, `Z_BUF_ERROR`, `ERR__ERROR_FORMAT_PADDING_1`, …). */
const isDecodingError = (err: unknown): boolean => {
  if (typeof err !== 'object' || err === null) return false;
  const { code, errno } = err as { code?: unknown; errno?: unknown };
  return typeof errno === 'number' && typeof code === 'string' && /^(Z_|ERR_)/.test(code);
};

const isPlainObject = (u: unknown): boolean => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * The parser's errors in the API's terms. Its messages are not passed on: they
 * can quote the body or name the parser's internals.
 */
const toBodyError = (ctx: ParameterizedContext, err: unknown): unknown => {
  // The client hung up while sending: handled as a disconnect, not as a bad request.
  if (isClientGone(ctx, err)) return err;
  if (err instanceof SyntaxError) return new ApiError('validation_error', 'The request body is not valid JSON');
  // A body that does not decode is the client's mistake: a 400, never an error log line.
  if (isDecodingError(err)) return new ApiError('validation_error', `The request body is not valid ${ctx.req.headers['content-encoding']} data`);
  return toApiError(err) ?? err;
};

/**
 * JSON request bodies (DESIGN 4, 4.4): a request that has a body must declare
 * `application/json` (any charset parameter) and a content coding of identity,
 * gzip, deflate or br, or gets 415, before a byte of it is read; a body that does
 * not decode is 400; over the limit (decoded) is 413; anything but a JSON object
 * is 400. The parsed body is on `ctx.request.body` (`undefined` when the request
 * has none). Runs after authentication, so an unauthenticated body is never read,
 * and only for a request that `hasBody`.
 */
export const jsonBody = (options: JsonBodyOptions): ((ctx: RequestContext) => Promise<void>) => {
  const { limitBytes } = options;
  // `jsonStrict: false` lets scalars parse, so `42` gets "must be a JSON object"
  // rather than a misleading "not valid JSON".
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: limitBytes, jsonStrict: false, parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] });
  const parsed = async (): Promise<void> => undefined;
  return async function jsonBody(ctx) {
    if (ctx.request.is('application/json') !== 'application/json') {
      throw new ApiError('unsupported_media_type', 'Request bodies must be sent as application/json');
    }
    const encoding = contentEncodingOf(ctx.req);
    if (encoding === undefined) {
      throw new ApiError('unsupported_media_type', 'Content-Encoding must be one of identity, gzip, deflate, br');
    }
    // The parser reads the header itself: give it the normalised name (`GZIP` → `gzip`).
    ctx.req.headers['content-encoding'] = encoding;
    try {
      await parse(ctx, parsed);
    } catch (err) {
      throw toBodyError(ctx, err);
    }
    const body = ctx.request.body;
    // A chunked request with zero bytes has no body after all.
    if (body === '') ctx.request.body = undefined;
    else if (body !== undefined && !isPlainObject(body)) throw new ApiError('validation_error', 'The request body must be a JSON object');
  };
};
