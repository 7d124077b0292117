import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { Clock } from './clock.js';
import type { TransactionPorts } from './store-ports.js';
import type { UnitOfWork } from './unit-of-work.js';
import type { UserDataDelete } from './user-data.js';
import type { SecretGenerator } from './secret-generator.js';
import type { Page, PageRequest } from './paging.js';
import type { OwnedRead, OwnerFacts } from './owned-read.js';
import { DEFAULT_QUOTAS, withinQuota, type Quotas } from './quotas.js';
import { notFound, type Conflict, type DomainError, type NotFound, type QuotaExceeded, type StoreError } from './errors.js';
import { IsoDate, Timestamp, utcDate, timestampOf, type ClientId, type UserId, type Id } from './primitives.js';
import { DEFAULT_PAGE_LIMIT } from './requests.js';
import { userTurn } from './transactions.js';

/**
 * What the use cases need from the outside: each port on its own (a use case
 * names the ones it reads), so an embedding service can replace any one of them.
 * The kernel declares what every feature shares (the store ports, the unit of work,
 * the clock, randomness, quotas, a fair share); the registry adds each feature's own
 * (registry/application-deps.ts: the bureau, webhook URLs, versioning, computations,
 * the sandbox clock, content), by module augmentation, so the kernel names no feature.
 */
export interface ApplicationDeps extends Omit<TransactionPorts, 'idempotency'> {
  /** Every use case that writes runs in one of its transactions (docs/decisions/transactions.md; `inTransaction`). */
  readonly unitOfWork: UnitOfWork;
  readonly clock: Clock;
  /** Randomness for webhook signing secrets (the same port the token use cases draw from). */
  readonly secrets: SecretGenerator;
  /** How many accounts, plans and webhook endpoints an owner may have; default `DEFAULT_QUOTAS` (shared/quotas.ts). */
  readonly quotas?: Quotas;
  /**
   * Give the rest of the process a turn (docs/decisions/tenancy.md, a fair share): a long
   * use case (a sandbox advance: up to 12 months of up to 200 accounts) awaits it
   * between its steps, so other clients' requests are read and answered meanwhile.
   * The HTTP adapter passes `setImmediate`; default: no pause (an embedding
   * service calling core directly gets the same answers).
   */
  readonly yieldToOthers?: () => Promise<void>;
  /**
   * The user delete's deletion of the user's records (shared/user-data.ts): given by the registry
   * (`createApplication` fills in `deleteUserData`, the features' table, registry/user-data.ts).
   */
  readonly userDataDelete: UserDataDelete;
}

/** The caller of a user-scoped operation: the authenticated client and the user id in the path. */
export interface UserScope {
  readonly clientId: ClientId;
  readonly userId: UserId;
}

/** The last day `today` rendered: every request asks for today, and `toISOString` is not free (docs/performance.md); kept here, not in the pure domain. */
let lastDay = Number.NaN;
let lastDate = '' as IsoDate;
const DAY_MS = 86_400_000;

export const today = (clock: Clock): IsoDate => {
  const instant = clock.now();
  const day = Math.floor(instant.getTime() / DAY_MS);
  if (day !== lastDay) {
    // An invalid Date (NaN day) never matches: `utcDate` throws for it.
    lastDate = utcDate(instant);
    lastDay = day;
  }
  return lastDate;
};
export const nowStamp = (clock: Clock): Timestamp => timestampOf(clock.now());

/** What an owned read found, with what it read of the owning user. */
export interface Owned<A> {
  readonly value: A;
  readonly owner: OwnerFacts;
}

/** `orNotFound` for an owned read that keeps what was read of the user (its clock). */
export const ownedOrNotFound =
  (what: string) =>
  <A, E>(te: TE.TaskEither<E, OwnedRead<A>>): TE.TaskEither<E | NotFound, Owned<A>> =>
  () =>
    te().then((found) =>
      E.isLeft(found)
        ? found
        : O.isSome(found.right)
          ? E.right({ value: found.right.value, owner: found.right.owner })
          : E.left(notFound(`${what} not found`)),
    );

