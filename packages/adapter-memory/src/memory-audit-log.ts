/**
 * `AuditLog` in memory: records in ascending id order; expired ones are
 * invisible to reads and dropped as new ones arrive (what MongoDB's TTL index
 * does for the mongo store), by the time the records carry, i.e. the injected clock.
 * Ids are taken outside the transaction, so records can commit out of id
 * order: `list` stops before the first one not committed yet.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { AuditFilter, AuditLog, AuditRecord, StoreError, Id, NewAuditRecord, Page, PageRequest } from '@debtkit/core';
import { MEMORY_SESSION, lazyEither, lazyRight, pageOf } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

const copyRecord = (r: AuditRecord): AuditRecord => ({ ...r, target: { ...r.target } });
const live = (r: AuditRecord, now: Date): boolean => Date.parse(r.expires_at) > now.getTime();

/** One partition: the log is read across clients, in id order. */
const ALL = 0;

@injectable()
export class MemoryAuditLog implements AuditLog {
  private readonly records;
  private readonly ids;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.records = s.db.table<number, Id, AuditRecord>('audit_events');
    this.ids = s.db.ids('audit_events');
  }

  append(record: NewAuditRecord): TE.TaskEither<StoreError, AuditRecord> {
    return lazyEither(() => {
      this.purgeExpired(new Date(record.at));
      const stored = copyRecord({ ...record, id: this.ids.next() });
      const done = this.records.set(this.s, ALL, stored.id, stored);
      return E.isLeft(done) ? done : E.right(copyRecord(stored));
    });
  }

  list(page: PageRequest, filter: AuditFilter, now: Date): TE.TaskEither<StoreError, Page<AuditRecord>> {
    return lazyRight(() =>
      pageOf(
        this.records.committedPrefix(this.s, ALL),
        page,
        copyRecord,
        (r) => live(r, now) && (filter.action === undefined || r.action === filter.action),
      ),
    );
  }

  /** Retention: records expire in their id order (MemoryTable.dropExpiredFront). */
  private purgeExpired(now: Date): void {
    this.records.dropExpiredFront(ALL, (r) => !live(r, now));
  }
}
