/**
 * The operators' audit log (docs/operations.md): a store port like the others, so an
 * admin change appends its record in the change's own transaction.
 */
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { StoreError } from '../shared/errors.js';
import type { AuditAction, AuditRecord } from './audit.js';
import type { Page, PageRequest } from '../shared/paging.js';

export type NewAuditRecord = Omit<AuditRecord, 'id'>;

export interface AuditFilter {
  readonly action?: AuditAction;
}

export interface AuditLog {
  /** Append a record with the next id (ids ascend; one taken by a transaction that aborts is skipped). */
  append(record: NewAuditRecord): TE.TaskEither<StoreError, AuditRecord>;
  /**
   * One page ascending by id, of the records not expired at `now` that match
   * `filter`. A record appended by a transaction that has not committed yet is
   * never paged past (the visible-sequence horizon, as for events).
   */
  list(page: PageRequest, filter: AuditFilter, now: Date): TE.TaskEither<StoreError, Page<AuditRecord>>;
}
