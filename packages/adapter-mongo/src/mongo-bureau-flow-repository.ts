/**
 * `BureauFlowRepository` on MongoDB: collection `bureau_flows`, one document per
 * user with `_id` = the user id.
 *
 * `save` is a compare-and-set that holds across processes sharing the database
 * (docs/api/reference.md): a first save inserts version 1, and the `_id` index lets only
 * one of two concurrent inserts through; a later save is one
 * `findOneAndUpdate` whose filter names the expected version, so of two saves
 * from the same version the server applies exactly one.
 */
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  BureauFlowRecord,
  conflict,
  initialFlowRecordVersion,
  type BureauFlowRepository,
  type BureauFlowState,
  type StoreError,
  type Timestamp,
  type UserId,
} from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec } from './mongo-document-codec.js';
import { MongoRecordCollection } from './mongo-record-collection.js';

export const BureauFlowDocument = documentCodec(COLLECTION_NAMES.bureauFlows, BureauFlowRecord, 'user_id');

const CHANGED = 'The bureau flow changed concurrently; read it again and retry';

@injectable()
export class MongoBureauFlowRepository implements BureauFlowRepository {
  private readonly flows: MongoRecordCollection<BureauFlowRecord>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.flows = new MongoRecordCollection(ctx, COLLECTION_NAMES.bureauFlows, BureauFlowDocument);
  }

  get(userId: UserId): TE.TaskEither<StoreError, O.Option<BureauFlowRecord>> {
    return this.flows.task(() => this.flows.findOne({ _id: userId }));
  }

  save(userId: UserId, expectedVersion: number, state: BureauFlowState, updatedAt: Timestamp): TE.TaskEither<StoreError, BureauFlowRecord> {
    if (expectedVersion === initialFlowRecordVersion) {
      // A flow already stored (by anyone) makes this a duplicate `_id`: the conflict.
      return this.flows.task(
        () => this.flows.insert({ user_id: userId, version: initialFlowRecordVersion + 1, state, updated_at: updatedAt }),
        CHANGED,
      );
    }
    return pipe(
      this.flows.task(() =>
        this.flows.findOneAndUpdate(
          { _id: userId, version: expectedVersion },
          { $set: { state: structuredClone(state), updated_at: updatedAt }, $inc: { version: 1 } },
        ),
      ),
      // No match: the flow is missing or at another version.
      TE.flatMap(
        O.match(
          () => TE.left(conflict(CHANGED)),
          (saved) => TE.right(saved),
        ),
      ),
    );
  }

  deleteForUser(userId: UserId): TE.TaskEither<StoreError, boolean> {
    return this.flows.task(() => this.flows.deleteOne({ _id: userId }));
  }
}
