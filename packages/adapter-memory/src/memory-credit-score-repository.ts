/**
 * `CreditScoreRepository` in memory. The latest score is read on every credit
 * score request: scores are kept per user in ascending id order, so the latest
 * is the last element.
 */
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { STORE_PORTS } from '@debtkit/core';
import type {
  ClientId,
  CreditScoreRecord,
  CreditScoreRepository,
  DomainError,
  FactorObject,
  NewCreditScore,
  OwnedRead,
  UserId,
  UserRepository,
} from '@debtkit/core';
import { IdSequence, lazyRight, readOwned } from './memory-collection.js';

const copyFactor = (f: FactorObject): FactorObject => Object.freeze({ amount: f.amount, factor: f.factor });
const copyNullableFactor = (f: FactorObject | null): FactorObject | null => (f === null ? null : copyFactor(f));

/**
 * A stored score: copied once from what the caller handed in, and frozen with
 * its factors. Scores never change, so reads hand the stored one out as it is,
 * without a copy per read (DESIGN 9).
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
  /** user → scores in ascending id order (ids come from one ascending sequence). */
  private readonly byUser = new Map<UserId, CreditScoreRecord[]>();
  private readonly ids = new IdSequence();

  /** `users`: whose owner check the owned reads apply (the store's own user repository). */
  constructor(@inject(STORE_PORTS.users) private readonly users: UserRepository) {}

  add(score: NewCreditScore): TE.TaskEither<DomainError, CreditScoreRecord> {
    return lazyRight(() => {
      const record = storedScore({ ...score, id: this.ids.next() });
      const scores = this.byUser.get(record.user_id);
      if (scores === undefined) this.byUser.set(record.user_id, [record]);
      else scores.push(record);
      return record;
    });
  }

  latest(userId: UserId): TE.TaskEither<DomainError, O.Option<CreditScoreRecord>> {
    return lazyRight(() => {
      const scores = this.byUser.get(userId);
      const last = scores?.[scores.length - 1];
      return last === undefined ? O.none : O.some(last);
    });
  }

  history(userId: UserId): TE.TaskEither<DomainError, ReadonlyArray<CreditScoreRecord>> {
    return lazyRight(() => {
      const scores = this.byUser.get(userId) ?? [];
      const newestFirst: CreditScoreRecord[] = [];
      for (let i = scores.length - 1; i >= 0; i--) {
        const s = scores[i];
        if (s !== undefined) newestFirst.push(s);
      }
      return newestFirst;
    });
  }

  latestOwned(clientId: ClientId, userId: UserId): TE.TaskEither<DomainError, OwnedRead<O.Option<CreditScoreRecord>>> {
    return readOwned(this.users, clientId, userId, () => this.latest(userId));
  }

  historyOwned(clientId: ClientId, userId: UserId): TE.TaskEither<DomainError, OwnedRead<ReadonlyArray<CreditScoreRecord>>> {
    return readOwned(this.users, clientId, userId, () => this.history(userId));
  }

  deleteAllForUser(userId: UserId): TE.TaskEither<DomainError, number> {
    return lazyRight(() => {
      const count = this.byUser.get(userId)?.length ?? 0;
      this.byUser.delete(userId);
      return count;
    });
  }
}
