/**
 * One collection of records, as the repositories use it: every document read is
 * decoded with the collection's persistence codec, every query carries
 * `maxTimeMS`, and what goes in or comes out is a copy the caller may change.
 * This is mapping inside the adapter, not a generic repository: each port's
 * class decides which filters (always with the owner) it runs.
 */
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { ClientSession, Collection, Document, Filter, Sort, UpdateFilter } from 'mongodb';
import {
  IsoDate,
  noOwner,
  owned,
  type StoreError,
  type Id,
  type OwnedRead,
  type OwnerFacts,
  type Page,
  type PageRequest,
} from '@debtkit/core';
import { COLLECTION_NAMES, type CollectionName } from './mongo-collection-names.js';
import { commandOptions, type MongoContext } from './mongo-context.js';
import type { DocumentCodec, StoredDocument } from './mongo-document-codec.js';
import { mongoTask } from './mongo-errors.js';

/**
 * The marker the two-step deletes of releases before transactions set first
 * (docs/decisions/transactions.md replaced them): a document a delete of such a release left
 * marked, interrupted, stays invisible to reads.
 */
export const DELETING = 'deleting';
/** The filter part that leaves out documents being deleted. */
export const NOT_DELETING = { [DELETING]: { $exists: false } } as const;

/**
 * A counter `touch` increments: a write to the document that changes nothing
 * it answers (the owner bump, docs/decisions/transactions.md; a `$set` to the same value is not a
 * write for MongoDB). Never decoded.
 */
export const WRITES = '_writes';

/** The field an owned read's `$lookup` puts each owned document in (the user's other fields are projected away). */
const OWNED = 'owned';

/** Fields a patch can never change, whatever it holds at run time. */
const FROZEN = new Set(['_id', 'id', 'client_id', 'user_id', 'created_at', 'version', DELETING, WRITES]);

/**
 * The `$set` of a patch: its defined values (a key whose value is `undefined`
 * leaves the field unchanged), copied so that changing the patch afterwards
 * changes nothing stored.
 */
export const setOf = (patch: object): Document => {
  const set: Document = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined && !FROZEN.has(key)) set[key] = structuredClone(value);
  }
  return set;
};

/** What a stored user document says of its sandbox clock (docs/sandbox-over-time.md); a user stored before the field has none. */
export const ownerFactsOfDocument = (user: Document): OwnerFacts => {
  const date: unknown = user['sandbox_date'];
  return { sandboxDate: IsoDate.is(date) ? date : null };
};

/** The kind of id a record `A` has (`AccountRecord` → `AccountId`); `Id` for a record without an id of a kind. */
export type RecordId<A> = A extends { readonly id: infer I extends Id } ? I : Id;

export class MongoRecordCollection<A> {
  private readonly collection: Collection<StoredDocument>;

  private readonly codec: Pick<DocumentCodec<A>, 'encode' | 'decode'>;

  constructor(
    private readonly ctx: MongoContext,
    readonly name: CollectionName,
    codec: DocumentCodec<A>,
  ) {
    this.collection = ctx.db.collection(name);
    this.codec = {
      encode: codec.encode,
      decode: (document) => {
        const { [WRITES]: _writes, ...rest } = document;
        return codec.decode(rest);
      },
    };
  }

  /** Run `run` as a TaskEither under the adapter's error rule (mongo-errors.ts), after the index gate. */
  task<B>(run: () => Promise<B>, onDuplicateKey = `A ${this.name} record with the same key already exists`): TE.TaskEither<StoreError, B> {
    return mongoTask(this.ctx.ready, run, onDuplicateKey);
  }

  /**
   * Every command's options: the time limit, and the session while in a
   * transaction (so the command is part of it).
   */
  options(): { maxTimeMS: number; session?: ClientSession } {
    return commandOptions(this.ctx);
  }

  /** A new id for a record of this collection, of the record's kind (`RecordId<A>`, minted by `mintedId`). */
  nextId(): Promise<RecordId<A>> {
    return this.ctx.ids.next<RecordId<A>>(this.name);
  }

  /**
   * Store a copy of `record`; the copy is returned, so the caller's input stays its own.
   * `beside` is stored in the document next to the record's fields (fields the record does not answer, e.g. an owner kept for a filter).
   */
  async insert(record: A, beside: Document = {}): Promise<A> {
    const stored = structuredClone(record);
    await this.collection.insertOne({ ...beside, ...this.codec.encode(stored) }, this.options());
    return stored;
  }

  async findOne(filter: Filter<StoredDocument>, sort?: Sort): Promise<O.Option<A>> {
    const options = sort === undefined ? this.options() : { ...this.options(), sort };
    const document = await this.collection.findOne(filter, options);
    return document === null ? O.none : O.some(this.codec.decode(document));
  }

  /** Every match in `sort` order. */
  async findAll(filter: Filter<StoredDocument>, sort: Sort): Promise<A[]> {
    const documents = await this.collection.find(filter, { ...this.options(), sort }).toArray();
    return documents.map(this.codec.decode);
  }

