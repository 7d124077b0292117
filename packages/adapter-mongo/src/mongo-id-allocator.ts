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
import { COLLECTION_NAMES, type CollectionName } from './mongo-collection-names.js';
import { documentCodec, type StoredDocument } from './mongo-document-codec.js';
import { isDuplicateKeyError } from './mongo-errors.js';

/**
 * An id this store minted (a counter's next value, checked by `Id`), given the
 * kind of the record it is for: the mongo store's one unchecked step of the id
 * kinds (docs/decisions/ids.md). A record read back decodes its id with its
 * kind's codec; the kind exists only for the compiler, so this costs nothing.
 */
export const mintedId = <I extends Id>(id: Id): I => id as I;

const Counter = documentCodec(COLLECTION_NAMES.counters, t.type({ collection: t.string, seq: Id }, 'Counter'), 'collection');

export class MongoIdAllocator {
  constructor(
    private readonly db: Db,
    private readonly maxTimeMS: number,
  ) {}

  /** The next id of `collection`; the first is 1. */
  async next<I extends Id = Id>(collection: CollectionName): Promise<I> {
    try {
      return await this.increment<I>(collection);
    } catch (error) {
      // Two first-ever upserts of one counter can race on `_id`; the loser's retry finds the document.
      if (!isDuplicateKeyError(error)) throw error;
      return this.increment<I>(collection);
    }
  }

  private async increment<I extends Id>(collection: CollectionName): Promise<I> {
    const counter = await this.db
      .collection<StoredDocument>(COLLECTION_NAMES.counters)
      .findOneAndUpdate({ _id: collection }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after', maxTimeMS: this.maxTimeMS });
    if (counter === null) throw new Error(`counters: the upsert of "${collection}" returned no document`);
    return mintedId<I>(Counter.decode(counter).seq);
  }
}
