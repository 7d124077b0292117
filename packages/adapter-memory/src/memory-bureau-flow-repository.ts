/**
 * `BureauFlowRepository` in memory. `save` reads the stored version and writes
 * the new record in one synchronous step: no other task can run in between, so
 * the compare-and-set is atomic.
 */
import { inject, injectable } from 'inversify';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { conflict } from '@debtkit/core';
import type { BureauFlowRecord, BureauFlowRepository, BureauFlowState, StoreError, Timestamp, UserId } from '@debtkit/core';
import { MEMORY_SESSION, lazyEither, lazyRight } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

/** States are flat tagged objects. */
const copyFlow = (f: BureauFlowRecord): BureauFlowRecord => ({
  user_id: f.user_id,
  version: f.version,
  state: { ...f.state },
  updated_at: f.updated_at,
});

@injectable()
export class MemoryBureauFlowRepository implements BureauFlowRepository {
  /** user → the user's flow (one per user: the key is the user too). */
  private readonly flows;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.flows = s.db.table<UserId, UserId, BureauFlowRecord>('bureauFlows');
  }

  get(userId: UserId): TE.TaskEither<StoreError, O.Option<BureauFlowRecord>> {
    return lazyRight(() => {
      const found = this.flows.get(this.s, userId, userId);
      return found === undefined ? O.none : O.some(copyFlow(found));
    });
  }

  save(userId: UserId, expectedVersion: number, state: BureauFlowState, updatedAt: Timestamp): TE.TaskEither<StoreError, BureauFlowRecord> {
    return lazyEither(() => {
      const storedVersion = this.flows.get(this.s, userId, userId)?.version ?? 0;
      if (storedVersion !== expectedVersion) {
        return E.left(conflict('The bureau authentication changed concurrently; retry from its current state'));
      }
      const record = copyFlow({ user_id: userId, version: expectedVersion + 1, state, updated_at: updatedAt });
      const done = this.flows.set(this.s, userId, userId, record);
      return E.isLeft(done) ? done : E.right(copyFlow(record));
    });
  }

  deleteForUser(userId: UserId): TE.TaskEither<StoreError, boolean> {
    return lazyEither(() => this.flows.delete(this.s, userId, userId));
  }
}
