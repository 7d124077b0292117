/**
 * Contract of `CreditScoreRepository`: run against every store adapter.
 * "Latest" and "newest first" go by id (allocation order), never by `date`.
 */
import { expect } from 'chai';
import { CreditScoreRecord } from './credit-score.js';
import {
  StoreContractOptions,
  StoreFactory,
  expectAscending,
  expectNone,
  expectRight,
  expectSome,
  idsOf,
  tryToChange,
  useFreshStore,
} from '../testing/contract-harness.js';
import { aCreditScore } from './record-mothers.js';
import { anId, isoDate } from '../testing/record-mothers.js';

const USER = anId('user', 1);
const OTHER_USER = anId('user', 2);

export function creditScoreRepositoryContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} CreditScoreRepository contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('add returns the score with a new id; latest reads back exactly what was stored', async () => {
      const input = aCreditScore(USER);
      const added = await expectRight(store().creditScores.add(input));
      expect(CreditScoreRecord.is(added)).to.equal(true);
      expect(added).to.deep.equal({ ...input, id: added.id });
      const latest = await expectSome(store().creditScores.latest(USER));
      expect(CreditScoreRecord.is(latest)).to.equal(true);
      expect(latest).to.deep.equal(added);
    });

    it('round-trips a score whose optional fields are null', async () => {
      const input = aCreditScore(USER, {
        last_name: null,
        score: null,
        increase: null,
        payment_history: null,
        credit_utilization: null,
        derogatory_marks: null,
        credit_age: null,
      });
      const added = await expectRight(store().creditScores.add(input));
      expect(await expectSome(store().creditScores.latest(USER))).to.deep.equal({ ...input, id: added.id });
    });

    it('a user without scores: latest → none, history → []', async () => {
      await expectNone(store().creditScores.latest(USER));
      expect(await expectRight(store().creditScores.history(USER))).to.deep.equal([]);
    });

    it('allocates ascending ids across users: each new id is greater than every earlier one', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await expectRight(store().creditScores.add(aCreditScore(i % 2 === 0 ? USER : OTHER_USER)))).id);
      expectAscending(ids);
    });

    it('latest is the score added last (highest id), even when an earlier one has a later date', async () => {
      await expectRight(store().creditScores.add(aCreditScore(USER, { date: isoDate('2024-05-01'), score: 700 })));
      const last = await expectRight(
        store().creditScores.add(aCreditScore(USER, { date: isoDate('2024-01-01'), score: 650, increase: -50 })),
      );
      expect(await expectSome(store().creditScores.latest(USER))).to.deep.equal(last);
    });

    it('history lists every score of the user, newest (highest id) first', async () => {
      const first = await expectRight(store().creditScores.add(aCreditScore(USER, { score: 600 })));
      const second = await expectRight(store().creditScores.add(aCreditScore(USER, { score: 650, increase: 50 })));
      const third = await expectRight(store().creditScores.add(aCreditScore(USER, { score: 640, increase: -10 })));
      const history = await expectRight(store().creditScores.history(USER));
      expect(history).to.deep.equal([third, second, first]);
      for (const s of history) expect(CreditScoreRecord.is(s)).to.equal(true);
    });

    it("ownership: another user's scores are not the latest, not in the history, not deleted", async () => {
      const mine = await expectRight(store().creditScores.add(aCreditScore(USER, { score: 610 })));
      const theirs = await expectRight(store().creditScores.add(aCreditScore(OTHER_USER, { score: 820 })));
      expect(await expectSome(store().creditScores.latest(USER))).to.deep.equal(mine);
      expect(idsOf(await expectRight(store().creditScores.history(USER)))).to.deep.equal([mine.id]);
      expect(await expectRight(store().creditScores.deleteAllForUser(USER))).to.equal(1);
      expect(await expectSome(store().creditScores.latest(OTHER_USER))).to.deep.equal(theirs);
      await expectNone(store().creditScores.latest(anId('user', 3)));
    });

    it("deleteAllForUser removes only that user's scores and counts them", async () => {
      await expectRight(store().creditScores.add(aCreditScore(USER)));
      const theirs = await expectRight(store().creditScores.add(aCreditScore(OTHER_USER)));
      await expectRight(store().creditScores.add(aCreditScore(USER)));
      expect(await expectRight(store().creditScores.deleteAllForUser(USER))).to.equal(2);
      await expectNone(store().creditScores.latest(USER));
      expect(await expectRight(store().creditScores.history(USER))).to.deep.equal([]);
      expect(await expectRight(store().creditScores.history(OTHER_USER))).to.deep.equal([theirs]);
      expect(await expectRight(store().creditScores.deleteAllForUser(USER))).to.equal(0);
    });

    it('after deleteAllForUser, a new score is the latest and its id is greater than every earlier one', async () => {
      const old = await expectRight(store().creditScores.add(aCreditScore(USER)));
      await expectRight(store().creditScores.deleteAllForUser(USER));
      const fresh = await expectRight(store().creditScores.add(aCreditScore(USER, { score: 300 })));
      expectAscending([old.id, fresh.id]);
      expect(await expectSome(store().creditScores.latest(USER))).to.deep.equal(fresh);
      expect(await expectRight(store().creditScores.history(USER))).to.deep.equal([fresh]);
    });

    it('a returned score is a copy or frozen: changing it (or its factor objects) does not change the store', async () => {
      const added = await expectRight(store().creditScores.add(aCreditScore(USER)));
      tryToChange(() => (added.score = 1));
      tryToChange(() => (added.credit_mix.amount = 6));
      const latest = await expectSome(store().creditScores.latest(USER));
      tryToChange(() => (latest.new_credit.factor = 'Poor'));
      tryToChange(() => {
        if (latest.payment_history !== null) latest.payment_history.amount = 0;
      });
      const history = await expectRight(store().creditScores.history(USER));
      const first = history[0];
      tryToChange(() => {
        if (first !== undefined) first.last_name = 'changed';
      });
      expect(await expectSome(store().creditScores.latest(USER))).to.deep.equal({ ...aCreditScore(USER), id: added.id });
    });
  });
}
