import * as t from 'io-ts';
import type { Id } from './primitives.js';

/** A page request: ascending by id, items with id > `startingAfter`. */
export interface PageRequest {
  readonly limit: number;
  readonly startingAfter?: Id;
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>;
  readonly hasMore: boolean;
}

/** `{ <items>: [...], has_more }` as a value: the envelope of every paged list (docs/decisions/api-conventions.md). */
export type PagedList<K extends string, A> = { readonly [k in K]: ReadonlyArray<A> } & { readonly has_more: boolean };

/** The props of `pagedCodec(items, item)`. */
type PagedListProps<K extends string, C extends t.Mixed> = { readonly [k in K]: t.ReadonlyArrayC<C> } & { readonly has_more: t.BooleanC };

/**
 * The codec of the list envelope of `item`s, named `<item>List`. It builds an object
 * with a computed key of generic type `K`, which TypeScript types as `{ [x: string]: … }`
 * (microsoft/TypeScript#13948); the `as` only narrows that index signature to the one key `K` it holds.
 */
export const pagedCodec = <K extends string, C extends t.Mixed>(items: K, item: C) =>
  t.type({ [items]: t.readonlyArray(item), has_more: t.boolean } as PagedListProps<K, C>, `${item.name}List`);
