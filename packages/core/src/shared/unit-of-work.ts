/**
 * One change, one transaction (docs/decisions/transactions.md): the port a use case that writes
 * runs all its reads and writes through.
 */
import type * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError } from './errors.js';
import type { TransactionPorts } from './store-ports.js';

/** The store ports a transaction hands out (the port table, shared/store-ports.ts): every read and write through them is part of it. */
export type { TransactionPorts };

/** How a run is scheduled (docs/decisions/transactions.md, hot records). */
export interface RunOptions {
  /**
   * The aggregate the change writes (core's `userTurn(clientId, userId)` for a
   * user and everything under it): runs of this process naming the same turn
   * run one after the other, first come first served, instead of conflicting.
   * Leave it out for a change with no one owner (it meets others as write conflicts).
   */
  readonly turn?: string;
}

export interface UnitOfWork {
  /**
   * Run `work` as one transaction over the ports it is handed.
   * - `Right`: committed, all of it; `Left`: aborted, none of it (the `Left` is the answer);
   *   a thrown error or rejected promise: aborted, then rethrown.
   * - A write conflict (another transaction wrote a record this one writes; snapshot
   *   isolation, first writer wins) runs `work` again from a fresh snapshot after a
   *   random, growing wait, until a deadline (DEBTKIT_WRITE_CONFLICT_DEADLINE_MS), then
   *   answers `conflict` with `retryAfterSeconds`. An unreachable store answers `unavailable` at once.
   * - With `options.turn`, it first waits for that turn (runs of this process on one
   *   aggregate go one at a time, in order; the wait is bounded by the deadline too, and the conflict deadline then starts).
   *   Joining an enclosing run, it takes the turn for that whole run (if it holds none).
   * - Called inside a `runJoinable` of the same unit of work (in the same async
   *   context), it joins that transaction (no commit of its own).
   * - Otherwise its transaction is not tracked: a `run` called inside it begins
   *   a transaction of its own. No use case calls another's `run` inside its
   *   own (the atomicity contract would show it); what must join, the HTTP
   *   adapter's Idempotency-Key step, uses `runJoinable`.
   */
  run<A>(work: (ports: TransactionPorts) => TE.TaskEither<DomainError, A>, options?: RunOptions): TE.TaskEither<DomainError, A>;
  /**
   * Like `run`, and every `run` called while `work` runs (in its async context)
   * joins this transaction: so the HTTP adapter commits an Idempotency-Key's
   * kept response with the change it answers (docs/decisions/idempotency.md). Tracking the context
   * has a price on Node 20 (an enabled AsyncLocalStorage hooks every promise of
   * the process while one is open), which is why `run` does not.
   */
  runJoinable<A>(work: (ports: TransactionPorts) => TE.TaskEither<DomainError, A>, options?: RunOptions): TE.TaskEither<DomainError, A>;
  /**
   * Like `run`, but always a transaction of its own, committed on its own even
   * when called inside another run: for what must stay recorded whatever the
   * enclosing change answers (a wrong one-time code is counted even when its
   * 422 aborts the request's transaction).
   */
  runAlone<A>(work: (ports: TransactionPorts) => TE.TaskEither<DomainError, A>): TE.TaskEither<DomainError, A>;
}

/**
 * `unitOfWork` with the ports of each of its transactions (plain, joinable or
 * alone) replaced by `f(ports)`: a wrapper that traces, injects faults or forces
 * interleaving, written once for the three kinds of run.
 */
export const mapUnitOfWork = (unitOfWork: UnitOfWork, f: (ports: TransactionPorts) => TransactionPorts): UnitOfWork => ({
  run: (work, options) => unitOfWork.run((ports) => work(f(ports)), options),
  runJoinable: (work, options) => unitOfWork.runJoinable((ports) => work(f(ports)), options),
  runAlone: (work) => unitOfWork.runAlone((ports) => work(f(ports))),
});

/** A write conflict: a `conflict` that running the transaction again may not meet. */
export const writeConflict = (message = 'The record was changed by a concurrent request'): DomainError => ({
  _tag: 'conflict',
  message,
  transient: true,
});

export const isWriteConflict = (error: DomainError): boolean => error._tag === 'conflict' && error.transient === true;

/** What a store adapter implements for `transactionRunner` (shared/transactions.ts). */
export interface StoreTransaction<P> {
  readonly ports: P;
  /** `Left(writeConflict)` when the commit lost to another writer; `Left(unavailable)` when the store is gone. */
  commit(): Promise<E.Either<DomainError, void>>;
  /** Best effort: never rejects. */
  abort(): Promise<void>;
}

export interface TransactionDriver<P> {
  begin(): Promise<E.Either<DomainError, StoreTransaction<P>>>;
}

/** Structurally `AsyncLocalStorage` from node:async_hooks (core imports no node module; adapters pass one in). */
export interface AsyncContext<T> {
  getStore(): T | undefined;
  run<R>(store: T, callback: () => R): R;
  /** Run `callback` outside any store (for `runAlone`). */
  exit<R>(callback: () => R): R;
  /**
   * Stop tracking the store until the next `run` (the runner calls it when no
   * joinable transaction is in progress). On Node 20 an enabled `AsyncLocalStorage`
   * installs a hook on every promise the process makes, which slows every
   * request (a promise-heavy step about 2.5×), reads included.
   */
  disable(): void;
}
