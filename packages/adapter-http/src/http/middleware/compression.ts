import { constants } from 'node:zlib';
import compress from 'koa-compress';
import type { Middleware } from 'koa';

export interface CompressionOptions {
  /** Bodies smaller than this are sent as they are (DESIGN 4: 1 KiB). */
  readonly thresholdBytes?: number;
  /** Brotli quality 0–11; 11 costs far more CPU than a JSON API response is worth. */
  readonly brotliQuality?: number;
}

/**
 * gzip (default level) and br (low quality, for speed) per `Accept-Encoding`;
 * deflate and zstd are not offered. koa-compress's middleware is itself named
 * (`compressMiddleware`), so it is returned as it is.
 */
export const compression = (options: CompressionOptions = {}): Middleware =>
  compress({
    threshold: options.thresholdBytes ?? 1024,
    gzip: {},
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: options.brotliQuality ?? 4 } },
    deflate: false,
    zstd: false,
  });
