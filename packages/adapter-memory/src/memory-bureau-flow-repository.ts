/**
 * `BureauFlowRepository` in memory. `save` reads the stored version and writes
 * the new record in one synchronous step: no other task can run in between, so
 * the compare-and-set is atomic.
 */
import { injectable } from 'inversify';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { conflict } from '@debtkit/core';
import type { BureauFlowRecord, BureauFlowRepository, BureauFlowState, DomainError, Timestamp, UserId } from '@debtkit/core';
import { lazyEither, lazyRight } from './memory-collection.js';

/** States are flat tagged objects. */
const copyFlow = (f: BureauFlowRecord): BureauFlowRecord => ({
  user_id: f.user_id,
  version: f.version,
  state: { ...f.state },
  updated_at: f.updated_at,
});

@injectable()
export class MemoryBureauFlowRepository implements BureauFlowRepository {
  private readonly byUser = new Map<UserId, BureauFlowRecord>();

  get(userId: UserId): TE.TaskEither<DomainError, O.Option<BureauFlowRecord>> {
    return lazyRight(() => {
      const found = this.byUser.get(userId);
      return found === undefined ? O.none : O.some(copyFlow(found));
    });
  }

  save(userId: UserId, expectedVersion: number, state: BureauFlowState, updatedAt: Timestamp): TE.TaskEither<DomainError, BureauFlowRecord> {
    return lazyEither(() => {
      const storedVersion = this.byUser.get(userId)?.version ?? 0;
      if (storedVersion !== expectedVersion) {
        return E.left(conflict('The bureau authentication changed concurrently; retry from its current state'));
      }
      const record = copyFlow({ user_id: userId, version: expectedVersion + 1, state, updated_at: updatedAt });
      this.byUser.set(userId, record);
      return E.right(copyFlow(record));
    });
  }

  deleteForUser(userId: UserId): TE.TaskEither<DomainError, boolean> {
    return lazyRight(() => this.byUser.delete(userId));
  }
}
