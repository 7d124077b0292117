/**
 * What a feature brings to the mongo store, in its one file (`mongo-<feature>.ts`, docs/adding-a-resource.md):
 * its store ports' classes, its collections (key → name, stored data), each port's collection, and
 * each collection's indexes. `MONGO_FEATURES` (mongo-features.ts) lists the rows; the store's tables
 * are their merge, each checked against core's port table or the collections' slot.
 */
import type { IndexDescription } from 'mongodb';
import type { StorePortClasses } from '@debtkit/core';
import type { CollectionName } from './mongo-collection-names.js';

export interface MongoFeature {
  /** The class of each store port the feature owns: rows of `MONGO_STORE_CLASSES`. */
  readonly classes: Partial<StorePortClasses>;
  /** Its collections, key → name: rows of `COLLECTIONS`. */
  readonly collections: Readonly<Record<string, CollectionName>>;
  /** The collection of each store port it owns: rows of `PORT_COLLECTIONS`. */
  readonly ports: Readonly<Record<string, CollectionName>>;
  /** The indexes of each of its collections, by name (fixed, so a restart finds the same index): rows of `INDEXES`. */
  readonly indexes: Readonly<Partial<Record<CollectionName, ReadonlyArray<IndexDescription>>>>;
}
