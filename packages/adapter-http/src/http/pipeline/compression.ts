import { promisify } from 'node:util';
import { brotliCompress, constants, gzip, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import compress from 'koa-compress';
import Negotiator from 'negotiator';
import type { AppMiddleware, RequestContext } from '../app-context.js';
import type { KeyedBytes, RenderCache } from '../render-cache.js';

export interface CompressionOptions {
  /** Bodies smaller than this are sent as they are (docs/decisions/api-conventions.md: 1 KiB). */
  readonly thresholdBytes?: number;
  /** Brotli quality 0–11; 11 costs far more CPU than a JSON API response is worth. */
  readonly brotliQuality?: number;
  /** Where the compressed bytes of large kept answers are kept (render-cache.ts); absent, every answer is compressed as it is sent. */
  readonly renderCache?: RenderCache;
}

/** A kept answer at least this long has its compressed bytes kept too (smaller ones compress in well under a millisecond). */
export const KEPT_COMPRESSION_MIN_BYTES = 64 * 1024;

const gzipBytes = promisify<Buffer, ZlibOptions, Buffer>(gzip);
const brotliBytes = promisify<Buffer, BrotliOptions, Buffer>(brotliCompress);

/** koa-compress's rules for what it never compresses, for the answers compressed here instead. */
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/;
const mayEncode = (ctx: RequestContext): boolean =>
  ctx.method !== 'HEAD' &&
  ctx.writable &&
  !ctx.res.headersSent &&
  ctx.compress !== false &&
  (ctx.status === 200 || ctx.status === 201) &&
  !ctx.response.get('Content-Encoding') &&
  !NO_TRANSFORM.test(ctx.response.get('Cache-Control'));

/** docs/decisions/api-conventions.md: bodies under 1 KiB are sent as they are. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * gzip (default level) and br (low quality, for speed) per `Accept-Encoding`;
 * deflate and zstd are not offered.
 *
 * Most answers are a few hundred bytes, under the threshold. koa-compress
 * checks the threshold only after negotiating, looking the MIME type up and
 * parsing Cache-Control, so a body whose length is known to be under it skips
 * koa-compress altogether (about 4 µs a request). Its `Vary` is a standard
 * header here, set on every response whether or not this runs.
 *
 * A large answer `respond` took from the render cache (`ctx.state.rendered`,
 * render-cache.ts, docs/decisions/tenancy.md) is compressed once per encoding and its bytes
 * are kept, instead of on every request: the encoding is negotiated as
 * koa-compress does (negotiator, br before gzip, `*` as gzip, no header as
 * identity), and what koa-compress never compresses (HEAD, `no-transform`,
 * an answer already encoded) is left to it.
 *
 * Runs once the steps after it have answered; it sits inside the error
 * responder, so errors are not compressed (their bodies are small).
 */
export const compression = (options: CompressionOptions = {}): AppMiddleware => {
  const threshold = options.thresholdBytes ?? COMPRESSION_THRESHOLD_BYTES;
  const compressor = compress({
    threshold,
    gzip: {},
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: options.brotliQuality ?? 4 } },
    deflate: false,
    zstd: false,
  });
  /** Whether the answer may need compressing: a body not known to be under the threshold. */
  const needed = (ctx: RequestContext): boolean => {
    const body: unknown = ctx.body;
    // UTF-8 takes at most 3 bytes per UTF-16 code unit: most answers are under the threshold without counting.
    if (typeof body === 'string') return body.length * 3 >= threshold && Buffer.byteLength(body) >= threshold;
    if (body === undefined || body === null) return false;
    const length = ctx.response.length;
    return length === undefined || length >= threshold;
  };
  // koa-compress is called with the body final: what it would wait for has already run.
  const answered = async (): Promise<void> => undefined;
  const cache = options.renderCache;
  const gzipOptions: ZlibOptions = {};
  const brotliOptions: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: options.brotliQuality ?? 4 } };
  /** The encoding koa-compress would choose for this request (its negotiation, with the same encodings and preference). */
  const encodingOf = (ctx: RequestContext): string => {
    const accept = ctx.request.headers['accept-encoding'];
    const headers = { 'accept-encoding': accept === '*' ? 'gzip' : accept === undefined || accept === '' ? 'identity' : accept };
    return new Negotiator({ headers }).encoding(['br', 'gzip', 'identity'], { preferred: ['br', 'gzip', 'identity'] }) ?? 'identity';
  };
  /**
   * A large kept answer (`respond` left it on `ctx.state.rendered`, still the
   * body) is sent as compressed bytes kept per encoding: compressed once, not
   * on every request (docs/decisions/tenancy.md); or as it is, when the client takes neither
   * encoding. Answers false when this left it to koa-compress.
   */
  const sendKept = async (ctx: RequestContext, rendered: KeyedBytes, kept: RenderCache): Promise<boolean> => {
    if (!mayEncode(ctx)) return false;
    const encoding = encodingOf(ctx);
    if (encoding !== 'br' && encoding !== 'gzip') return true;
    const data = await kept.encoded(rendered, encoding, (data) =>
      encoding === 'br' ? brotliBytes(data, brotliOptions) : gzipBytes(data, gzipOptions),
    );
    ctx.body = data;
    ctx.set('Content-Encoding', encoding);
    return true;
  };
  /** Once the steps after it have answered: the kept compressed bytes, koa-compress's, or nothing to do. */
  const encode = (ctx: RequestContext): Promise<void> | undefined => {
    const rendered = ctx.state.rendered;
    if (cache !== undefined && rendered !== undefined && rendered.data.length >= KEPT_COMPRESSION_MIN_BYTES && ctx.body === rendered.data) {
      return sendKept(ctx, rendered, cache).then((sent) => (sent || !needed(ctx) ? undefined : compressor(ctx, answered)));
    }
    return needed(ctx) ? compressor(ctx, answered) : undefined;
  };
  // A plain function and one `then` (docs/performance.md): most answers need no encoding, and pay no `async` frame for it.
  return function compression(ctx, next) {
    return next().then(() => encode(ctx));
  };
};
