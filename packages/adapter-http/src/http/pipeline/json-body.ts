import Bourne from '@hapi/bourne';
import inflate from 'inflation';
import getRawBody from 'raw-body';
import type { IncomingMessage } from 'node:http';
import type { ParameterizedContext } from 'koa';
import type { AppMiddleware } from '../app-context.js';
import { ApiError, toApiError } from '../api-error.js';
import { isClientGone } from './client-gone.js';

export interface JsonBodyOptions {
  readonly limitBytes: number;
}

/** Whether the request says it has a body (the pipeline reads bodies only then). */
export const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * The whole (identity-coded) body as text when every byte its `Content-Length`
 * declares is already buffered: a small body comes in the packet with the
 * headers, and Node's parser has pushed it into the request stream by the time
 * authentication is done. Taken at once, it costs no further stream events
 * (docs/performance.md). `undefined` while bytes are still to come (or without a declared
 * length, or over the limit): raw-body then streams it, or refuses it with 413.
 * Decoded as the streamed read decodes: UTF-8, a leading byte order mark dropped.
 */
const arrivedText = (req: IncomingMessage, limitBytes: number): string | undefined => {
  const declared = Number(req.headers['content-length']);
  if (!(declared > 0 && declared <= limitBytes) || req.readableFlowing === true || req.readableLength !== declared) return undefined;
  const chunk: unknown = req.read(declared);
  // The request stream is in bytes mode (nothing here sets an encoding), and holds exactly `declared` bytes.
  if (!Buffer.isBuffer(chunk) || chunk.length !== declared)
    throw new Error('arrivedText: the buffered request body is not the declared bytes');
  const text = chunk.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
};

/** The methods whose body is read. */
const PARSED_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** docs/decisions/api-conventions.md: the request codings accepted; `inflation` decodes them. */
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

/** docs/decisions/proxies.md: deeper JSON is refused before it is parsed (a hostile body could otherwise cost a second of CPU to parse, and overflow the stack of whatever walks it). */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether `text` nests arrays and objects deeper than `max` (brackets inside
 * strings not counted). One pass that stops at the first level too deep; the
 * text need not be valid JSON (the parser says so after).
 */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  // Each level takes an opening and a closing character at least.
  if (text.length <= 2 * max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string, escapes included.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
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
  if (isDecodingError(err))
    return new ApiError('validation_error', `The request body is not valid ${ctx.req.headers['content-encoding']} data`);
  return toApiError(err) ?? err;
};

/**
 * JSON request bodies (docs/decisions/api-conventions.md): a request that has a body must declare
 * `application/json` (any charset parameter) and a content coding of identity,
 * gzip, deflate or br, or gets 415, before a byte of it is read; a body that does
 * not decode is 400; over the limit (decoded) is 413; anything but a JSON object,
 * or one nested deeper than 64 levels, is 400. The parsed body is on `ctx.state.body` (`undefined` when the request
 * has none). Runs after authentication, as a middleware of the route that
 * answers, so an unauthenticated body is never read, nor one no route takes
 * (404, 405); and only for a request that `hasBody`.
 */
export const jsonBody = (options: JsonBodyOptions): AppMiddleware => {
  const { limitBytes } = options;
  const read = async (ctx: Parameters<AppMiddleware>[0]): Promise<void> => {
    if (ctx.request.is('application/json') !== 'application/json') {
      throw new ApiError('unsupported_media_type', 'Request bodies must be sent as application/json');
    }
    const encoding = contentEncodingOf(ctx.req);
    if (encoding === undefined) {
      throw new ApiError('unsupported_media_type', 'Content-Encoding must be one of identity, gzip, deflate, br');
    }
    // A GET or HEAD body is not read (nothing would use it).
    if (!PARSED_METHODS.has(ctx.method)) return;
    const { req } = ctx;
    // The inflater reads the header itself: give it the normalised name (`GZIP` → `gzip`).
    req.headers['content-encoding'] = encoding;
    let body: unknown;
    try {
      // raw-body refuses a declared length over the limit before reading, and
      // counts the decoded bytes against it while reading (a zip bomb stops at 1 MiB).
      const declared = req.headers['content-length'];
      const text =
        (encoding === 'identity' ? arrivedText(req, limitBytes) : undefined) ??
        (await getRawBody(encoding === 'identity' ? req : inflate(req), {
          limit: limitBytes,
          encoding: 'utf8',
          ...(encoding === 'identity' && declared !== undefined ? { length: Number(declared) } : {}),
        }));
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
        throw new ApiError('validation_error', `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
      }
      // `__proto__` keys are refused (prototype poisoning); scalars parse, so `42`
      // gets "must be a JSON object" rather than a misleading "not valid JSON".
      // A chunked request with zero bytes has no body after all.
      body = text === '' ? undefined : Bourne.parse(text, { protoAction: 'error' });
    } catch (err) {
      throw toBodyError(ctx, err);
    }
    if (body !== undefined && !isPlainObject(body)) throw new ApiError('validation_error', 'The request body must be a JSON object');
    ctx.state.body = body;
  };
  // A plain function (docs/performance.md): a request without a body passes straight on.
  return function jsonBody(ctx, next) {
    return hasBody(ctx.req) ? read(ctx).then(() => next()) : next();
  };
};