/** Inside an `Owned`, turn an Option into `not_found` (the record under the user). */
export const ownedSome =
  (what: string) =>
  <A, E>(te: TE.TaskEither<E, Owned<O.Option<A>>>): TE.TaskEither<E | NotFound, Owned<A>> =>
  () =>
    te().then((found) =>
      E.isLeft(found)
        ? found
        : O.isSome(found.right.value)
          ? E.right({ value: found.right.value.value, owner: found.right.owner })
          : E.left(notFound(`${what} not found`)),
    );

/**
 * Turn an Option into a `not_found` error. Written out (one promise step)
 * rather than as `TE.chain(O.match(…))`: every read runs it, and the
 * combinators' closures and extra promise hops cost more than the store read
 * itself (docs/performance.md).
 */
export const orNotFound =
  (what: string) =>
  <A, E>(te: TE.TaskEither<E, O.Option<A>>): TE.TaskEither<E | NotFound, A> =>
  () =>
    te().then((found) =>
      E.isLeft(found) ? found : O.isSome(found.right) ? E.right(found.right.value) : E.left(notFound(`${what} not found`)),
    );

/**
 * A read outside a transaction (docs/decisions/errors.md): no store answers it
 * with a conflict (it writes nothing and has no transaction to lose; a write
 * conflict only exists inside one), so it fails only with what `E` has besides
 * `conflict`. A conflict here would be a store bug: it is thrown (a 500), never
 * answered as a 409. Never wrap a read that runs inside a transaction.
 */
export const outsideTransaction =
  <E extends DomainError, A>(te: TE.TaskEither<E, A>): TE.TaskEither<Exclude<E, Conflict>, A> =>
  () =>
    te().then((r) => {
      if (E.isLeft(r) && r.left._tag === 'conflict')
        throw new Error(`A store answered a read outside a transaction with a conflict: ${r.left.message}`);
      return r as E.Either<Exclude<E, Conflict>, A>;
    });

export interface PageInput {
  readonly limit?: number;
  readonly starting_after?: Id;
}

export const toPageRequest = (q: PageInput): PageRequest =>
  q.starting_after === undefined
    ? { limit: q.limit ?? DEFAULT_PAGE_LIMIT }
    : { limit: q.limit ?? DEFAULT_PAGE_LIMIT, startingAfter: q.starting_after };

export const mapPage =
  <A, B>(f: (a: A) => B) =>
  (page: Page<A>): Page<B> => ({ items: page.items.map(f), hasMore: page.hasMore });

/**
 * What a use case that writes returns: its change, described as a function of
 * the transaction's ports, and not yet run. Core runs it, as ONE transaction
 * (docs/decisions/transactions.md): calling it (`change()`, it is a `TaskEither`) commits it on its
 * own; `runKeyed` (idempotent-change.ts) commits it with an Idempotency-Key's
 * kept answer. The boundary is this value: nothing joins a transaction behind
 * the code's back.
 */
export interface Change<A, E extends DomainError = DomainError> extends TE.TaskEither<E, A> {
  /** What the change does, or `undefined` for an answer that changes nothing (`noChange`). */
  readonly change: ChangeSpec<A, E> | undefined;
}
// `E` defaults to every core error: an embedder's `Change<A>` (core 1.x) still compiles, and names no tag.

export interface ChangeSpec<A, E extends DomainError = DomainError> {
  /** The transactions it commits in. */
  readonly unitOfWork: UnitOfWork;
  /** The aggregate it writes (`userTurn`): changes of this process to it run one after the other (docs/decisions/transactions.md, hot records). */
  readonly turn?: string;
  /**
   * The change itself, over the transaction's ports. `Left`: abort, and answer
   * the error. `Right(answer)`: commit, and answer `answer`, which may itself
   * be an error: a change can commit and still answer an error (a wrong
   * one-time code's count commits with the 400 it answers).
   */
  readonly apply: (ports: TransactionPorts) => TE.TaskEither<E, E.Either<E, A>>;
}

