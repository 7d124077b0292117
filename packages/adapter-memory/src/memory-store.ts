/**
 * The in-memory store: every storage port over one `MemoryDatabase`
 * (memory-database.ts), with transactions at MongoDB's isolation level, for
 * tests, demos and `npm start`. It starts empty; seeding is explicit (see core's `seedDemo`).
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  buildStorePorts,
  transactionRunner,
  type StoreError,
  type StoreTransaction,
  type StorePortClasses,
  type StorePorts,
  type TransactionDriver,
  type TransactionPorts,
  type TransactionRunnerOptions,
  type UnitOfWork,
} from '@debtkit/core';
import { MemoryDatabase, type MemorySession } from './memory-database.js';
import { MemoryStoreHealth } from './memory-store-health.js';
import { MemoryIdempotencyStore } from './memory-idempotency-store.js';
import { clientsMemoryClasses } from './memory-clients.js';
import { webhooksMemoryClasses } from './memory-webhooks.js';
import { usersMemoryClasses } from './memory-users.js';
import { accountsMemoryClasses } from './memory-accounts.js';
import { creditScoresMemoryClasses } from './memory-credit-scores.js';
import { bureauMemoryClasses } from './memory-bureau.js';
import { paymentPlansMemoryClasses } from './memory-payment-plans.js';

/**
 * The memory store's class for each store port (the port table's keys: a missing or wrong class does
 * not compile): ONE row per feature owning store ports, each in its feature's file (`memory-<feature>.ts`,
 * its classes), and the kernel's idempotency store.
 */
export const MEMORY_STORE_CLASSES: StorePortClasses = {
  ...clientsMemoryClasses,
  ...webhooksMemoryClasses,
  ...usersMemoryClasses,
  ...accountsMemoryClasses,
  ...creditScoresMemoryClasses,
  ...bureauMemoryClasses,
  ...paymentPlansMemoryClasses,
  idempotency: MemoryIdempotencyStore,
};

/** Every store port reading and writing through `session`. */
export const memoryPortsOf = (session: MemorySession): TransactionPorts => buildStorePorts((key) => new MEMORY_STORE_CLASSES[key](session));

/** begin → the ports bound to a new transaction of `db`; commit and abort are synchronous underneath. */
export class MemoryTransactionDriver implements TransactionDriver<TransactionPorts> {
  constructor(private readonly db: MemoryDatabase) {}

  begin(): Promise<E.Either<StoreError, StoreTransaction<TransactionPorts>>> {
    const { db } = this;
    const tx = db.begin();
    return Promise.resolve(
      E.right({
        ports: memoryPortsOf({ db, tx }),
        commit: () => Promise.resolve(db.commit(tx)),
        abort: () => {
          db.abort(tx);
          return Promise.resolve();
        },
      }),
    );
  }
}

/**
 * The memory store's `UnitOfWork`: core's runner (abort on Left, turns,
 * retry with backoff until the deadline) over its transactions. `options`
 * (e.g. `deadlineMs`, DEBTKIT_WRITE_CONFLICT_DEADLINE_MS) override the policy.
 */
export const memoryUnitOfWork = (db: MemoryDatabase, options?: TransactionRunnerOptions): UnitOfWork =>
  transactionRunner(new MemoryTransactionDriver(db), { ...MEMORY_RETRY_POLICY, ...options });

/**
 * The retry policy in memory: losers of a write conflict (changes under
 * different turns, or none) wait a random 0 to 2^(n-1) ms (at most 20) before
 * attempt n+1, so they do not collide again in lockstep; the deadline is core's
 * default (10 s) unless the store is given one.
 */
export const MEMORY_RETRY_POLICY = {
  backoffBaseMs: 1,
  backoffCapMs: 20,
} as const satisfies TransactionRunnerOptions;

/**
 * A new, empty store; each call is independent of every other.
 * @example
 *   const store = createMemoryStore();
 *   const client = await store.clients.create({ name: 'Demo', environment: 'sandbox', api_version: '2024-07-01', created_at })();
 */
export const createMemoryStore = (db: MemoryDatabase = new MemoryDatabase(), options?: TransactionRunnerOptions): StorePorts => ({
  ...memoryPortsOf(db.autocommit),
  health: new MemoryStoreHealth(),
  unitOfWork: memoryUnitOfWork(db, options),
  // Nothing to release: the maps go with the store object.
  close: () => Promise.resolve(),
});
