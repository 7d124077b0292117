/**
 * Rendered answers kept in memory (docs/decisions/tenancy.md, docs/performance.md, "Isolation"): the JSON
 * of a resource that cannot change, as each API version renders it, kept as
 * its UTF-8 bytes, so a client reading the same large resource again and again
 * (a payment plan is up to 1 MiB) costs a lookup instead of a serialisation on
 * the event loop, and, for large answers, the compressed bytes per content
 * encoding too (pipeline/compression.ts). Kept answers are sent as those bytes
 * (a `Buffer` body): neither Koa nor the socket measures or encodes a megabyte
 * of text again on each request.
 *
 * - What may be kept is said per response kind (`revisions`): a function that
 *   names the state of a body, its revision (a payment plan never changes
 *   after its creation: its id and `created_at`, and `updated_at` if it ever
 *   has one). A kind without one is rendered as before, every time. A list
 *   kind's revision names its items: each item's bytes are kept, and a page is
 *   put together from them (paged-list.ts's size bound applies as before).
 * - The key is the kind, the API version and the revision: the bytes kept are
 *   the body AFTER the version's transforms (core's `versioning.render`), so a
 *   version change to a kind can never serve another version's bytes. For a
 *   list, a version's transform must work item by item (core's
 *   `mapListItems`, as versions.ts asks of every list change): item i of the
 *   rendered page is item i of the stored page, rendered.
 * - The cache never answers on its own: the store is read as before (the
 *   resource exists, it is the client's, it was not deleted), and only its
 *   serialisation is skipped. Kept bytes are reused only for a body of the
 *   same revision.
 * - Bounded by bytes (`lru-cache`, least recently used out first): the length
 *   of each body and of each compressed body, counted against `maxBytes`
 *   (DEBTKIT_RENDER_CACHE_MB); 0 keeps nothing.
 */
import { LRUCache } from 'lru-cache';
import {
  MAX_RESPONSE_BODY_BYTES,
  versioning as productionVersioning,
  type RenderContext,
  type ResponseKind,
  type Versioning,
} from '@debtkit/core';
import { keptRevision } from './kept-revisions.js';
import { boundedItems, boundedJson, listEnvelopeOf, type JsonText } from './routes/paged-list.js';

/** DEBTKIT_RENDER_CACHE_MB's default: 64 MiB, room for 64 of the largest plans a client may create. */
export const DEFAULT_RENDER_CACHE_MB = 64;
export const MIB = 1024 * 1024;

const COMMA = Buffer.from(',');

/** The revision of a body: equal revisions, equal bodies (for one kind and id); `undefined`, do not keep it. */
export type Revision = (body: unknown) => string | undefined;

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * A resource that never changes once created: its id and creation time name it
 * (ids are never reused, docs/decisions/api-conventions.md), and `updated_at`, should it ever have one.
 */
export const immutableRevision: Revision = (body) => {
  if (!isRecord(body)) return undefined;
  const { id, created_at: createdAt, updated_at: updatedAt } = body;
  if (typeof id !== 'number' || typeof createdAt !== 'string') return undefined;
  return typeof updatedAt === 'string' ? `${id}@${createdAt}@${updatedAt}` : `${id}@${createdAt}`;
};

/**
 * A credit score: added once and never rewritten (the repository has no update:
 * a new report is a new score, and an erased user's scores are deleted with
 * the user), with an id never reused, so its id and date name it. The latest
 * score is read on every credit score request, and its text was rendered anew
 * each time (docs/performance.md, round 5, session 6).
 */
export const creditScoreRevision: Revision = (body) => {
  if (!isRecord(body)) return undefined;
  const { id, date } = body;
  return typeof id === 'number' && typeof date === 'string' ? `${id}@${date}` : undefined;
};

/**
 * The kinds kept, and their revisions. A payment plan is written once (a
 * payment under it is a resource of its own; the plan is only deleted), and it
 * is the largest body the API answers. A credit outlook is the answer of a
 * pure computation, kept by its input (compute/computation-memo.ts): the
 * same input, the same answer object, whose revision is its input's key.
 * A credit score is added once and never changed. An account's view is kept
 * by its id, version and its owner's today (account-views.ts). Events are not kept:
 * erasure (4.9) redacts them when they are read.
 */
export const DEFAULT_REVISIONS: Readonly<Partial<Record<ResponseKind, Revision>>> = {
  payment_plan: immutableRevision,
  payment_plan_list: immutableRevision,
  credit_outlook: keptRevision,
  credit_score: creditScoreRevision,
  credit_score_history: creditScoreRevision,
  account: keptRevision,
};

/**
 * A body `render` made as UTF-8 bytes (a kept resource, or a page of kept
 * items), and, when the same bytes can be looked up again, the `key` they are
 * kept under: what the compression step looks their compressed bytes up by.
 */
export interface RenderedBytes {
  readonly data: Buffer;
  readonly key?: string;
}

/** A rendered body that has a key. */
export type KeyedBytes = RenderedBytes & { readonly key: string };

