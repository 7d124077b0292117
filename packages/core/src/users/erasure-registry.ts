/**
 * Erasure markers (docs/decisions/tenancy.md): the delete of a user stores one in its own
 * transaction, and every read, replay and delivery that could show something
 * personal of a user asks here first.
 */
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { StoreError } from '../shared/errors.js';
import type { ErasureMarker } from './erasure.js';
import type { ClientId, UserId } from '../shared/primitives.js';

export interface ErasureRegistry {
  /** Store the marker (a second one for the same user changes nothing). */
  record(marker: ErasureMarker): TE.TaskEither<StoreError, void>;
  /**
   * Which of `userIds` are erased users of `clientId` (a marker of another
   * client's user is not this client's). One store read however many ids.
   */
  erasedAmong(clientId: ClientId, userIds: ReadonlyArray<UserId>): TE.TaskEither<StoreError, ReadonlySet<UserId>>;
}
