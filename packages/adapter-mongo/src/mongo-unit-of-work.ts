/**
 * One change, one transaction on MongoDB (docs/decisions/transactions.md): a multi-document
 * transaction on a `ClientSession`, started with snapshot reads and majority
 * writes. The policy (join an enclosing run, abort on `Left` or a throw, wait
 * for the aggregate's turn within this process, run again after a write
 * conflict with jittered backoff until the deadline, 10 s unless
 * DEBTKIT_WRITE_CONFLICT_DEADLINE_MS says otherwise) is core's
 * `transactionRunner`; this file brings what is MongoDB's:
 *
 * - `begin`: a session and `startTransaction` (neither sends a command: the
 *   transaction starts with its first read or write), and the store's
 *   repositories bound to that session;
 * - `commit`: `commitTransaction`, retried while the outcome is unknown
 *   (`UnknownTransactionCommitResult`, the driver's documented rule), at most
 *   `COMMIT_ATTEMPTS` times and never past the deadline, NOT the driver's
 *   `withTransaction`, whose loops run for up to 120 s;
 *   a `TransientTransactionError` (a write conflict, a transaction the server
 *   aborted) is `Left(writeConflict)`, so the runner runs the work again; a
 *   server that cannot be reached is `Left(unavailable)` at once;
 * - `abort`: `abortTransaction`, best effort (a transaction nobody commits is
 *   aborted by the server after `transactionLifetimeLimitSeconds` anyway).
 *
 * Transactions need a replica set (or a sharded cluster): on a standalone
 * server `begin` answers `unavailable` with the reason (mongo-deployment.ts).
 */
import * as E from 'fp-ts/lib/Either.js';
import { MongoErrorLabel, MongoError, MongoServerError, type ClientSession, type TransactionOptions } from 'mongodb';
import {
  transactionRunner,
  type StoreError,
  type StoreTransaction,
  type TransactionDriver,
  type TransactionPorts,
  type TransactionRunnerOptions,
  type UnitOfWork,
} from '@debtkit/core';
import { transactionContext, type MongoContext, type SettleHook } from './mongo-context.js';
import { toDomainError } from './mongo-errors.js';
import { mongoTransactionPorts } from './mongo-store-ports.js';

/**
 * The retry policy on MongoDB: within a process, changes to one user wait
 * their turn (core); what still conflicts comes from other processes (or
 * changes under another turn), and the loser waits a random while (up to 2 ms
 * after the first loss, doubling to at most 100 ms) before its next attempt,
 * until the deadline, so that the processes' writers of one record get
 * through one after the other instead of colliding again in lockstep.
 */
export const MONGO_RETRY_POLICY: TransactionRunnerOptions = { backoffBaseMs: 2, backoffCapMs: 100 };

/** Commits tried while the server cannot say whether the last one committed. */
export const COMMIT_ATTEMPTS = 3;

/** Snapshot reads, majority writes, the primary (docs/decisions/transactions.md, docs/decisions/mongodb.md). */
export const TRANSACTION_OPTIONS: TransactionOptions = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority' },
  readPreference: 'primary',
};

const isUnknownCommitResult = (error: unknown): boolean =>
  error instanceof MongoError && error.hasErrorLabel(MongoErrorLabel.UnknownTransactionCommitResult);

/** MaxTimeMSExpired on a commit: the driver's rule is not to retry it (the client's own time limit). */
const isMaxTimeExpired = (error: unknown): boolean => error instanceof MongoError && error.code === 50;

/** What a failed `commitTransaction` means for the runner (the one mapping, mongo-errors.ts); rethrows a bug. */
const commitFailure = (error: unknown): StoreError => {
  const mapped = toDomainError(error, 'The change conflicts with a stored record');
  if (mapped === undefined) throw error;
  return mapped;
};

class MongoTransaction implements StoreTransaction<TransactionPorts> {
  readonly ports: TransactionPorts;
  private readonly settled: SettleHook[] = [];

  constructor(
    private readonly ctx: MongoContext,
    private readonly session: ClientSession,
  ) {
    this.ports = mongoTransactionPorts(transactionContext(ctx, session, this.settled));
  }

  async commit(): Promise<E.Either<StoreError, void>> {
    let committed = false;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await this.session.commitTransaction();
          committed = true;
          return E.right(undefined);
        } catch (error) {
          // Unknown outcome (the commit may have landed): committing again is safe and
          // tells; a transient error without that label means it did not commit.
          if (isUnknownCommitResult(error) && attempt < COMMIT_ATTEMPTS && !isMaxTimeExpired(error)) continue;
          const failure = commitFailure(error);
          await this.dropOnServer(error);
          return E.left(failure);
        }
      }
    } finally {
      await this.settle(committed);
    }
  }

  /**
   * After a commit that failed with the server answering, the transaction may
   * still be open there, holding what it wrote until
   * `transactionLifetimeLimitSeconds` (the driver allows no abort once a commit
   * was tried): `killSessions` aborts it now, so that a retry (from any
   * process) does not meet its locks. A server that did not answer is not
   * asked again (the 503 goes out at once).
   */
  private async dropOnServer(error: unknown): Promise<void> {
    if (!(error instanceof MongoServerError)) return;
    await this.ctx.client
      .db('admin')
      .command({ killSessions: [this.session.id], maxTimeMS: this.ctx.maxTimeMS })
      .catch(() => undefined);
  }

  async abort(): Promise<void> {
    try {
      if (this.session.inTransaction()) await this.session.abortTransaction();
    } catch {
      // Best effort: the server aborts a transaction nobody finishes (transactionLifetimeLimitSeconds).
    } finally {
      await this.settle(false);
    }
  }

  private async settle(committed: boolean): Promise<void> {
    await this.session.endSession().catch(() => undefined);
    for (const hook of this.settled.splice(0)) await hook(committed).catch(() => undefined);
  }
}

/** The `TransactionDriver` of the store on `ctx`. */
export const mongoTransactionDriver = (ctx: MongoContext): TransactionDriver<TransactionPorts> => ({
  begin: async () => {
    try {
      await ctx.ready();
      await ctx.requireTransactions();
    } catch (error) {
      const mapped = toDomainError(error, 'begin cannot conflict');
      if (mapped === undefined) throw error;
      return E.left(mapped);
    }
    const session = ctx.client.startSession({ causalConsistency: false });
    // The commit is bounded like every other command (`maxTimeMS`): a commit that runs out is `unavailable`.
    session.startTransaction({ ...TRANSACTION_OPTIONS, maxCommitTimeMS: ctx.maxTimeMS });
    return E.right(new MongoTransaction(ctx, session));
  },
});

const unitsOfWork = new WeakMap<MongoContext, UnitOfWork>();

/**
 * The store's `UnitOfWork`: core's runner over MongoDB transactions. One per
 * context (asked again, the same one), so that every change to one user
 * waits for the others' turn, whoever asked; `options` count only the first time (`openMongoContext` asks
 * first, with the store's `writeConflictDeadlineMs`).
 */
export const mongoUnitOfWork = (ctx: MongoContext, options: TransactionRunnerOptions = {}): UnitOfWork => {
  let uow = unitsOfWork.get(ctx);
  if (uow === undefined) {
    uow = transactionRunner(mongoTransactionDriver(ctx), { ...MONGO_RETRY_POLICY, ...options });
    unitsOfWork.set(ctx, uow);
  }
  return uow;
};
