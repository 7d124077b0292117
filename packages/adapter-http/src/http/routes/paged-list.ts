/**
 * The envelope of every paged list, `{ <items>: [...], has_more }` (docs/decisions/api-conventions.md),
 * typed with its items' key, so a kind's list codec (core's `pagedCodec`, in `RESPONSE_CODECS`)
 * and what its use case's page becomes are checked against each other.
 */
import { MAX_RESPONSE_BODY_BYTES, type Page, type PagedList } from '@debtkit/core';
import { ResponseTooLarge } from '../json-response.js';

/** A page as its list envelope. The computed key of generic type `K` is typed `{ [x: string]: … }` (microsoft/TypeScript#13948): the `as` only narrows it to the one key `K`. */
export const paged =
  <K extends string>(items: K) =>
  <A>(page: Page<A>): PagedList<K, A> =>
    ({ [items]: page.items, has_more: page.hasMore }) as PagedList<K, A>;

/** The items key and items of a list envelope as rendered, or undefined for any other body. */
export const listEnvelopeOf = (body: unknown): { readonly key: string; readonly items: ReadonlyArray<unknown>; readonly hasMore: boolean } | undefined => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const keys = Object.keys(body);
  const record = body as Record<string, unknown>;
  const hasMore = record['has_more'];
  const key = keys[0];
  if (keys.length !== 2 || keys[1] !== 'has_more' || typeof hasMore !== 'boolean' || key === undefined) return undefined;
  const items = record[key];
  return Array.isArray(items) ? { key, items, hasMore } : undefined;
};

/** A JSON text, with its UTF-8 length when it was measured. */
export interface JsonText {
  readonly text: string;
  readonly bytes?: number;
}

/** A body's JSON text as `boundedJson` made it: for a list, how many items it holds and whether it ended early. */
export interface BoundedJson extends JsonText {
  /** Items written (a list), or 0. */
  readonly count: number;
  /** The page's `has_more` as written (a list), or false. */
  readonly hasMore: boolean;
}

/**
 * The JSON text of a response body, with the size bound of docs/decisions/tenancy.md: a list
 * envelope (`{ <items>: [...], has_more }`) whose text would pass `max` bytes
 * ends early, before the first item that would pass it, with `has_more: true`,
 * so a client pages on with `starting_after` the last id it got. Each item is
 * serialised once, and no more of them than fit; `itemText` may hand an item's
 * text over instead (render-cache.ts keeps them). Any other body is serialised
 * whole (`writeJsonText` refuses one over the bound). A list whose first item
 * alone passes the bound (a record stored before the size rule) is refused
 * (`ResponseTooLarge`, a 500 logged): an empty page with `has_more` would
 * leave its client nowhere to go on from.
 */
export const boundedJson = (
  body: unknown,
  max: number = MAX_RESPONSE_BODY_BYTES,
  itemText?: (item: unknown, index: number) => JsonText | undefined,
): BoundedJson => {
  const list = listEnvelopeOf(body);
  if (list === undefined) return { text: JSON.stringify(body), count: 0, hasMore: false };
  const head = `{${JSON.stringify(list.key)}:[`;
  const parts: string[] = [];
  // The envelope with `has_more: true`, the longer of its two endings.
  const more = '],"has_more":true}';
  let bytes = Buffer.byteLength(head) + more.length;
  for (const [i, item] of list.items.entries()) {
    const given = itemText?.(item, i);
    const part = given?.text ?? JSON.stringify(item);
    const size = (parts.length === 0 ? 0 : 1) + (given?.bytes ?? Buffer.byteLength(part));
    if (bytes + size > max) {
      if (parts.length === 0) throw new ResponseTooLarge(`the first of the ${list.key} alone is ${size} bytes, over the ${max}-byte bound`);
      return { text: `${head}${parts.join(',')}${more}`, bytes, count: parts.length, hasMore: true };
    }
    parts.push(part);
    bytes += size;
  }
  const end = `],"has_more":${list.hasMore}}`;
  return { text: `${head}${parts.join(',')}${end}`, bytes: bytes - more.length + end.length, count: parts.length, hasMore: list.hasMore };
};

/** `boundedJson`'s text. */
export const boundedJsonText = (body: unknown, max: number = MAX_RESPONSE_BODY_BYTES): string => boundedJson(body, max).text;
