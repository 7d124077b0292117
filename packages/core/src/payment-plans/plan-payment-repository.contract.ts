/**
 * Contract of `PlanPaymentRepository`: run against every store adapter. Payments
 * are listed per (user, plan); a payment of another user or another plan never
 * shows up.
 */
import { expect } from 'chai';
import { PlanPaymentRecord } from './payment-plan.js';
import { StoreContractOptions, StoreFactory, expectAscending, expectRight, idsOf, useFreshStore } from '../testing/contract-harness.js';
import { itPagesAscendingById } from '../testing/paging.contract.js';
import { aPlanPayment } from './record-mothers.js';
import { anId, cents, isoDate } from '../testing/record-mothers.js';

const USER = anId('user', 1);
const OTHER_USER = anId('user', 2);
const PLAN = anId('payment_plan', 10);
const OTHER_PLAN = anId('payment_plan', 11);
/** A plan of the other user. Real plan ids are unique across users; the repository must still filter by both. */
const THEIR_PLAN = anId('payment_plan', 12);

export function planPaymentRepositoryContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} PlanPaymentRepository contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('create returns the payment with a new id; list reads back exactly what was stored', async () => {
      const input = aPlanPayment(USER, PLAN, { account_id: anId('account', 3), amount: cents(7_777), date: isoDate('2024-07-31') });
      const created = await expectRight(store().planPayments.create(input));
      expect(PlanPaymentRecord.is(created)).to.equal(true);
      expect(created).to.deep.equal({ ...input, id: created.id });
      const page = await expectRight(store().planPayments.list(USER, PLAN, { limit: 20 }));
      expect(page).to.deep.equal({ items: [created], hasMore: false });
      for (const p of page.items) expect(PlanPaymentRecord.is(p)).to.equal(true);
    });

    it('a plan without payments lists nothing', async () => {
      expect(await expectRight(store().planPayments.list(USER, PLAN, { limit: 20 }))).to.deep.equal({ items: [], hasMore: false });
    });

    it('allocates ascending ids across users and plans: each new id is greater than every earlier one', async () => {
      const owners = [
        [USER, PLAN],
        [OTHER_USER, THEIR_PLAN],
        [USER, OTHER_PLAN],
        [USER, PLAN],
      ] as const;
      const ids: number[] = [];
      for (const [user, plan] of owners) ids.push((await expectRight(store().planPayments.create(aPlanPayment(user, plan)))).id);
      expectAscending(ids);
    });

    it('ownership: lists only the payments of that user and that plan', async () => {
      const mine = await expectRight(store().planPayments.create(aPlanPayment(USER, PLAN)));
      const otherPlan = await expectRight(store().planPayments.create(aPlanPayment(USER, OTHER_PLAN)));
      const theirs = await expectRight(store().planPayments.create(aPlanPayment(OTHER_USER, THEIR_PLAN)));
      expect(await expectRight(store().planPayments.list(USER, PLAN, { limit: 20 }))).to.deep.equal({ items: [mine], hasMore: false });
      expect(idsOf((await expectRight(store().planPayments.list(USER, OTHER_PLAN, { limit: 20 }))).items)).to.deep.equal([otherPlan.id]);
      // Another user's plan, named through this user: nothing.
      expect(await expectRight(store().planPayments.list(USER, THEIR_PLAN, { limit: 20 }))).to.deep.equal({ items: [], hasMore: false });
      expect(idsOf((await expectRight(store().planPayments.list(OTHER_USER, THEIR_PLAN, { limit: 20 }))).items)).to.deep.equal([theirs.id]);
    });

    it('ownership: the same plan id under another user is a different plan', async () => {
      const mine = await expectRight(store().planPayments.create(aPlanPayment(USER, PLAN)));
      const theirs = await expectRight(store().planPayments.create(aPlanPayment(OTHER_USER, PLAN)));
      expect(idsOf((await expectRight(store().planPayments.list(USER, PLAN, { limit: 20 }))).items)).to.deep.equal([mine.id]);
      expect(await expectRight(store().planPayments.deleteAllForPlan(USER, PLAN))).to.equal(1);
      expect(await expectRight(store().planPayments.list(OTHER_USER, PLAN, { limit: 20 }))).to.deep.equal({
        items: [theirs],
        hasMore: false,
      });
    });

    itPagesAscendingById(store, {
      create: async (s) => (await expectRight(s.planPayments.create(aPlanPayment(USER, PLAN)))).id,
      // Interleave both kinds of foreign payments: another plan of the user, and another user.
      createOther: async (s) => {
        await expectRight(s.planPayments.create(aPlanPayment(OTHER_USER, PLAN)));
        return (await expectRight(s.planPayments.create(aPlanPayment(USER, OTHER_PLAN)))).id;
      },
      list: (s, page) => expectRight(s.planPayments.list(USER, PLAN, page)),
    });

    it("deleteAllForPlan removes only that plan's payments of that user and counts them", async () => {
      await expectRight(store().planPayments.create(aPlanPayment(USER, PLAN)));
      await expectRight(store().planPayments.create(aPlanPayment(USER, PLAN)));
      const keep = await expectRight(store().planPayments.create(aPlanPayment(USER, OTHER_PLAN)));
      const theirs = await expectRight(store().planPayments.create(aPlanPayment(OTHER_USER, THEIR_PLAN)));
      expect(await expectRight(store().planPayments.deleteAllForPlan(OTHER_USER, PLAN))).to.equal(0);
      expect(await expectRight(store().planPayments.deleteAllForPlan(USER, THEIR_PLAN))).to.equal(0);
      expect(await expectRight(store().planPayments.deleteAllForPlan(USER, PLAN))).to.equal(2);
      expect(await expectRight(store().planPayments.list(USER, PLAN, { limit: 20 }))).to.deep.equal({ items: [], hasMore: false });
      expect(await expectRight(store().planPayments.list(USER, OTHER_PLAN, { limit: 20 }))).to.deep.equal({
        items: [keep],
        hasMore: false,
      });
      expect(await expectRight(store().planPayments.list(OTHER_USER, THEIR_PLAN, { limit: 20 }))).to.deep.equal({
        items: [theirs],
        hasMore: false,
      });
      expect(await expectRight(store().planPayments.deleteAllForPlan(USER, PLAN))).to.equal(0);
    });

    it("deleteAllForUser removes only that user's payments (all plans) and counts them", async () => {
      await expectRight(store().planPayments.create(aPlanPayment(USER, PLAN)));
      await expectRight(store().planPayments.create(aPlanPayment(USER, OTHER_PLAN)));
      const theirs = await expectRight(store().planPayments.create(aPlanPayment(OTHER_USER, THEIR_PLAN)));
      expect(await expectRight(store().planPayments.deleteAllForUser(USER))).to.equal(2);
      expect((await expectRight(store().planPayments.list(USER, PLAN, { limit: 20 }))).items).to.deep.equal([]);
      expect((await expectRight(store().planPayments.list(USER, OTHER_PLAN, { limit: 20 }))).items).to.deep.equal([]);
      expect((await expectRight(store().planPayments.list(OTHER_USER, THEIR_PLAN, { limit: 20 }))).items).to.deep.equal([theirs]);
      expect(await expectRight(store().planPayments.deleteAllForUser(USER))).to.equal(0);
    });

    it('ids are not reused after a delete', async () => {
      const a = await expectRight(store().planPayments.create(aPlanPayment(USER, PLAN)));
      await expectRight(store().planPayments.deleteAllForPlan(USER, PLAN));
      const b = await expectRight(store().planPayments.create(aPlanPayment(USER, PLAN)));
      expectAscending([a.id, b.id]);
    });

    it('a returned payment is a copy: changing it does not change the store', async () => {
      const created = await expectRight(store().planPayments.create(aPlanPayment(USER, PLAN)));
      created.amount = cents(1);
      const listed = await expectRight(store().planPayments.list(USER, PLAN, { limit: 20 }));
      const first = listed.items[0];
      if (first !== undefined) first.date = isoDate('1999-01-01');
      expect((await expectRight(store().planPayments.list(USER, PLAN, { limit: 20 }))).items).to.deep.equal([
        { ...aPlanPayment(USER, PLAN), id: created.id },
      ]);
    });
  });
}
