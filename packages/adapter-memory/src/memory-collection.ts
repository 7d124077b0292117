/**
 * Building blocks every in-memory repository shares: paging over
 * records kept in ascending id order, lazy TaskEithers, and reads through the
 * owning user.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { portToken } from '@debtkit/core';
import type { MemorySession } from './memory-database.js';
import {
  noOwner,
  owned,
  ownerFactsOf,
  type ClientId,
  type StoreError,
  type OwnedRead,
  type Page,
  type PageRequest,
  type UserId,
  type UserRepository,
} from '@debtkit/core';

/**
 * Run `f` when the task runs, not when it is built: a TaskEither that is never
 * run must not touch the store, and a read sees the store as of its run.
 * There is no `await` between reading and writing inside `f`, so each call is
 * atomic on the single JavaScript thread; a transaction (memory-database.ts)
 * makes a sequence of calls atomic.
 */
export const lazyRight =
  <A>(f: () => A): TE.TaskEither<StoreError, A> =>
  () =>
    Promise.resolve(E.right(f()));

/** Like `lazyRight`, for operations that can fail with a domain error. */
export const lazyEither =
  <A>(f: () => E.Either<StoreError, A>): TE.TaskEither<StoreError, A> =>
  () =>
    Promise.resolve(f());

/**
 * One page of `records` (which must be in ascending id order): those with
 * id > `startingAfter` that match, at most `limit` of them, copied. `hasMore` is
 * exact: it looks for one more match past the page instead of guessing from the size.
 */
export const pageOf = <A extends { readonly id: number }>(
  records: Iterable<A>,
  page: PageRequest,
  copy: (a: A) => A,
  matches?: (a: A) => boolean,
): Page<A> => {
  const after = page.startingAfter ?? 0;
  const items: A[] = [];
  for (const r of records) {
    if (r.id <= after || (matches !== undefined && !matches(r))) continue;
    if (items.length === page.limit) return { items, hasMore: true };
    items.push(copy(r));
  }
  return { items, hasMore: false };
};

/** Copy a record's own fields; patch keys whose value is `undefined`, or that name `frozen` fields, are ignored. */
export const applyPatch = <R extends object>(record: R, patch: NoInfer<Partial<R>>, frozen: ReadonlyArray<keyof R>): R => {
  const next = { ...record };
  for (const key of Object.keys(patch) as Array<keyof R>) {
    const value = patch[key];
    if (value !== undefined && !frozen.includes(key)) next[key] = value;
  }
  return next;
};

/**
 * An owned read (core's shared/owned-read.ts) over the user port: the user as
 * `UserRepository.get` sees it in the same session (a transaction's snapshot,
 * or the latest commit), then `read`. In memory the two steps cost no I/O; they are kept as two port calls
 * so the answer follows whatever `UserRepository` the store was given.
 */
export const readOwned =
  <A>(
    users: UserRepository,
    clientId: ClientId,
    userId: UserId,
    read: () => TE.TaskEither<StoreError, A>,
  ): TE.TaskEither<StoreError, OwnedRead<A>> =>
  // Written out rather than with TE.chain/TE.map: every read request runs it (docs/performance.md).
  () =>
    users
      .get(clientId, userId)()
      .then((user) =>
        E.isLeft(user)
          ? user
          : O.isNone(user.right)
            ? E.right(noOwner)
            : ((facts) => read()().then((found) => (E.isLeft(found) ? found : E.right(owned(found.right, facts)))))(
                ownerFactsOf(user.right.value),
              ),
      );

/** The session a memory repository runs in (the store's own, outside transactions; a transaction's, inside one). */
export const MEMORY_SESSION = portToken<MemorySession>('memory.Session');
