/**
 * `CreditScoreRepository` on MongoDB: collection `credit_scores`, `_id` = the
 * score id. "Latest" and "newest first" are by id, which grows with every add.
 */
import { inject, injectable } from 'inversify';
import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  CreditScoreRecord,
  type ClientId,
  type CreditScoreRepository,
  type StoreError,
  type NewCreditScore,
  type OwnedRead,
  type UserId,
} from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec } from './mongo-document-codec.js';
import { MongoRecordCollection } from './mongo-record-collection.js';
import { visibleUser } from './mongo-visible-user.js';

export const CreditScoreDocument = documentCodec(COLLECTION_NAMES.creditScores, CreditScoreRecord, 'id');

@injectable()
export class MongoCreditScoreRepository implements CreditScoreRepository {
  private readonly scores: MongoRecordCollection<CreditScoreRecord>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.scores = new MongoRecordCollection(ctx, COLLECTION_NAMES.creditScores, CreditScoreDocument);
  }

  add(score: NewCreditScore): TE.TaskEither<StoreError, CreditScoreRecord> {
    return this.scores.task(async () => this.scores.insert({ ...score, id: await this.scores.nextId() }));
  }

  latest(userId: UserId): TE.TaskEither<StoreError, O.Option<CreditScoreRecord>> {
    return this.scores.task(() => this.scores.findOne({ user_id: userId }, { _id: -1 }));
  }

  history(userId: UserId): TE.TaskEither<StoreError, ReadonlyArray<CreditScoreRecord>> {
    return this.scores.task(() => this.scores.findAll({ user_id: userId }, { _id: -1 }));
  }

  /** One `aggregate` (mongo-record-collection.ts `findOwnedOne`): the user, and its score with the highest id. */
  latestOwned(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, OwnedRead<O.Option<CreditScoreRecord>>> {
    return this.scores.task(() => this.scores.findOwnedOne(visibleUser(clientId, userId), {}, { _id: -1 }));
  }

  historyOwned(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, OwnedRead<ReadonlyArray<CreditScoreRecord>>> {
    return this.scores.task(() => this.scores.findOwned(visibleUser(clientId, userId), {}, [{ $sort: { _id: -1 } }]));
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return this.scores.task(() => this.scores.deleteMany({ user_id: userId }));
  }
}
