/**
 * Contract of `PaymentPlanRepository`: run against every store adapter. A plan
 * is only ever reachable through the user that owns it.
 */
import { expect } from 'chai';
import { PaymentPlanRecord } from './payment-plan.js';
import {
  StoreContractOptions,
  StoreFactory,
  expectAscending,
  expectNone,
  expectRight,
  expectSome,
  tryToChange,
  useFreshStore,
} from '../testing/contract-harness.js';
import { itPagesAscendingById } from '../testing/paging.contract.js';
import { aPaymentPlan } from './record-mothers.js';
import { anId, cents, isoDate } from '../testing/record-mothers.js';

const USER = anId('user', 1);
const OTHER_USER = anId('user', 2);

export function paymentPlanRepositoryContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} PaymentPlanRepository contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('create returns the plan with a new id; get reads back exactly what was stored (schedule included)', async () => {
      const input = aPaymentPlan(USER);
      const created = await expectRight(store().paymentPlans.create(input));
      expect(PaymentPlanRecord.is(created)).to.equal(true);
      expect(created).to.deep.equal({ ...input, id: created.id });
      const found = await expectSome(store().paymentPlans.get(USER, created.id));
      expect(PaymentPlanRecord.is(found)).to.equal(true);
      expect(found).to.deep.equal(created);
    });

    it('round-trips a snowball plan with one account and a one-month schedule', async () => {
      const input = aPaymentPlan(USER, {
        strategy: 'snowball',
        monthly_payment: cents(5_000),
        account_ids: [anId('account', 9)],
        order: [anId('account', 9)],
        months: 1,
        payoff_date: isoDate('2024-08-01'),
        total_interest: cents(0),
        total_paid: cents(5_000),
        schedule: [
          {
            month: 1,
            date: isoDate('2024-08-01'),
            payments: [
              { account_id: anId('account', 9), payment: cents(5_000), interest: cents(0), principal: cents(5_000), balance: cents(0) },
            ],
          },
        ],
      });
      const created = await expectRight(store().paymentPlans.create(input));
      expect(await expectSome(store().paymentPlans.get(USER, created.id))).to.deep.equal({ ...input, id: created.id });
    });

    it('round-trips the docs/decisions/payoff-and-outlook.md fields: a custom order, extra payments and a start date', async () => {
      const input = aPaymentPlan(USER, {
        strategy: 'custom',
        custom_order: [anId('account', 1), anId('account', 2)],
        extra_payments: [
          { month: 2, amount: cents(25_000) },
          { month: 1, amount: cents(1) },
        ],
        start_date: isoDate('2024-06-30'),
      });
      const created = await expectRight(store().paymentPlans.create(input));
      expect(await expectSome(store().paymentPlans.get(USER, created.id))).to.deep.equal({ ...input, id: created.id });
      const minimumOnly = aPaymentPlan(USER, { strategy: 'minimum_only' });
      const second = await expectRight(store().paymentPlans.create(minimumOnly));
      expect((await expectRight(store().paymentPlans.list(USER, { limit: 10 }))).items).to.deep.equal([created, second]);
    });

    it('get of an unknown id → none', async () => {
      await expectNone(store().paymentPlans.get(USER, anId('payment_plan', 1)));
      const created = await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      await expectNone(store().paymentPlans.get(USER, anId('payment_plan', created.id + 1000)));
    });

    it('allocates ascending ids across users: each new id is greater than every earlier one', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++)
        ids.push((await expectRight(store().paymentPlans.create(aPaymentPlan(i % 2 === 0 ? USER : OTHER_USER)))).id);
      expectAscending(ids);
    });

    it("ownership: another user's plan is not found, not listed, not deleted", async () => {
      const theirs = await expectRight(store().paymentPlans.create(aPaymentPlan(OTHER_USER)));
      const mine = await expectRight(store().paymentPlans.create(aPaymentPlan(USER, { strategy: 'snowball' })));
      await expectNone(store().paymentPlans.get(USER, theirs.id));
      expect(await expectRight(store().paymentPlans.list(USER, { limit: 100 }))).to.deep.equal({ items: [mine], hasMore: false });
      expect(await expectRight(store().paymentPlans.delete(USER, theirs.id))).to.equal(false);
      expect(await expectRight(store().paymentPlans.deleteAllForUser(USER))).to.equal(1);
      expect(await expectSome(store().paymentPlans.get(OTHER_USER, theirs.id))).to.deep.equal(theirs);
    });

    it("list returns the user's plans exactly, each decoding as a PaymentPlanRecord", async () => {
      const a = await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      const b = await expectRight(store().paymentPlans.create(aPaymentPlan(USER, { strategy: 'snowball' })));
      const page = await expectRight(store().paymentPlans.list(USER, { limit: 20 }));
      expect(page).to.deep.equal({ items: [a, b], hasMore: false });
      for (const p of page.items) expect(PaymentPlanRecord.is(p)).to.equal(true);
    });

    itPagesAscendingById(store, {
      create: async (s) => (await expectRight(s.paymentPlans.create(aPaymentPlan(USER)))).id,
      createOther: async (s) => (await expectRight(s.paymentPlans.create(aPaymentPlan(OTHER_USER)))).id,
      list: (s, page) => expectRight(s.paymentPlans.list(USER, page)),
    });

    it('delete removes the plan: true, then none and false; the others stay', async () => {
      const a = await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      const b = await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      expect(await expectRight(store().paymentPlans.delete(USER, a.id))).to.equal(true);
      await expectNone(store().paymentPlans.get(USER, a.id));
      expect(await expectRight(store().paymentPlans.delete(USER, a.id))).to.equal(false);
      expect(await expectRight(store().paymentPlans.list(USER, { limit: 20 }))).to.deep.equal({ items: [b], hasMore: false });
    });

    it("paging after a deleted plan's id still continues after it", async () => {
      const a = await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      const b = await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      const c = await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      await expectRight(store().paymentPlans.delete(USER, b.id));
      const page = await expectRight(store().paymentPlans.list(USER, { limit: 1, startingAfter: b.id }));
      expect(page).to.deep.equal({ items: [c], hasMore: false });
      expect((await expectRight(store().paymentPlans.list(USER, { limit: 1 }))).items).to.deep.equal([a]);
    });

    it('ids are not reused after a delete', async () => {
      const a = await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      const b = await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      await expectRight(store().paymentPlans.delete(USER, b.id));
      const c = await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      expectAscending([a.id, b.id, c.id]);
    });

    it("deleteAllForUser removes only that user's plans and counts them", async () => {
      await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      const theirs = await expectRight(store().paymentPlans.create(aPaymentPlan(OTHER_USER)));
      await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      expect(await expectRight(store().paymentPlans.deleteAllForUser(USER))).to.equal(2);
      expect(await expectRight(store().paymentPlans.list(USER, { limit: 20 }))).to.deep.equal({ items: [], hasMore: false });
      expect(await expectRight(store().paymentPlans.list(OTHER_USER, { limit: 20 }))).to.deep.equal({ items: [theirs], hasMore: false });
      expect(await expectRight(store().paymentPlans.deleteAllForUser(USER))).to.equal(0);
    });

    it('a returned plan is a copy or frozen, schedule included: changing it (or the input) does not change the store', async () => {
      const input = aPaymentPlan(USER);
      const created = await expectRight(store().paymentPlans.create(input));
      input.account_ids.push(anId('account', 77));
      const firstInputMonth = input.schedule[0];
      if (firstInputMonth !== undefined) firstInputMonth.payments.length = 0;
      tryToChange(() => created.order.reverse());
      const found = await expectSome(store().paymentPlans.get(USER, created.id));
      const firstPayment = found.schedule[0]?.payments[0];
      if (firstPayment !== undefined) tryToChange(() => (firstPayment.balance = cents(1)));
      tryToChange(() => found.schedule.pop());
      const listed = await expectRight(store().paymentPlans.list(USER, { limit: 1 }));
      tryToChange(() => listed.items[0]?.account_ids.pop());
      expect(await expectSome(store().paymentPlans.get(USER, created.id))).to.deep.equal({ ...aPaymentPlan(USER), id: created.id });
    });

    it('touch writes the plan and changes nothing it answers; false for no such plan; delete removes it', async () => {
      const plan = await expectRight(store().paymentPlans.create(aPaymentPlan(USER)));
      expect(await expectRight(store().paymentPlans.touch(USER, plan.id))).to.equal(true);
      expect(await expectSome(store().paymentPlans.get(USER, plan.id))).to.deep.equal(plan);
      expect(await expectRight(store().paymentPlans.touch(anId('user', 999), plan.id))).to.equal(false);
      expect(await expectRight(store().paymentPlans.delete(USER, plan.id))).to.equal(true);
      expect(await expectRight(store().paymentPlans.touch(USER, plan.id))).to.equal(false);
      await expectNone(store().paymentPlans.get(USER, plan.id));
    });
  });
}
