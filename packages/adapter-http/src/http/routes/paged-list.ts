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
export const listEnvelopeOf = (
  body: unknown,
): { readonly key: string; readonly items: ReadonlyArray<unknown>; readonly hasMore: boolean } | undefined => {
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

/** The items of a list page that fit its bound, as `boundedItems` chose them. */
export interface BoundedItems<P> {
  /** The envelope's start, `{"<items>":[`. */
  readonly head: string;
  /** Each item included, as `pieceOf` made it. */
  readonly pieces: ReadonlyArray<P>;
  /** The envelope's end, `],"has_more":…}`: true when the page ended early. */
  readonly end: string;
  /** The whole body's UTF-8 length. */
  readonly bytes: number;
  readonly hasMore: boolean;
}

/**
 * The size bound of docs/decisions/tenancy.md over a list envelope
 * (`{ <items>: [...], has_more }`): the items whose serialisation fits `max`
 * bytes with the envelope, in order, ending early, before the first item that
 * would pass it, with `has_more: true`, so a client pages on with
 * `starting_after` the last id it got. Each item is made into a piece once
 * (its JSON text, or its kept bytes), and no more of them than fit; `sizeOf`
 * is a piece's UTF-8 length. A list whose first item alone passes the bound
 * (a record stored before the size rule) is refused (`ResponseTooLarge`, a 500
 * logged): an empty page with `has_more` would leave its client nowhere to go on from.
 */
export const boundedItems = <P>(
  list: { readonly key: string; readonly items: ReadonlyArray<unknown>; readonly hasMore: boolean },
  max: number,
  pieceOf: (item: unknown, index: number) => P,
  sizeOf: (piece: P) => number,
): BoundedItems<P> => {
  const head = `{${JSON.stringify(list.key)}:[`;
  const pieces: P[] = [];
  // The envelope with `has_more: true`, the longer of its two endings.
  const more = '],"has_more":true}';
  let bytes = Buffer.byteLength(head) + more.length;
  for (const [i, item] of list.items.entries()) {
    const piece = pieceOf(item, i);
    const size = (pieces.length === 0 ? 0 : 1) + sizeOf(piece);
    if (bytes + size > max) {
      if (pieces.length === 0)
        throw new ResponseTooLarge(`the first of the ${list.key} alone is ${size} bytes, over the ${max}-byte bound`);
      return { head, pieces, end: more, bytes, hasMore: true };
    }
    pieces.push(piece);
    bytes += size;
  }
  const end = `],"has_more":${list.hasMore}}`;
  return { head, pieces, end, bytes: bytes - more.length + end.length, hasMore: list.hasMore };
};

/**
 * The JSON text of a response body, with the size bound of `boundedItems` when
 * it is a list envelope: each item is serialised once, and no more of them
 * than fit. Any other body is serialised whole (`writeJsonText` refuses one
 * over the bound).
 */
export const boundedJson = (body: unknown, max: number = MAX_RESPONSE_BODY_BYTES): JsonText => {
  const list = listEnvelopeOf(body);
  if (list === undefined) return { text: JSON.stringify(body) };
  const page = boundedItems(
    list,
    max,
    (item) => JSON.stringify(item),
    (text) => Buffer.byteLength(text),
  );
  return { text: `${page.head}${page.pieces.join(',')}${page.end}`, bytes: page.bytes };
};

/** `boundedJson`'s text. */
export const boundedJsonText = (body: unknown, max: number = MAX_RESPONSE_BODY_BYTES): string => boundedJson(body, max).text;
