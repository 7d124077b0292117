/**
 * What every repository of one store shares: the database, the per-query time
 * limit, the id counters, and the gate that makes sure the client is connected
 * and the indexes exist.
 */
import type { Db, MongoClient } from 'mongodb';
import type { PortToken } from '@debtkit/core';
import { ensureIndexes, migrateDocuments } from './mongo-collections.js';
import { StoreClosedError } from './mongo-errors.js';
import { MongoIdAllocator } from './mongo-id-allocator.js';

export interface MongoContext {
  readonly db: Db;
  /** Server-side limit of every query and write (`maxTimeMS`). */
  readonly maxTimeMS: number;
  readonly ids: MongoIdAllocator;
  /** Resolves once the store is usable (connected, indexes created); every operation awaits it first. */
  readonly ready: () => Promise<void>;
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

/**
 * The context of a store on `client`. Connecting is part of the gate because
 * the driver does not recover from a failed first connection by itself: after
 * it, every operation fails with "Topology is closed" until `connect()` is
 * called again. Once connected, the driver's monitoring rides out outages.
 */
export const mongoContext = (client: MongoClient, dbName: string, maxTimeMS: number): MongoContext => {
  const db = client.db(dbName);
  let closed = false;
  const prepare = retryingOnce(async () => {
    await client.connect();
    await ensureIndexes(db, maxTimeMS);
    await migrateDocuments(db, maxTimeMS);
  });
  return {
    db,
    maxTimeMS,
    ids: new MongoIdAllocator(db, maxTimeMS),
    ready: () => (closed ? Promise.reject(new StoreClosedError()) : prepare()),
    close: async () => {
      closed = true;
      await client.close();
    },
  };
};
