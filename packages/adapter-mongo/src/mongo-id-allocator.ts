/**
 * Integer ids per collection (docs/decisions/api-conventions.md: positive, ascending, never reused) from
 * one counter document per collection in `counters`: `{ _id: <collection>, seq }`.
 * `$inc` is atomic on the server, so processes sharing a database never hand
 * out the same id. An id taken by a write that then fails is skipped, not
 * reused: ids only need to grow.
 */
import * as t from 'io-ts';
import type { Db } from 'mongodb';
import { Id } from '@debtkit/core';
import { COLLECTIONS, type CollectionName } from './mongo-collections.js';
import { documentCodec, type StoredDocument } from './mongo-document-codec.js';
import { isDuplicateKeyError } from './mongo-errors.js';

const Counter = documentCodec(COLLECTIONS.counters, t.type({ collection: t.string, seq: Id }, 'Counter'), 'collection');

export class MongoIdAllocator {
  constructor(
    private readonly db: Db,
    private readonly maxTimeMS: number,
  ) {}

  /** The next id of `collection`; the first is 1. */
  async next(collection: CollectionName): Promise<Id> {
    try {
      return await this.increment(collection);
    } catch (error) {
      // Two first-ever upserts of one counter can race on `_id`; the loser's retry finds the document.
      if (!isDuplicateKeyError(error)) throw error;
      return this.increment(collection);
    }
  }

  private async increment(collection: CollectionName): Promise<Id> {
    const counter = await this.db
      .collection<StoredDocument>(COLLECTIONS.counters)
      .findOneAndUpdate({ _id: collection }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after', maxTimeMS: this.maxTimeMS });
    if (counter === null) throw new Error(`counters: the upsert of "${collection}" returned no document`);
    return Counter.decode(counter).seq;
  }
}
