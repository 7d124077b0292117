/**
 * `AuditLog` on MongoDB: collection `audit_events`, `_id` = the record's id.
 * Ids come from `MongoVisibleSequence`, so a reader paging with
 * `starting_after` never passes a record another process commits late. Kept a
 * year: the TTL index on `purge_at` (mongo-collections.ts) removes a record
 * once it has expired; reads also filter on `expires_at`, because the TTL
 * monitor only runs every 60 s.
 */
import { inject, injectable } from 'inversify';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuditFilter, AuditLog, AuditRecord, StoreError, NewAuditRecord, Page, PageRequest } from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MONGO_CONTEXT, type MongoContext } from './mongo-context.js';
import { MongoVisibleSequence } from './mongo-visible-sequence.js';
import { MongoRecordCollection } from './mongo-record-collection.js';
import { AuditDocument } from './mongo-webhook-documents.js';

@injectable()
export class MongoAuditLog implements AuditLog {
  private readonly records: MongoRecordCollection<AuditRecord>;
  private readonly sequence: MongoVisibleSequence;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.records = new MongoRecordCollection(ctx, COLLECTION_NAMES.auditEvents, AuditDocument);
    this.sequence = new MongoVisibleSequence(ctx, COLLECTION_NAMES.auditEvents);
  }

  append(record: NewAuditRecord): TE.TaskEither<StoreError, AuditRecord> {
    return this.records.task(() => this.sequence.append(record.at, (id) => this.records.insert({ ...record, id })));
  }

  list(page: PageRequest, filter: AuditFilter, now: Date): TE.TaskEither<StoreError, Page<AuditRecord>> {
    return this.records.task(() =>
      this.sequence.page(
        this.records,
        { expires_at: { $gt: now.toISOString() }, ...(filter.action === undefined ? {} : { action: filter.action }) },
        page,
        now,
      ),
    );
  }
}
