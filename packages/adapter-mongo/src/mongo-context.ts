/**
 * What every repository of one store shares: the database, the per-query time
 * limit, the id counters, and the gate that makes sure the client is connected
 * and the indexes exist.
 */
import type { ClientSession, Db, MongoClient } from 'mongodb';
import type { Id, PortToken } from '@debtkit/core';
import type { MongoIdAllocator } from './mongo-id-allocator.js';

/** Told whether the transaction committed (`false`: aborted, or its commit failed). */
export type SettleHook = (committed: boolean) => Promise<void>;

export interface MongoContext {
  readonly client: MongoClient;
  readonly db: Db;
  /**
   * Set on the context a transaction's repositories use (mongo-unit-of-work.ts):
   * every read and write of a record passes it, so it is part of the transaction.
   * Id counters never do (docs/decisions/transactions.md: ids are taken outside the transaction).
   */
  readonly session?: ClientSession;
  /** Run `hook` once the transaction settles, told whether it committed; outside a transaction, at once (`true`). */
  readonly afterSettle: (hook: SettleHook) => Promise<void>;
  /**
   * Per collection of a visible sequence, this process's appends whose documents
   * are stored: the next append of that collection drops them from the counter's
   * `appending` list (mongo-visible-sequence.ts). Shared by every transaction's context.
   */
  readonly settledAppends: Map<string, Id[]>;
  /** Server-side limit of every query and write (`maxTimeMS`). */
  readonly maxTimeMS: number;
  readonly ids: MongoIdAllocator;
  /** Resolves once the store is usable (connected, indexes created); every operation awaits it first. */
  readonly ready: () => Promise<void>;
  /**
   * Resolves when the server (known once `ready` has resolved) runs
   * transactions: a replica set member or a `mongos`. Rejects with
   * `StandaloneServerError` on a standalone server (docs/decisions/transactions.md).
   */
  readonly requireTransactions: () => Promise<void>;
  /** Close the client; operations afterwards are `unavailable`. */
  readonly close: () => Promise<void>;
}

/** The container token of a store's shared context (what `mongoStoreModule` injects into every repository). */
export const MONGO_CONTEXT = Symbol.for('debtkit.mongo.MongoContext') as PortToken<MongoContext>;

/**
 * Runs `prepare` once, on the first call. If it fails (the server is down),
 * the failure goes to that caller and the next call tries again; concurrent
 * callers share one attempt. After a success it costs nothing.
 */
export const retryingOnce = (prepare: () => Promise<void>): (() => Promise<void>) => {
  let done = false;
  let attempt: Promise<void> | undefined;
  return () => {
    if (done) return Promise.resolve();
    attempt ??= prepare().then(
      () => {
        done = true;
      },
      (error: unknown) => {
        attempt = undefined;
        throw error;
      },
    );
    return attempt;
  };
};

/** The context of one transaction on `session`: `afterSettle` hooks wait in `settled` until it commits or aborts. */
export const transactionContext = (ctx: MongoContext, session: ClientSession, settled: SettleHook[]): MongoContext => ({
  ...ctx,
  session,
  afterSettle: async (hook) => {
    settled.push(hook);
  },
});

/** The options every command of a repository carries: the time limit, and the session while in a transaction. */
export const commandOptions = (ctx: MongoContext): { maxTimeMS: number; session?: ClientSession } =>
  ctx.session === undefined ? { maxTimeMS: ctx.maxTimeMS } : { maxTimeMS: ctx.maxTimeMS, session: ctx.session };
