import { constants } from 'node:zlib';
import compress from 'koa-compress';
import type { AppMiddleware, RequestContext } from '../app-context.js';

export interface CompressionOptions {
  /** Bodies smaller than this are sent as they are (docs/decisions/api-conventions.md: 1 KiB). */
  readonly thresholdBytes?: number;
  /** Brotli quality 0–11; 11 costs far more CPU than a JSON API response is worth. */
  readonly brotliQuality?: number;
}

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
  return async function compression(ctx, next) {
    await next();
    if (needed(ctx)) await compressor(ctx, answered);
  };
};
