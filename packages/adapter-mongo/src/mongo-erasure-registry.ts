/**
 * `ErasureRegistry` on MongoDB: collection `erasures`, `_id` = the erased
 * user's id (user ids are never reused), with the owning client beside it.
 * `record` is an upsert that only ever inserts, so a second marker for a user
 * changes nothing and raises no duplicate-key error (which would abort the
 * delete's transaction). MongoDB removes a marker once its `purge_at` (a BSON
 * date copy of `expires_at`) has passed (TTL index, mongo-collections.ts).
 */
import { inject, injectable } from 'inversify';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Collection } from 'mongodb';
import { ErasureMarker, type ClientId, type StoreError, type ErasureRegistry, type UserId } from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MONGO_CONTEXT, commandOptions, type MongoContext } from './mongo-context.js';
import { documentCodec, type StoredDocument } from './mongo-document-codec.js';
import { MongoRecordCollection } from './mongo-record-collection.js';
import { withPurgeDate } from './mongo-webhook-documents.js';

export const ErasureMarkerDocument = withPurgeDate(documentCodec(COLLECTION_NAMES.erasures, ErasureMarker, 'user_id'));

@injectable()
export class MongoErasureRegistry implements ErasureRegistry {
  private readonly markers: MongoRecordCollection<ErasureMarker>;
  private readonly raw: Collection<StoredDocument>;

  constructor(@inject(MONGO_CONTEXT) private readonly ctx: MongoContext) {
    this.markers = new MongoRecordCollection(ctx, COLLECTION_NAMES.erasures, ErasureMarkerDocument);
    this.raw = ctx.db.collection(COLLECTION_NAMES.erasures);
  }

  record(marker: ErasureMarker): TE.TaskEither<StoreError, void> {
    return this.markers.task(async () => {
      const { _id, ...fields } = ErasureMarkerDocument.encode(marker);
      await this.raw.updateOne({ _id }, { $setOnInsert: fields }, { ...commandOptions(this.ctx), upsert: true });
    });
  }

  erasedAmong(clientId: ClientId, userIds: ReadonlyArray<UserId>): TE.TaskEither<StoreError, ReadonlySet<UserId>> {
    return this.markers.task(async () => {
      if (userIds.length === 0) return new Set<UserId>();
      const found = await this.markers.findAll({ _id: { $in: [...userIds] }, client_id: clientId }, { _id: 1 });
      return new Set(found.map((m) => m.user_id));
    });
  }
}
