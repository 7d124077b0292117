/**
 * A store's context (mongo-context.ts) on a client: apart from the context's type, because opening it
 * creates the collections' indexes (mongo-collections.ts, merged from every feature's row, whose
 * repositories import the context's type).
 */
import type { MongoClient } from 'mongodb';
import { ensureIndexes, migrateDocuments } from './mongo-collections.js';
import { StandaloneServerError, StoreClosedError } from './mongo-errors.js';
import { MongoIdAllocator } from './mongo-id-allocator.js';
import { retryingOnce, type MongoContext } from './mongo-context.js';

/**
 * The context of a store on `client`. Connecting is part of the gate because
 * the driver does not recover from a failed first connection by itself: after
 * it, every operation fails with "Topology is closed" until `connect()` is
 * called again. Once connected, the driver's monitoring rides out outages.
 */
export const mongoContext = (
  client: MongoClient,
  dbName: string,
  maxTimeMS: number,
  /** Called once, the first time the server is found to be standalone after start (the caller logs it). */
  onStandalone: (reason: string) => void = () => undefined,
): MongoContext => {
  const db = client.db(dbName);
  let closed = false;
  let standalone: boolean | undefined;
  let reported = false;
  const prepare = retryingOnce(async () => {
    await client.connect();
    // One `hello` per start: a replica set member names its set, a mongos says "isdbgrid".
    const hello = await db.admin().command({ hello: 1 });
    standalone = typeof hello['setName'] !== 'string' && hello['msg'] !== 'isdbgrid';
    await ensureIndexes(db, maxTimeMS);
    await migrateDocuments(db, maxTimeMS);
  });
  return {
    client,
    db,
    afterSettle: (hook) => hook(true),
    settledAppends: new Map(),
    maxTimeMS,
    ids: new MongoIdAllocator(db, maxTimeMS),
    ready: () => (closed ? Promise.reject(new StoreClosedError()) : prepare()),
    requireTransactions: async () => {
      if (standalone !== true) return;
      const error = new StandaloneServerError();
      if (!reported) {
        reported = true;
        onStandalone(error.message);
      }
      throw error;
    },
    close: async () => {
      closed = true;
      await client.close();
    },
  };
};
