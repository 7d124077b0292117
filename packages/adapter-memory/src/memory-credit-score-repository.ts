/**
 * `CreditScoreRepository` in memory. The latest score is read on every credit
 * score request: scores are kept per user in ascending id order, so the latest
 * is the last element.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type {
  ClientId,
  Id,
  CreditScoreRecord,
  CreditScoreRepository,
  StoreError,
  FactorObject,
  NewCreditScore,
  OwnedRead,
  UserId,
  UserRepository,
} from '@debtkit/core';
import { MEMORY_SESSION, lazyEither, lazyRight, readOwned } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';
import { MemoryUserRepository } from './memory-user-repository.js';

const copyFactor = (f: FactorObject): FactorObject => Object.freeze({ amount: f.amount, factor: f.factor });
const copyNullableFactor = (f: FactorObject | null): FactorObject | null => (f === null ? null : copyFactor(f));

/**
 * A stored score: copied once from what the caller handed in, and frozen with
 * its factors. Scores never change, so reads hand the stored one out as it is,
 * without a copy per read (docs/performance.md).
 */
const storedScore = (s: CreditScoreRecord): CreditScoreRecord =>
  Object.freeze({
    ...s,
    payment_history: copyNullableFactor(s.payment_history),
    credit_utilization: copyNullableFactor(s.credit_utilization),
    derogatory_marks: copyNullableFactor(s.derogatory_marks),
    credit_age: copyNullableFactor(s.credit_age),
    credit_mix: copyFactor(s.credit_mix),
    new_credit: copyFactor(s.new_credit),
  });

@injectable()
export class MemoryCreditScoreRepository implements CreditScoreRepository {
  /** user → score id → score (ascending, so the latest is the last). */
  private readonly scores;
  private readonly ids;
  /** Whose owner check the owned reads apply: the users of the same session. */
  private readonly users: UserRepository;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.scores = s.db.table<UserId, Id, CreditScoreRecord>('creditScores');
    this.ids = s.db.ids('creditScores');
    this.users = new MemoryUserRepository(s);
  }

  add(score: NewCreditScore): TE.TaskEither<StoreError, CreditScoreRecord> {
    return lazyEither(() => {
      const record = storedScore({ ...score, id: this.ids.next() });
      const done = this.scores.set(this.s, record.user_id, record.id, record);
      return E.isLeft(done) ? done : E.right(record);
    });
  }

  latest(userId: UserId): TE.TaskEither<StoreError, O.Option<CreditScoreRecord>> {
    return lazyRight(() => {
      let last: CreditScoreRecord | undefined;
      for (const s of this.scores.values(this.s, userId)) last = s;
      return O.fromNullable(last);
    });
  }

  history(userId: UserId): TE.TaskEither<StoreError, ReadonlyArray<CreditScoreRecord>> {
    return lazyRight(() => [...this.scores.values(this.s, userId)].reverse());
  }

  latestOwned(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, OwnedRead<O.Option<CreditScoreRecord>>> {
    return readOwned(this.users, clientId, userId, () => this.latest(userId));
  }

  historyOwned(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, OwnedRead<ReadonlyArray<CreditScoreRecord>>> {
    return readOwned(this.users, clientId, userId, () => this.history(userId));
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<StoreError, number> {
    return lazyEither(() => this.scores.deleteAll(this.s, userId));
  }
}
