/**
 * A large JSON document that does not change while the process runs (the
 * OpenAPI document, about 490 KB), answered from memory (docs/decisions/proxies.md): compressed
 * once per content coding rather than on every request (3–4 ms each), with a
 * strong `ETag` per representation and `Cache-Control: no-cache`, so a client
 * that has it revalidates and gets 304 without a body. The interactive docs'
 * page and assets (`staticContent`) are served the same way.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { ParameterizedContext } from 'koa';
import { JSON_CONTENT_TYPE } from './json-response.js';
import { COMPRESSION_THRESHOLD_BYTES } from './pipeline/compression.js';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The codings offered, best first (`identity`: as it is). */
const CODINGS = ['br', 'gzip', 'identity'] as const;
type Coding = (typeof CODINGS)[number];

/**
 * Compressed once, so the highest settings that stay fast: brotli quality 9
 * (a 490 KB document in about 0.2 s; 11 takes four times that for 10% less),
 * gzip level 9.
 */
const encode: Record<Exclude<Coding, 'identity'>, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzipped(body, { level: 9 }),
};

export interface StaticJson {
  /** Answer `ctx` (a GET or HEAD) with the document: 200 in the best coding the client accepts, or 304 when its `If-None-Match` names it. */
  answer(ctx: ParameterizedContext): Promise<void>;
}

/** A fixed body of any type, answered the same way (the interactive docs' page and assets). */
export interface StaticContent extends StaticJson {
  /** The body's own hash (base64url, 27 characters): what fingerprints its URL. */
  readonly tag: string;
  /** As `answer`, with this `Cache-Control` instead of `no-cache` (e.g. for a fingerprinted URL). */
  answer(ctx: ParameterizedContext, cacheControl?: string): Promise<void>;
}

export interface StaticContentOptions {
  /** `false`: only ever sent as it is (a body answered once, not worth compressing). Default `true`. */
  readonly compress?: boolean;
}

export const staticJson = (text: string, options: StaticContentOptions = {}): StaticJson =>
  staticContent(Buffer.from(text, 'utf8'), JSON_CONTENT_TYPE, options);

/**
 * `body`, served as `contentType`. A body under the compression threshold (as
 * the compression step would) is only ever sent as it is.
 */
export const staticContent = (identity: Buffer, contentType: string, options: StaticContentOptions = {}): StaticContent => {
  const small = identity.length < COMPRESSION_THRESHOLD_BYTES || options.compress === false;
  const tag = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  // A strong validator names one representation: each coding has its own.
  const etags: Record<Coding, string> = { identity: `"${tag}"`, gzip: `"${tag}-gzip"`, br: `"${tag}-br"` };
  const encoded = new Map<Coding, Promise<Buffer>>([['identity', Promise.resolve(identity)]]);
  const bodyOf = (coding: Coding): Promise<Buffer> => {
    let body = encoded.get(coding);
    if (body === undefined) {
      body = encode[coding as Exclude<Coding, 'identity'>](identity);
      // A failure is not kept: the next request tries again.
      body.catch(() => encoded.delete(coding));
      encoded.set(coding, body);
    }
    return body;
  };
  return {
    tag,
    async answer(ctx, cacheControl = 'no-cache') {
      const accepted = small ? 'identity' : ctx.acceptsEncodings([...CODINGS]);
      const coding: Coding = accepted === 'br' || accepted === 'gzip' ? accepted : 'identity';
      ctx.status = 200;
      ctx.set({ ETag: etags[coding], 'Cache-Control': cacheControl });
      // Koa's own check of If-None-Match against the ETag (weak comparison, `*`).
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      const body = await bodyOf(coding);
      ctx.set('Content-Type', contentType);
      if (coding !== 'identity') ctx.set('Content-Encoding', coding);
      // Already in its final coding: the compression step leaves it as it is.
      ctx.compress = false;
      ctx.body = body;
    },
  };
};