  /**
   * One page ascending by id: `limit + 1` documents are read so that `hasMore`
   * is exact without a count.
   */
  async findPage(filter: Filter<StoredDocument>, page: PageRequest): Promise<Page<A>> {
    const scoped = page.startingAfter === undefined ? filter : { ...filter, _id: { $gt: page.startingAfter } };
    const documents = await this.collection.find(scoped, { ...this.options(), sort: { _id: 1 }, limit: page.limit + 1 }).toArray();
    return { items: documents.slice(0, page.limit).map(this.codec.decode), hasMore: documents.length > page.limit };
  }

  /** A record's id (the `_id` of its document). */
  idOf(record: A): number {
    return this.codec.encode(record)['_id'] as number;
  }

  /**
   * `findPage`, and which of `ids` have a document (whatever their other fields),
   * in ONE `aggregate` (a `$facet` per answer) so both answers come from one snapshot.
   */
  async findPageAndIds(
    filter: Filter<StoredDocument>,
    page: PageRequest,
    ids: ReadonlyArray<number>,
  ): Promise<{ page: Page<A>; stored: Set<number> }> {
    if (ids.length === 0) return { page: await this.findPage(filter, page), stored: new Set() };
    const scoped = page.startingAfter === undefined ? filter : { ...filter, _id: { $gt: page.startingAfter } };
    const listed = { _id: { $in: [...ids] } };
    const [result] = await this.collection
      .aggregate<{ page: StoredDocument[]; stored: Array<{ _id: number }> }>(
        [
          { $match: { $or: [scoped, listed] } },
          {
            $facet: {
              page: [{ $match: scoped }, { $sort: { _id: 1 } }, { $limit: page.limit + 1 }],
              stored: [{ $match: listed }, { $project: { _id: 1 } }],
            },
          },
        ],
        this.options(),
      )
      .toArray();
    const documents = result?.page ?? [];
    return {
      page: { items: documents.slice(0, page.limit).map(this.codec.decode), hasMore: documents.length > page.limit },
      stored: new Set((result?.stored ?? []).map((d) => d._id)),
    };
  }

  /**
   * An owned read (core's shared/owned-read.ts) in one round trip: one
   * `aggregate` on `users` that matches the user with `owner` (the filter
   * `UserRepository.get` uses, deleting marker included), then `$lookup`s this
   * collection's documents of that user that match `match`, in the order and
   * number `stages` say. `none` when no user matched, else the records.
   *
   * The sub-pipeline joins with `let` + `$expr: {$eq}` (MongoDB 3.6+; an
   * equality in `$expr` is served from the `(user_id, _id)` index), not the
   * `localField` + `pipeline` form, which needs MongoDB 5.0 (docs/operations.md promises
   * 4.4+); `match` holds only constants, so it is an ordinary filter. `$unwind`
   * right after the `$lookup` (which the server folds into it) hands out one
   * result per document, so no result
   * nears the 16 MiB document limit however many the user has; a user with none
   * still gives one result (`preserveNullAndEmptyArrays`), which tells "no user"
   * from "nothing owned". `batchSize` lets a caller that knows the most it can
   * get (a page) have all of it in the first reply, with no `getMore`. The
   * user's sandbox clock (docs/sandbox-over-time.md) comes along in the same projection.
   */
  async findOwned(
    owner: Filter<StoredDocument>,
    match: Filter<StoredDocument>,
    stages: ReadonlyArray<Document>,
    batchSize?: number,
  ): Promise<OwnedRead<A[]>> {
    return this.ownedDocuments(owner, match, stages, (document) => this.codec.decode(document), batchSize);
  }

  /** `findOwned`'s aggregate, each document found decoded with `decode` (the record codec, or a projection's). */
  private async ownedDocuments<B>(
    owner: Filter<StoredDocument>,
    match: Filter<StoredDocument>,
    stages: ReadonlyArray<Document>,
    decode: (document: Document) => B,
    batchSize?: number,
  ): Promise<OwnedRead<B[]>> {
    const pipeline: Document[] = [
      { $match: owner },
      { $project: { _id: 1, sandbox_date: 1 } },
      {
        $lookup: {
          from: this.name,
          let: { owner: '$_id' },
          pipeline: [{ $match: { $expr: { $eq: ['$user_id', '$$owner'] }, ...match } }, ...stages],
          as: OWNED,
        },
      },
      { $unwind: { path: `$${OWNED}`, preserveNullAndEmptyArrays: true } },
    ];
    const options = batchSize === undefined ? this.options() : { ...this.options(), batchSize };
    const results = await this.ctx.db.collection(COLLECTION_NAMES.users).aggregate(pipeline, options).toArray();
    const first = results[0];
    if (first === undefined) return noOwner;
    const records: B[] = [];
    for (const result of results) {
      // A result's shape is unchecked, like any driver read; `decode` checks the document itself.
      const found: Document | undefined = result[OWNED];
      if (found !== undefined) records.push(decode(found));
    }
    return owned(records, ownerFactsOfDocument(first));
  }

