/**
 * Reads addressed through the owning user (docs/decisions/tenancy.md, docs/performance.md).
 *
 * A user-scoped GET used to cost two store round trips: the user (does this
 * client own it, and is it not being deleted?) and then the resource. A
 * repository's `…Owned` read answers both questions at once, so a store that
 * can join (MongoDB: one `aggregate` on `users` with a `$lookup`) answers a
 * read in one round trip, hit or miss.
 *
 * The user is checked exactly as `UserRepository.get` checks it, in the same
 * read: a user of another client and a missing one are both `none`. A user's
 * delete is one transaction (docs/decisions/transactions.md), so a read sees the user with its
 * records, or neither; a record left without its user (written outside the use
 * cases) is not found through it.
 *
 * Why not a `client_id` copied onto every record instead, read with one find?
 * That read could not see the user's deleting marker: a user whose delete has
 * begun or failed part-way would 404 while its accounts and scores still
 * answered 200, and every stored record would need the owner's client copied
 * in (and migrated).
 */
import type * as O from 'fp-ts/lib/Option.js';
import type { IsoDate } from './primitives.js';

/**
 * What the owned read learnt about the owning user on the way (docs/sandbox-over-time.md):
 * the date its sandbox clock was advanced to (`null`: never), so a use case
 * derives the user's "today" without a second store command.
 */
export interface OwnerFacts {
  readonly sandboxDate: IsoDate | null;
}

/**
 * What an owned read found: `none` when the client has no such user (missing,
 * another client's, or being deleted); otherwise `some` of what the user owns
 * (an `Option` for one record, a list or a page for many).
 * @example
 *   // latest score: none → "User not found"; some(none) → "Credit score not found"
 *   pipe(scores.latestOwned(clientId, userId), orNotFound('User'), orNotFound('Credit score'))
 */
export type OwnedRead<A> = O.None | (O.Some<A> & { readonly owner: OwnerFacts });

/** The `none` of an owned read: the client has no such user. */
export const noOwner: OwnedRead<never> = { _tag: 'None' };

/** The `some` of an owned read: what the user owns, and what was read of the user with it. */
export const owned = <A>(value: A, owner: OwnerFacts): OwnedRead<A> => ({ _tag: 'Some', value, owner });

/** `OwnerFacts` of a stored user record (its optional sandbox clock field, absent on users stored before it). */
export const ownerFactsOf = (user: { readonly sandbox_date?: IsoDate | null | undefined }): OwnerFacts => ({
  sandboxDate: user.sandbox_date ?? null,
});
