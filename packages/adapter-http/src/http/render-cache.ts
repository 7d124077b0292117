/**
 * Rendered answers kept in memory (docs/decisions/tenancy.md, docs/performance.md, "Isolation"): the JSON
 * text of a resource that cannot change, as each API version renders it, so a
 * client reading the same large resource again and again (a payment plan is up
 * to 1 MiB) costs a lookup instead of a serialisation on the event loop, and,
 * for large answers, the compressed bytes per content encoding too
 * (pipeline/compression.ts).
 *
 * - What may be kept is said per response kind (`revisions`): a function that
 *   names the state of a body, its revision (a payment plan never changes
 *   after its creation: its id and `created_at`, and `updated_at` if it ever
 *   has one). A kind without one is rendered as before, every time. A list
 *   kind's revision names its items: each item's text is kept, and a page is
 *   put together from them (paged-list.ts's size bound applies as before).
 * - The key is the kind, the API version and the revision: the text kept is
 *   the body AFTER the version's transforms (core's `versioning.render`), so a
 *   version change to a kind can never serve another version's text. For a
 *   list, a version's transform must work item by item (core's
 *   `mapListItems`, as versions.ts asks of every list change): item i of the
 *   rendered page is item i of the stored page, rendered.
 * - The cache never answers on its own: the store is read as before (the
 *   resource exists, it is the client's, it was not deleted), and only its
 *   serialisation is skipped. A kept text is reused only for a body of the
 *   same revision.
 * - Bounded by bytes (`lru-cache`, least recently used out first): the UTF-8
 *   length of each text and the length of each compressed body, counted
 *   against `maxBytes` (DEBTKIT_RENDER_CACHE_MB); 0 keeps nothing.
 */
import { LRUCache } from 'lru-cache';
import { versioning as productionVersioning, type RenderContext, type ResponseKind, type Versioning } from '@debtkit/core';
import { boundedJson, listEnvelopeOf, type JsonText } from './routes/paged-list.js';

/** DEBTKIT_RENDER_CACHE_MB's default: 64 MiB, room for 64 of the largest plans a client may create. */
export const DEFAULT_RENDER_CACHE_MB = 64;
export const MIB = 1024 * 1024;

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
 * The kinds kept, and their revisions. A payment plan is written once (a
 * payment under it is a resource of its own; the plan is only deleted), and it
 * is the largest body the API answers. Events are not kept: erasure (4.9)
 * redacts them when they are read.
 */
export const DEFAULT_REVISIONS: Readonly<Partial<Record<ResponseKind, Revision>>> = {
  payment_plan: immutableRevision,
  payment_plan_list: immutableRevision,
};

/** A JSON text and its UTF-8 length, as kept. */
export interface KeptText {
  readonly text: string;
  readonly bytes: number;
}

/** The text `respond` wrote, with the key it is kept under: what the compression step looks its compressed bytes up by. */
export interface RenderedText extends KeptText {
  readonly key: string;
}

export interface RenderCache {
  /** Bytes the cache may hold (0: it keeps nothing). */
  readonly maxBytes: number;
  /**
   * The JSON text of `body` (in the latest shape) rendered for `version`, a
   * list ending early by size (paged-list.ts): from the cache when its kind
   * has a revision, else rendered. A `key` comes with a text that can be
   * looked up again (a whole resource, or a page of kept items).
   */
  render(kind: ResponseKind, body: unknown, version: string, max?: number, context?: RenderContext): JsonText | RenderedText;
  /**
   * The bytes of `rendered` compressed with `encoding`: the kept ones when they
   * were made from the same text, else `compress`'s, kept for next time.
   * Concurrent requests for the same bytes share one compression.
   */
  encoded(rendered: RenderedText, encoding: string, compress: (text: string) => Promise<Buffer>): Promise<Buffer>;
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

type Kept = KeptText | { readonly text: string; readonly data: Buffer };

/** Bytes an entry holds: a text's UTF-8 length; compressed bytes with the text they were made from. */
const sizeOf = (entry: Kept, key: string): number => key.length + ('data' in entry ? entry.data.length + entry.text.length : entry.bytes);

export const createRenderCache = (options: RenderCacheOptions): RenderCache => {
  const { maxBytes } = options;
  const revisions = options.revisions ?? DEFAULT_REVISIONS;
  const versions = options.versioning ?? productionVersioning;
  const kept = maxBytes > 0 ? new LRUCache<string, Kept>({ maxSize: maxBytes, sizeCalculation: sizeOf }) : undefined;
  const compressing = new Map<string, { readonly text: string; readonly data: Promise<Buffer> }>();

  /** The text kept under `key`, or `render()`'s, serialised and kept. */
  const textOf = (key: string, render: () => unknown): KeptText => {
    const found = kept?.get(key);
    if (found !== undefined && 'bytes' in found) return found;
    const text = JSON.stringify(render());
    const entry: KeptText = { text, bytes: Buffer.byteLength(text) };
    kept?.set(key, entry);
    return entry;
  };

  return {
    maxBytes,
    render: (kind, body, version, max, context) => {
      const revisionOf = kept === undefined ? undefined : revisions[kind];
      if (revisionOf === undefined) return boundedJson(versions.render(kind, body, version, context), max);
      const prefix = `${kind}\n${version}\n`;
      const stored = listEnvelopeOf(body);
      if (stored === undefined) {
        // One resource: rendered and serialised only when its text is not kept.
        const revision = revisionOf(body);
        if (revision === undefined) return boundedJson(versions.render(kind, body, version, context), max);
        const key = prefix + revision;
        return { ...textOf(key, () => versions.render(kind, body, version, context)), key };
      }
      // A list: the version's transform runs on the page (nothing for the latest version); each item's text is kept.
      const rendered = versions.render(kind, body, version, context);
      const list = listEnvelopeOf(rendered);
      if (list === undefined || list.items.length !== stored.items.length) return boundedJson(rendered, max);
      const itemRevisions = stored.items.map(revisionOf);
      const page = boundedJson(rendered, max, (item, i) => {
        const revision = itemRevisions[i];
        return revision === undefined ? undefined : textOf(prefix + revision, () => item);
      });
      const included = itemRevisions.slice(0, page.count);
      if (page.bytes === undefined || included.some((r) => r === undefined)) return page;
      return { text: page.text, bytes: page.bytes, key: `${prefix}page\n${page.hasMore}\n${included.join('\n')}` };
    },
    encoded: (rendered, encoding, compress) => {
      const key = `${rendered.key}\n${encoding}`;
      const found = kept?.get(key);
      // A key names the text its bytes were made from, and this checks it: bytes are never served for another text.
      if (found !== undefined && 'data' in found && found.text === rendered.text) return Promise.resolve(found.data);
      const running = compressing.get(key);
      if (running !== undefined && running.text === rendered.text) return running.data;
      const data = compress(rendered.text).then(
        (bytes) => {
          if (compressing.get(key)?.data === data) compressing.delete(key);
          kept?.set(key, { text: rendered.text, data: bytes });
          return bytes;
        },
        (err: unknown) => {
          if (compressing.get(key)?.data === data) compressing.delete(key);
          throw err;
        },
      );
      compressing.set(key, { text: rendered.text, data });
      return data;
    },
    stats: () => ({ entries: kept?.size ?? 0, bytes: kept?.calculatedSize ?? 0 }),
  };
};