  /**
   * An owned read of part of one document: the user, and `project` (the fields
   * of a `$project` stage) of its first document matching `match`, decoded
   * with `decode`; the rest of the document is not sent. `none` when no user matched.
   */
  async findOwnedProjection<B>(
    owner: Filter<StoredDocument>,
    match: Filter<StoredDocument>,
    project: Document,
    decode: (document: Document) => B,
  ): Promise<OwnedRead<O.Option<B>>> {
    const found = await this.ownedDocuments(owner, match, [{ $limit: 1 }, { $project: project }], decode);
    return O.isNone(found) ? found : owned(O.fromNullable(found.value[0]), found.owner);
  }

  /** `findOne` as an owned read: the user, and its first document in `sort` order that matches `match`. `none` when no user matched. */
  async findOwnedOne(owner: Filter<StoredDocument>, match: Filter<StoredDocument>, sort?: Sort): Promise<OwnedRead<O.Option<A>>> {
    const found = await this.findOwned(owner, match, sort === undefined ? [{ $limit: 1 }] : [{ $sort: sort }, { $limit: 1 }]);
    return O.isNone(found) ? found : owned(O.fromNullable(found.value[0]), found.owner);
  }

  /**
   * `findPage` as an owned read: the user, and one page of its documents that
   * match `match` (`limit + 1` read so that `hasMore` is exact, all in the
   * first reply). `none` when no user matched.
   */
  async findOwnedPage(owner: Filter<StoredDocument>, match: Filter<StoredDocument>, page: PageRequest): Promise<OwnedRead<Page<A>>> {
    const scoped = page.startingAfter === undefined ? match : { ...match, _id: { $gt: page.startingAfter } };
    const read = page.limit + 1;
    const found = await this.findOwned(owner, scoped, [{ $sort: { _id: 1 } }, { $limit: read }], read);
    return O.isNone(found)
      ? found
      : owned({ items: found.value.slice(0, page.limit), hasMore: found.value.length > page.limit }, found.owner);
  }

  /** `$set` the patch's defined fields on the one match; the record after the update, or none. */
  async update(filter: Filter<StoredDocument>, patch: object): Promise<O.Option<A>> {
    const set = setOf(patch);
    // MongoDB rejects an empty `$set`; an empty patch is a read.
    if (Object.keys(set).length === 0) return this.findOne(filter);
    return this.findOneAndUpdate(filter, { $set: set });
  }

  /** Apply `update` to the one match atomically; the record after the update, or none when nothing matched. */
  async findOneAndUpdate(filter: Filter<StoredDocument>, update: UpdateFilter<StoredDocument> | Document[]): Promise<O.Option<A>> {
    const document = await this.collection.findOneAndUpdate(filter, update, { ...this.options(), returnDocument: 'after' });
    return document === null ? O.none : O.some(this.codec.decode(document));
  }

  /** `touch` that answers the record it wrote (one `findOneAndUpdate`), or none when nothing matched. */
  async touchAndGet(filter: Filter<StoredDocument>): Promise<O.Option<A>> {
    return this.findOneAndUpdate(filter, { $inc: { [WRITES]: 1 } });
  }

  /** `touchAndGet` that also answers the stored document's field `beside` (a field kept beside the record, which it does not answer). */
  async touchAndGetBeside(
    filter: Filter<StoredDocument>,
    beside: string,
  ): Promise<O.Option<{ readonly record: A; readonly beside: unknown }>> {
    const document = await this.collection.findOneAndUpdate(
      filter,
      { $inc: { [WRITES]: 1 } },
      { ...this.options(), returnDocument: 'after' },
    );
    return document === null ? O.none : O.some({ record: this.codec.decode(document), beside: document[beside] });
  }

  /** `$set` `fields` on every match (one `updateMany`); how many matched. */
  async setMany(filter: Filter<StoredDocument>, fields: Document): Promise<number> {
    const result = await this.collection.updateMany(filter, { $set: fields }, this.options());
    return result.matchedCount;
  }

  async touch(filter: Filter<StoredDocument>): Promise<boolean> {
    const result = await this.collection.updateOne(filter, { $inc: { [WRITES]: 1 } }, this.options());
    return result.matchedCount === 1;
  }

  /** How many documents match (one `aggregate`, served by the owner's index). */
  async count(filter: Filter<StoredDocument>): Promise<number> {
    return this.collection.countDocuments(filter, this.options());
  }

  async deleteOne(filter: Filter<StoredDocument>): Promise<boolean> {
    const result = await this.collection.deleteOne(filter, this.options());
    return result.deletedCount === 1;
  }

  async deleteMany(filter: Filter<StoredDocument>): Promise<number> {
    const result = await this.collection.deleteMany(filter, this.options());
    return result.deletedCount;
  }
}
