/**
 * The MongoDB store as an Inversify module: every storage port of core bound
 * to its Mongo repository, all sharing one opened context. A port added to the
 * store is one line in `MONGO_STORE_CLASSES` (mongo-store-ports.ts).
 */
import { ContainerModule } from 'inversify';
import { PORTS, STORE_PORT_KEYS, storePortTokens, type StorePortKey } from '@debtkit/core';
import { MONGO_CONTEXT, type MongoContext } from './mongo-context.js';
import { MONGO_STORE_CLASSES } from './mongo-store-ports.js';
import { mongoUnitOfWork } from './mongo-unit-of-work.js';
import { MongoStoreHealth } from './mongo-store-health.js';

/** Bind the Mongo repositories over `ctx` (from `openMongoContext`); whoever opened the context closes it. */
export const mongoStoreModule = (ctx: MongoContext): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(MONGO_CONTEXT).toConstantValue(ctx);
    // Generic in the key, so Inversify checks each class against its token's type.
    const bindPort = <K extends StorePortKey>(key: K): void =>
      void bind(storePortTokens[key]).to(MONGO_STORE_CLASSES[key]).inSingletonScope();
    for (const key of STORE_PORT_KEYS) bindPort(key);
    bind(PORTS.StoreHealth).to(MongoStoreHealth).inSingletonScope();
    bind(PORTS.UnitOfWork).toConstantValue(mongoUnitOfWork(ctx));
  });