export interface RenderCache {
  /** Bytes the cache may hold (0: it keeps nothing). */
  readonly maxBytes: number;
  /**
   * The JSON of `body` (in the latest shape) rendered for `version`, a list
   * ending early by size (paged-list.ts): as kept bytes when its kind has a
   * revision, else as text rendered now. A `key` comes with bytes that can be
   * looked up again (a whole resource, or a page of kept items).
   */
  render(kind: ResponseKind, body: unknown, version: string, max?: number, context?: RenderContext): JsonText | RenderedBytes;
  /**
   * `rendered` compressed with `encoding`: the kept bytes when they were made
   * from the same bytes, else `compress`'s, kept for next time. Concurrent
   * requests for the same bytes share one compression.
   */
  encoded(rendered: KeyedBytes, encoding: string, compress: (data: Buffer) => Promise<Buffer>): Promise<Buffer>;
  /** What is kept now: entries and bytes. */
  stats(): { readonly entries: number; readonly bytes: number };
}

export interface RenderCacheOptions {
  /** DEBTKIT_RENDER_CACHE_MB in bytes; 0 keeps nothing. */
  readonly maxBytes: number;
  /** The kinds kept and their revisions; default `DEFAULT_REVISIONS`. */
  readonly revisions?: Readonly<Partial<Record<ResponseKind, Revision>>>;
  /** Default: core's production registry (the one `respond` renders with). */
  readonly versioning?: Pick<Versioning, 'render'>;
}

/** A body's bytes; or compressed bytes with the body they were made from. */
type Kept = { readonly data: Buffer } | { readonly data: Buffer; readonly source: Buffer };

/** Bytes an entry holds: the body's; compressed bytes with the body they were made from. */
const sizeOf = (entry: Kept, key: string): number => key.length + entry.data.length + ('source' in entry ? entry.source.length : 0);

export const createRenderCache = (options: RenderCacheOptions): RenderCache => {
  const { maxBytes } = options;
  const revisions = options.revisions ?? DEFAULT_REVISIONS;
  const versions = options.versioning ?? productionVersioning;
  const kept = maxBytes > 0 ? new LRUCache<string, Kept>({ maxSize: maxBytes, sizeCalculation: sizeOf }) : undefined;
  const compressing = new Map<string, { readonly source: Buffer; readonly data: Promise<Buffer> }>();

  /** The bytes kept under `key`, or `render()`'s, serialised and kept. */
  const bytesOf = (key: string, render: () => unknown): Buffer => {
    const found = kept?.get(key);
    if (found !== undefined && !('source' in found)) return found.data;
    const data = Buffer.from(JSON.stringify(render()));
    kept?.set(key, { data });
    return data;
  };

  return {
    maxBytes,
    render: (kind, body, version, max = MAX_RESPONSE_BODY_BYTES, context) => {
      const revisionOf = kept === undefined ? undefined : revisions[kind];
      if (revisionOf === undefined) return boundedJson(versions.render(kind, body, version, context), max);
      const prefix = `${kind}\n${version}\n`;
      const stored = listEnvelopeOf(body);
      if (stored === undefined) {
        // One resource: rendered and serialised only when its bytes are not kept.
        const revision = revisionOf(body);
        if (revision === undefined) return boundedJson(versions.render(kind, body, version, context), max);
        const key = prefix + revision;
        return { data: bytesOf(key, () => versions.render(kind, body, version, context)), key };
      }
      // A list: the version's transform runs on the page (nothing for the latest version); each item's bytes are kept.
      const rendered = versions.render(kind, body, version, context);
      const list = listEnvelopeOf(rendered);
      if (list === undefined || list.items.length !== stored.items.length) return boundedJson(rendered, max);
      const itemRevisions = stored.items.map(revisionOf);
      const page = boundedItems(
        list,
        max,
        (item, i) => {
          const revision = itemRevisions[i];
          return revision === undefined ? Buffer.from(JSON.stringify(item)) : bytesOf(prefix + revision, () => item);
        },
        (data) => data.length,
      );
      const parts: Buffer[] = [Buffer.from(page.head)];
      page.pieces.forEach((data, i) => {
        if (i > 0) parts.push(COMMA);
        parts.push(data);
      });
      parts.push(Buffer.from(page.end));
      const data = Buffer.concat(parts, page.bytes);
      const included = itemRevisions.slice(0, page.pieces.length);
      if (included.some((r) => r === undefined)) return { data };
      return { data, key: `${prefix}page\n${page.hasMore}\n${included.join('\n')}` };
    },
    encoded: (rendered, encoding, compress) => {
      const key = `${rendered.key}\n${encoding}`;
      const found = kept?.get(key);
      // A key names the body its compressed bytes were made from, and this checks it: they are never served for another body.
      if (found !== undefined && 'source' in found && found.source.equals(rendered.data)) return Promise.resolve(found.data);
      const running = compressing.get(key);
      if (running !== undefined && running.source.equals(rendered.data)) return running.data;
      const data = compress(rendered.data).then(
        (bytes) => {
          if (compressing.get(key)?.data === data) compressing.delete(key);
          kept?.set(key, { source: rendered.data, data: bytes });
          return bytes;
        },
        (err: unknown) => {
          if (compressing.get(key)?.data === data) compressing.delete(key);
          throw err;
        },
      );
      compressing.set(key, { source: rendered.data, data });
      return data;
    },
    stats: () => ({ entries: kept?.size ?? 0, bytes: kept?.calculatedSize ?? 0 }),
  };
};
