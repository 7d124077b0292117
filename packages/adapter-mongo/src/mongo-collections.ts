/**
 * The collections of the store (named after the resources, docs/decisions/mongodb.md) and the
 * indexes each query needs, created idempotently at start: the features' rows (mongo-features.ts) merged.
 */
import type { Db, IndexDescription } from 'mongodb';
import type { StorePortKey } from '@debtkit/core';
import type { CollectionName, CollectionNames } from './mongo-collection-names.js';
import { mergeRows } from './mongo-features.js';

export type { CollectionName } from './mongo-collection-names.js';

/**
 * Every collection of the store, key → name: the features' rows (mongo-features.ts) merged, checked
 * against the names' slot (`CollectionNames`, mongo-collection-names.ts), so a collection a feature names
 * there without its row does not compile. The names are stored data: never rename one.
 */
export const COLLECTIONS = mergeRows('collections') satisfies { readonly [K in keyof CollectionNames]: CollectionNames[K] };

/**
 * The collection of each store port, by its key in core's port table (`STORE_PORTS`): the features'
 * rows merged; a port without its row does not compile.
 */
export const PORT_COLLECTIONS = mergeRows('ports') satisfies PortCollections;

/** One collection per store port key. */
export type PortCollections = { readonly [K in StorePortKey]: CollectionName };

/**
 * `_id` is the record's integer id (see mongo-document-codec.ts), so every
 * "(owner, id)" index is unique by construction; it is declared unique
 * to state the key. Each serves the owner-scoped get/update/delete and the
 * owner's page `{ owner, _id: { $gt } }` sorted by `_id` in either direction.
 * Names are fixed so that a restart finds the same index and does nothing.
 * The features' rows merged: a collection without its index list does not compile.
 */
export const INDEXES: { readonly [C in CollectionName]: ReadonlyArray<IndexDescription> } = mergeRows('indexes');

/** Create every index; an identical existing index is left as it is. */
export const ensureIndexes = async (db: Db, maxTimeMS: number): Promise<void> => {
  await Promise.all(
    Object.entries(INDEXES)
      .filter(([, specs]) => specs.length > 0)
      .map(([name, specs]) => db.collection(name).createIndexes([...specs], { maxTimeMS })),
  );
};

/**
 * Bring documents written by an older release up to the current shape, at
 * start (idempotent, and cheap once done: the filter matches nothing). Accounts
 * gained `version` (the compare-and-set token of docs/decisions/transactions.md): an account stored
 * without one is at version 1.
 */
export const migrateDocuments = async (db: Db, maxTimeMS: number): Promise<void> => {
  await db.collection(COLLECTIONS.accounts).updateMany({ version: { $exists: false } }, { $set: { version: 1 } }, { maxTimeMS });
};
