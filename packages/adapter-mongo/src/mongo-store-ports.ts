/**
 * The repositories over one context: the store's own (mongo-store.ts), or a
 * transaction's, whose context carries its session (mongo-unit-of-work.ts).
 * In a transaction each is built on first use: it pays only for the ports it touches.
 */
import type { StorePortClasses, StorePortKey, TransactionPorts } from '@debtkit/core';
import type { MongoContext } from './mongo-context.js';
import { mergeRows } from './mongo-features.js';

/**
 * The mongo store's class for each store port (the port table's keys: a missing or wrong class does not
 * compile): the features' rows (mongo-features.ts, each feature's `mongo-<feature>.ts`) merged.
 */
export const MONGO_STORE_CLASSES: StorePortClasses = mergeRows('classes');

/** Every repository over `ctx`, each built when first read. */
export const mongoTransactionPorts = (ctx: MongoContext): TransactionPorts => {
  const ports = {};
  for (const key of Object.keys(MONGO_STORE_CLASSES) as StorePortKey[]) {
    let built: unknown;
    Object.defineProperty(ports, key, { enumerable: true, get: () => (built ??= new MONGO_STORE_CLASSES[key](ctx)) });
  }
  // Every key of the class table (the port table's keys) has its getter, typed by that table.
  return ports as TransactionPorts;
};
