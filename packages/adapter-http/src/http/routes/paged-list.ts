/**
 * The envelope of every paged list, `{ <items>: [...], has_more }` (DESIGN 4),
 * typed with its items' key, so an endpoint's list codec and what its use
 * case's page becomes are checked against each other.
 */
import * as t from 'io-ts';
import type { Page } from '@debtkit/core';

/** `{ <items>: [...], has_more }` as a value. */
export type PagedList<K extends string, A> = { readonly [k in K]: ReadonlyArray<A> } & { readonly has_more: boolean };

/** The props of `pagedCodec(items, item)`. */
type PagedListProps<K extends string, C extends t.Mixed> = { readonly [k in K]: t.ReadonlyArrayC<C> } & { readonly has_more: t.BooleanC };

/*
 * Both helpers build an object with a computed key of generic type `K`, which
 * TypeScript types as `{ [x: string]: … }` (microsoft/TypeScript#13948); the
 * `as` only narrows that index signature to the one key `K` it holds.
 */

/** A page as its list envelope. */
export const paged =
  <K extends string>(items: K) =>
  <A>(page: Page<A>): PagedList<K, A> =>
    ({ [items]: page.items, has_more: page.hasMore }) as PagedList<K, A>;

/** The codec of the list envelope of `item`s, named `<item>List`. */
export const pagedCodec = <K extends string, C extends t.Mixed>(items: K, item: C) =>
  t.type({ [items]: t.readonlyArray(item), has_more: t.boolean } as PagedListProps<K, C>, `${item.name}List`);
