import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { StoreError } from '../shared/errors.js';
import type { BureauFlowRecord, BureauFlowState } from './bureau-flow.machine.js';
import type { Timestamp, UserId } from '../shared/primitives.js';

export interface BureauFlowRepository {
  get(userId: UserId): TE.TaskEither<StoreError, O.Option<BureauFlowRecord>>;
  /**
   * Compare-and-set: store `state` with version `expectedVersion + 1` only if the
   * stored version is `expectedVersion` (0 = no flow stored yet). Otherwise `conflict`.
   */
  save(userId: UserId, expectedVersion: number, state: BureauFlowState, updatedAt: Timestamp): TE.TaskEither<StoreError, BureauFlowRecord>;
  deleteForUser(userId: UserId): TE.TaskEither<StoreError, boolean>;
}
