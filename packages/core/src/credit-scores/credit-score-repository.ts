import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { StoreError } from '../shared/errors.js';
import type { CreditScoreRecord } from './credit-score.js';
import type { ClientId, UserId } from '../shared/primitives.js';
import type { OwnedRead } from '../shared/owned-read.js';

export type NewCreditScore = Omit<CreditScoreRecord, 'id'>;

export interface CreditScoreRepository {
  add(score: NewCreditScore): TE.TaskEither<StoreError, CreditScoreRecord>;
  /** The score with the highest id. */
  latest(userId: UserId): TE.TaskEither<StoreError, O.Option<CreditScoreRecord>>;
  /** Every score of the user, newest (highest id) first. */
  history(userId: UserId): TE.TaskEither<StoreError, ReadonlyArray<CreditScoreRecord>>;
  /** `latest` through the owning user, checked in the same read (owned-read.ts): `none` when the client has no such user. */
  latestOwned(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, OwnedRead<O.Option<CreditScoreRecord>>>;
  /** `history` through the owning user, checked in the same read (owned-read.ts): `none` when the client has no such user. */
  historyOwned(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, OwnedRead<ReadonlyArray<CreditScoreRecord>>>;
  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number>;
}
