/**
 * One change, one transaction (docs/decisions/transactions.md): the port a use case that writes
 * runs all its reads and writes through.
 */
import type * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Conflict, DomainError, StoreError } from './errors.js';
import type { TransactionPorts } from './store-ports.js';
import type { StoreHealth } from './store-health.js';

/** The store ports a transaction hands out (the kernel's slot, shared/store-ports.ts, filled by the registry's port table): every read and write through them is part of it. */
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
   * Run `work` as one transaction over the ports it is handed: the one boundary
   * (no joining, no nesting; a `run` inside `work` would be a transaction of its
   * own, and no use case does that).
   * - `Right`: committed, all of it; `Left`: aborted, none of it (the `Left` is the answer);
   *   a thrown error or rejected promise: aborted, then rethrown.
   * - A write conflict (another transaction wrote a record this one writes; snapshot
   *   isolation, first writer wins) runs `work` again from a fresh snapshot after a
   *   random, growing wait, until a deadline (DEBTKIT_WRITE_CONFLICT_DEADLINE_MS), then
   *   answers `conflict` with `retryAfterSeconds`. An unreachable store answers `unavailable` at once.
   * - With `options.turn`, it first waits for that turn (runs of this process on one
   *   aggregate go one at a time, in order; the wait is bounded by the deadline too, and the conflict deadline then starts).
   *
   * Use cases do not call it: they describe their change (`inTransaction`,
   * `inUserTransaction`: a `Change`) and `commit` or `runKeyed` runs it here.
   * It answers the work's own errors `E`, and the store's (`conflict`, `unavailable`).
   */
  run<A, E extends DomainError = never>(
    work: (ports: TransactionPorts) => TE.TaskEither<E, A>,
    options?: RunOptions,
  ): TE.TaskEither<E | StoreError, A>;
}

/**
 * `unitOfWork` with the ports of each of its transactions replaced by
 * `f(ports)`: a wrapper that traces, injects faults or forces interleaving.
 */
export const mapUnitOfWork = (unitOfWork: UnitOfWork, f: (ports: TransactionPorts) => TransactionPorts): UnitOfWork => ({
  run: (work, options) => unitOfWork.run((ports) => work(f(ports)), options),
});

/** A write conflict: a `conflict` that running the transaction again may not meet. */
export const writeConflict = (message = 'The record was changed by a concurrent request'): Conflict => ({
  _tag: 'conflict',
  message,
  transient: true,
});

export const isWriteConflict = (error: DomainError): boolean => error._tag === 'conflict' && error.transient === true;

/** What a store adapter implements for `transactionRunner` (shared/transactions.ts). */
export interface StoreTransaction<P> {
  readonly ports: P;
  /** `Left(writeConflict)` when the commit lost to another writer; `Left(unavailable)` when the store is gone. */
  commit(): Promise<E.Either<StoreError, void>>;
  /** Best effort: never rejects. */
  abort(): Promise<void>;
}

export interface TransactionDriver<P> {
  begin(): Promise<E.Either<StoreError, StoreTransaction<P>>>;
}

/** An opened store: every store port, its health, its unit of work, and how to release it (what a store adapter factory returns). */
export interface StorePorts extends TransactionPorts {
  readonly health: StoreHealth;
  /** Runs a change as one transaction over these ports (docs/decisions/transactions.md). */
  readonly unitOfWork: UnitOfWork;
  /** Release connections (no-op for memory). */
  close(): Promise<void>;
}