/** Run `spec` as one transaction, and answer what it answers. */
export const commit =
  <A, E extends DomainError>(spec: ChangeSpec<A, E>): TE.TaskEither<E | StoreError, A> =>
  () =>
    spec.unitOfWork
      .run(spec.apply, spec.turn === undefined ? undefined : { turn: spec.turn })()
      .then((r) => (E.isLeft(r) ? r : r.right));

const changeOf = <A, E extends DomainError>(spec: ChangeSpec<A, E>): Change<A, E | StoreError> =>
  Object.assign(commit(spec), { change: spec });

/** An answer that changes nothing (a computation a POST answers): run as it is, no transaction. */
export const noChange = <A, E extends DomainError>(task: TE.TaskEither<E, A>): Change<A, E> =>
  Object.assign(() => task(), { change: undefined });

const answered =
  <A, E>(task: TE.TaskEither<E, A>): TE.TaskEither<E, E.Either<E, A>> =>
  () =>
    task().then((r) => (E.isLeft(r) ? r : E.right(r)));

/**
 * The change `change` makes, as ONE transaction (docs/decisions/transactions.md): it gets `deps`
 * with every store port replaced by the transaction's, so all its reads and
 * writes (and the event it appends) commit together or not at all. A `Left`
 * aborts; a write conflict runs `change` again from a fresh snapshot
 * (application/transactions.ts). The use case returns the `Change` as it is:
 * its caller commits it (calls it, or `runKeyed` with an Idempotency-Key).
 * @example inTransaction(deps, (tx) => pipe(touchUser(tx, scope), TE.chainW(() => tx.accounts.create(account))))
 */
export const inTransaction = <D extends { readonly unitOfWork: UnitOfWork }, A, E extends DomainError>(
  deps: D,
  change: (tx: D & TransactionPorts) => TE.TaskEither<E, A>,
): Change<A, E | StoreError> => changeOf({ unitOfWork: deps.unitOfWork, apply: (ports) => answered(change({ ...deps, ...ports })) });

/**
 * `inTransaction` for a change to the scope's user or anything under it, in
 * the user's turn (docs/decisions/transactions.md, hot records): changes of this process to one
 * user (its accounts, plans, payments, bureau flow) run one after the other
 * instead of conflicting (shared/transactions.ts).
 */
export const inUserTransaction = <D extends { readonly unitOfWork: UnitOfWork }, A, E extends DomainError>(
  deps: D,
  scope: UserScope,
  change: (tx: D & TransactionPorts) => TE.TaskEither<E, A>,
): Change<A, E | StoreError> => inUserTransactionAnswering(deps, scope, (tx) => answered(change(tx)));

/**
 * `inUserTransaction` for a change that can commit and still answer an error:
 * `change` answers `Right(Left(error))` to commit its writes and answer
 * `error` (a wrong one-time code: the count commits with the 400), `Left` to
 * abort.
 */
export const inUserTransactionAnswering = <
  D extends { readonly unitOfWork: UnitOfWork },
  A,
  E extends DomainError,
  F extends DomainError = E,
>(
  deps: D,
  scope: UserScope,
  change: (tx: D & TransactionPorts) => TE.TaskEither<E, E.Either<F, A>>,
): Change<A, E | F | StoreError> =>
  changeOf<A, E | F>({
    unitOfWork: deps.unitOfWork,
    turn: userTurn(scope.clientId, scope.userId),
    apply: (ports) => change({ ...deps, ...ports }),
  });

/**
 * Inside a creation's transaction, after (or before) its owner bump: `quota_exceeded`
 * unless one more record fits beside the `existing` ones the transaction counts.
 * The bump is what makes the count exact (shared/quotas.ts).
 */
export const checkQuota = <E>(
  deps: Pick<ApplicationDeps, 'quotas'>,
  quota: keyof Quotas,
  existing: TE.TaskEither<E, number>,
): TE.TaskEither<E | QuotaExceeded, void> =>
  pipe(
    existing,
    TE.chainEitherKW((n) => withinQuota(quota, (deps.quotas ?? DEFAULT_QUOTAS)[quota], n)),
  );
