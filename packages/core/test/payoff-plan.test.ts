import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from '../src/shared/errors.js';
import type { ScheduleMonth } from '../src/payment-plans/payment-plan.js';
import {
  expectedPayoffDate,
  MINIMUM_ONLY_MEMO_SIZE,
  minimumOnlyMemo,
  monthlyInterest,
  planPayoff,
  projectSingleDebt,
  type PayoffPlanInput,
  type PayoffPlanResult,
} from '../src/payment-plans/payoff-plan.js';
import { cents, date, debt } from './payoff-builders.js';
import { addMonths } from '../src/shared/primitives.js';

const planInput = (overrides: Partial<PayoffPlanInput> = {}): PayoffPlanInput => ({
  strategy: 'avalanche',
  monthlyPayment: cents(50_000),
  debts: [debt(1, 1_000_000, 20, 25_000)],
  today: date('2024-01-15'),
  ...overrides,
});

const right = <A>(e: E.Either<DomainError, A>): A => {
  if (E.isLeft(e)) throw new Error(`expected Right, got ${JSON.stringify(e.left)}`);
  return e.right;
};

const left = <A>(e: E.Either<DomainError, A>): DomainError => {
  if (E.isRight(e)) throw new Error('expected Left, got Right');
  return e.left;
};

const detailsOf = (err: DomainError): ReadonlyArray<{ path: string; message: string }> =>
  err._tag === 'validation_error' ? (err.details ?? []) : [];

const rowsOf = (schedule: ReadonlyArray<ScheduleMonth>) => schedule.flatMap((m) => m.payments);
const sum = (xs: ReadonlyArray<number>): number => xs.reduce((a, b) => a + b, 0);

/** Every reconciliation docs/decisions/payoff-and-outlook.md promises, to the cent. */
const expectReconciles = (input: PayoffPlanInput, plan: PayoffPlanResult): void => {
  const rows = rowsOf(plan.schedule);
  const paid = sum(rows.map((r) => r.payment));
  const principal = sum(rows.map((r) => r.principal));
  const interest = sum(rows.map((r) => r.interest));
  expect(paid).to.equal(plan.total_paid);
  expect(principal + interest).to.equal(plan.total_paid);
  expect(interest).to.equal(plan.total_interest);
  expect(principal).to.equal(sum(input.debts.map((d) => d.balance)));
  for (const r of rows) {
    expect(r.payment).to.equal(r.principal + r.interest);
    expect(r.principal).to.be.at.least(0);
    expect(r.interest).to.be.at.least(0);
  }
  plan.schedule.forEach((m, k) => {
    expect(m.month).to.equal(k + 1);
    const monthPaid = sum(m.payments.map((r) => r.payment));
    // The whole budget is spent every month but the last.
    if (k < plan.schedule.length - 1) expect(monthPaid).to.equal(input.monthlyPayment);
    else expect(monthPaid).to.be.at.most(input.monthlyPayment);
  });
  expect(plan.months).to.equal(plan.schedule.length);
  expect(plan.payoff_date).to.equal(plan.schedule[plan.schedule.length - 1]?.date);
  for (const d of input.debts.filter((x) => x.balance > 0)) {
    const last = rows.filter((r) => r.account_id === d.id).at(-1);
    expect(last?.balance, `final balance of ${d.id}`).to.equal(0);
  }
};

const mixedDebts = [
  debt(1, 520_000, 22.99, 15_600),
  debt(2, 84_000, 15.5, 2_500),
  debt(3, 1_250_000, 6.75, 24_000),
  debt(4, 310_000, 19.99, 9_300),
  debt(5, 45_000, 0, 4_500),
];

describe('payoff-plan', () => {
  describe('monthlyInterest', () => {
    it('rounds half up: $10,000 at 20% is $166.67', () => {
      expect(monthlyInterest(cents(1_000_000), 20)).to.equal(16_667);
    });

    it('computes on the decimal APR, not its binary approximation (10000 × 1.14 / 1200 = 9.5 → 10)', () => {
      // Naive floating point gives 9.499999999999998 and rounds to 9.
      expect(monthlyInterest(cents(10_000), 1.14)).to.equal(10);
      expect(monthlyInterest(cents(20_000), 2.01)).to.equal(34);
    });

    it('is exact on balances whose product with the APR exceeds 2^53', () => {
      const balance = Number.MAX_SAFE_INTEGER - 1;
      const expected = (BigInt(balance) * 1999n + 60_000n) / 120_000n;
      expect(monthlyInterest(cents(balance), 19.99)).to.equal(Number(expected));
    });

    it('is 0 at 0% APR', () => {
      expect(monthlyInterest(cents(123_456), 0)).to.equal(0);
    });
  });

  describe('planPayoff', () => {
    it('meets the docs/decisions/payoff-and-outlook.md check: $10,000 at 20%, minimum $250, budget $500 → 25 months, $2,266.06 interest', () => {
      const plan = right(planPayoff(planInput()));
      expect(plan.months).to.equal(25);
      expect(plan.total_interest).to.equal(226_606);
      expect(plan.total_paid).to.equal(1_226_606);
      expect(plan.payoff_date).to.equal('2026-02-15');
      expect(plan.order).to.deep.equal([1]);
      expect(plan.schedule[0]).to.deep.equal({
        month: 1,
        date: '2024-02-15',
        payments: [{ account_id: 1, payment: 50_000, interest: 16_667, principal: 33_333, balance: 966_667 }],
      });
      expect(plan.schedule[24]?.payments).to.deep.equal([{ account_id: 1, payment: 26_606, interest: 436, principal: 26_170, balance: 0 }]);
      expectReconciles(planInput(), plan);
    });

    for (const strategy of ['avalanche', 'snowball'] as const) {
      it(`reconciles a multi-debt ${strategy} plan to the cent`, () => {
        const input = planInput({ strategy, monthlyPayment: cents(90_000), debts: mixedDebts });
        const plan = right(planPayoff(input));
        expect(plan.months).to.be.greaterThan(1);
        expectReconciles(input, plan);
      });
    }

    it('costs less interest with avalanche than with snowball on the same debts', () => {
      const avalanche = right(planPayoff(planInput({ strategy: 'avalanche', monthlyPayment: cents(90_000), debts: mixedDebts })));
      const snowball = right(planPayoff(planInput({ strategy: 'snowball', monthlyPayment: cents(90_000), debts: mixedDebts })));
      expect(avalanche.total_interest).to.be.lessThan(snowball.total_interest);
    });

    it('orders avalanche by highest APR, then smaller balance, then lower id', () => {
      const debts = [
        debt(1, 50_000, 10, 1_000),
        debt(2, 90_000, 25, 1_000),
        debt(3, 70_000, 18, 1_000),
        debt(4, 40_000, 18, 1_000),
        debt(5, 70_000, 18, 1_000),
      ];
      const plan = right(planPayoff(planInput({ strategy: 'avalanche', monthlyPayment: cents(20_000), debts })));
      expect(plan.order).to.deep.equal([2, 4, 3, 5, 1]);
      // Month 1: the whole extra goes to the first in order.
      const month1 = plan.schedule[0]?.payments ?? [];
      expect(month1.find((r) => r.account_id === 2)?.payment).to.equal(16_000);
      expect(month1.filter((r) => r.account_id !== 2).map((r) => r.payment)).to.deep.equal([1_000, 1_000, 1_000, 1_000]);
    });

    it('orders snowball by smaller balance, then higher APR, then lower id', () => {
      const debts = [
        debt(1, 50_000, 10, 1_000),
        debt(2, 30_000, 5, 1_000),
        debt(3, 50_000, 12, 1_000),
        debt(4, 90_000, 25, 1_000),
        debt(5, 50_000, 12, 1_000),
      ];
      const plan = right(planPayoff(planInput({ strategy: 'snowball', monthlyPayment: cents(20_000), debts })));
      expect(plan.order).to.deep.equal([2, 3, 5, 1, 4]);
      expect(plan.schedule[0]?.payments.find((r) => r.account_id === 2)?.payment).to.equal(16_000);
    });

    it("orders snowball on the balances after the month's minimums, not the starting balances", () => {
      // Starting balances put 1 first; after the minimums 2 owes less (9,550 < 9,900).
      const debts = [debt(1, 10_000, 0, 100), debt(2, 10_050, 0, 500)];
      const plan = right(planPayoff(planInput({ strategy: 'snowball', monthlyPayment: cents(1_000), debts })));
      expect(plan.order).to.deep.equal([1, 2]);
      expect(plan.schedule[0]?.payments).to.deep.equal([
        { account_id: 1, payment: 100, interest: 0, principal: 100, balance: 9_900 },
        { account_id: 2, payment: 900, interest: 0, principal: 900, balance: 9_150 },
      ]);
    });

    it("rolls a paid-off debt's minimum over to the next debt within the same month", () => {
      // Debt 1 needs only 1,000 of its 5,000 minimum: the other 4,000 go to debt 2 in month 1.
      const debts = [debt(1, 1_000, 0, 5_000), debt(2, 100_000, 0, 5_000)];
      const plan = right(planPayoff(planInput({ strategy: 'avalanche', monthlyPayment: cents(10_000), debts })));
      expect(plan.schedule[0]?.payments).to.deep.equal([
        { account_id: 1, payment: 1_000, interest: 0, principal: 1_000, balance: 0 },
        { account_id: 2, payment: 9_000, interest: 0, principal: 9_000, balance: 91_000 },
      ]);
      // From month 2 on, only debt 2 has a row.
      expect(plan.schedule[1]?.payments.map((r) => r.account_id)).to.deep.equal([2]);
      expect(plan.months).to.equal(11);
    });

    it('gives a row to each debt that had a balance at the start of the month, and none after', () => {
      const input = planInput({ monthlyPayment: cents(90_000), debts: mixedDebts });
      const plan = right(planPayoff(input));
      const opening = new Map(input.debts.map((d) => [d.id as number, d.balance as number]));
      for (const m of plan.schedule) {
        const owing = [...opening].filter(([, b]) => b > 0).map(([id]) => id);
        expect(m.payments.map((r) => r.account_id)).to.deep.equal(owing);
        for (const r of m.payments) opening.set(r.account_id, r.balance);
      }
    });

    it('skips a debt with a balance of 0 (even with a minimum of 0)', () => {
      const debts = [debt(1, 1_000_000, 20, 25_000), debt(2, 0, 30, 0)];
      const plan = right(planPayoff(planInput({ debts })));
      expect(plan.order).to.deep.equal([1]);
      expect(rowsOf(plan.schedule).some((r) => r.account_id === 2)).to.equal(false);
      expect(plan.total_interest).to.equal(226_606);
    });

    it('dates month n as today + n months, clamped to the month end (Jan 31 → Feb 29 → Mar 31)', () => {
      const plan = right(planPayoff(planInput({ today: date('2024-01-31') })));
      expect(plan.schedule.slice(0, 4).map((m) => m.date)).to.deep.equal(['2024-02-29', '2024-03-31', '2024-04-30', '2024-05-31']);
      expect(plan.payoff_date).to.equal('2026-02-28');
    });

    it('keeps principal and interest non-negative when a minimum is below its interest', () => {
      // Debt 2's minimum (100) is below its interest (250) until the extra reaches it.
      const debts = [debt(1, 200_000, 30, 20_000), debt(2, 100_000, 3, 100)];
      const input = planInput({ strategy: 'avalanche', monthlyPayment: cents(20_100), debts });
      const plan = right(planPayoff(input));
      expect(plan.schedule[0]?.payments.find((r) => r.account_id === 2)).to.deep.equal({
        account_id: 2,
        payment: 100,
        interest: 100,
        principal: 0,
        balance: 100_150,
      });
      expectReconciles(input, plan);
    });

    it('accepts exactly 600 months and rejects 601', () => {
      const ok = right(planPayoff(planInput({ monthlyPayment: cents(100), debts: [debt(1, 60_000, 0, 100)] })));
      expect(ok.months).to.equal(600);
      expect(ok.payoff_date).to.equal('2074-01-15');
      const err = left(planPayoff(planInput({ monthlyPayment: cents(100), debts: [debt(1, 60_001, 0, 100)] })));
      expect(err._tag).to.equal('validation_error');
      expect(detailsOf(err)).to.deep.equal([{ path: 'monthly_payment', message: 'would take more than 600 months' }]);
    });

    it('rejects a budget that never pays off as longer than 600 months', () => {
      const err = left(planPayoff(planInput({ monthlyPayment: cents(16_000), debts: [debt(1, 1_000_000, 20, 16_000)] })));
      expect(err._tag).to.equal('validation_error');
      expect(err.message).to.contain('would take more than 600 months');
      expect(detailsOf(err)[0]?.path).to.equal('monthly_payment');
    });

    describe('validation', () => {
      it('rejects a budget below the sum of minimums', () => {
        const debts = [debt(1, 100_000, 10, 3_000), debt(2, 100_000, 10, 2_500)];
        const err = left(planPayoff(planInput({ monthlyPayment: cents(5_499), debts })));
        expect(err._tag).to.equal('validation_error');
        expect(detailsOf(err)).to.deep.equal([{ path: 'monthly_payment', message: 'must cover the sum of minimum payments (5500 cents)' }]);
        // Exactly the sum of minimums is enough.
        expect(E.isRight(planPayoff(planInput({ monthlyPayment: cents(5_500), debts })))).to.equal(true);
      });

      it('does not count the minimum of a debt with no balance', () => {
        const debts = [debt(1, 100_000, 10, 3_000), debt(2, 0, 10, 2_500)];
        expect(E.isRight(planPayoff(planInput({ monthlyPayment: cents(3_000), debts })))).to.equal(true);
      });

      it('rejects no debts, and debts that all have a balance of 0', () => {
        for (const debts of [[], [debt(1, 0, 10, 100)]]) {
          const err = left(planPayoff(planInput({ debts })));
          expect(err._tag).to.equal('validation_error');
          expect(detailsOf(err)).to.deep.equal([{ path: 'account_ids', message: 'no debt with a balance to pay off' }]);
        }
      });

      it('rejects a debt with a balance whose minimum is 0', () => {
        const err = left(planPayoff(planInput({ debts: [debt(1, 1_000_000, 20, 25_000), debt(7, 5_000, 10, 0)] })));
        expect(err._tag).to.equal('validation_error');
        expect(detailsOf(err)).to.deep.equal([{ path: 'account_ids', message: 'account 7: minimum payment is 0' }]);
      });

      it('rejects the same debt listed twice', () => {
        const err = left(planPayoff(planInput({ debts: [debt(1, 1_000, 20, 250), debt(1, 1_000, 20, 250)] })));
        expect(detailsOf(err).map((d) => d.message)).to.include('account 1 is listed more than once');
      });

      it('rejects an APR outside 0..100 and a budget of 0', () => {
        const err = left(planPayoff(planInput({ monthlyPayment: cents(0), debts: [debt(1, 1_000, Number.NaN, 250)] })));
        expect(detailsOf(err).map((d) => d.path)).to.include.members(['monthly_payment', 'account_ids']);
        expect(detailsOf(err).map((d) => d.message)).to.include('account 1: apr must be between 0 and 100');
      });

      it('reports every problem at once', () => {
        const err = left(planPayoff(planInput({ monthlyPayment: cents(100), debts: [debt(1, 1_000, 5, 0), debt(2, 1_000, 5, 500)] })));
        expect(detailsOf(err)).to.have.length(2);
      });
    });
  });

  describe('expectedPayoffDate', () => {
    it('is the date of the month the balance reaches 0 paying only the minimum', () => {
      expect(expectedPayoffDate({ balance: cents(1_000_000), apr: 20, minimumPayment: cents(50_000) }, date('2024-01-15'))).to.equal(
        '2026-02-15',
      );
    });

    it('agrees with a one-debt plan whose budget is the minimum', () => {
      const input = { balance: cents(1_000_000), apr: 20, minimumPayment: cents(25_000) };
      const plan = right(planPayoff(planInput({ monthlyPayment: cents(25_000), today: date('2024-01-31') })));
      expect(expectedPayoffDate(input, date('2024-01-31'))).to.equal(plan.payoff_date);
    });

    it('clamps to the month end', () => {
      // 3 months of 100 at 0%: Jan 31 + 3 months = Apr 30.
      expect(expectedPayoffDate({ balance: cents(300), apr: 0, minimumPayment: cents(100) }, date('2024-01-31'))).to.equal('2024-04-30');
    });

    it('is null when the balance is 0', () => {
      expect(expectedPayoffDate({ balance: cents(0), apr: 20, minimumPayment: cents(100) }, date('2024-01-15'))).to.equal(null);
    });

    it('is null when the minimum is 0', () => {
      expect(expectedPayoffDate({ balance: cents(1_000), apr: 0, minimumPayment: cents(0) }, date('2024-01-15'))).to.equal(null);
    });

    it('is null when the minimum never pays it off (it does not exceed the interest)', () => {
      expect(expectedPayoffDate({ balance: cents(1_000_000), apr: 20, minimumPayment: cents(16_667) }, date('2024-01-15'))).to.equal(null);
    });

    it('is null beyond 600 months, and a date at exactly 600', () => {
      expect(expectedPayoffDate({ balance: cents(60_001), apr: 0, minimumPayment: cents(100) }, date('2024-01-15'))).to.equal(null);
      expect(expectedPayoffDate({ balance: cents(60_000), apr: 0, minimumPayment: cents(100) }, date('2024-01-15'))).to.equal('2074-01-15');
    });

    it('answers the same from its memo: the months are remembered, the date follows today', () => {
      const memo = minimumOnlyMemo();
      const input = { balance: cents(1_000_000), apr: 20, minimumPayment: cents(50_000) };
      expect(expectedPayoffDate(input, date('2024-01-15'), memo)).to.equal('2026-02-15');
      expect(expectedPayoffDate(input, date('2024-01-15'), memo)).to.equal('2026-02-15');
      expect(expectedPayoffDate(input, date('2025-03-31'), memo)).to.equal('2027-04-30');
      const never = { balance: cents(1_000_000), apr: 20, minimumPayment: cents(16_667) };
      expect(expectedPayoffDate(never, date('2024-01-15'), memo)).to.equal(null);
      expect(expectedPayoffDate(never, date('2024-01-15'), memo)).to.equal(null);
    });

    it('stays right past its bound (the oldest answers are dropped, then worked out again)', () => {
      const months = (balance: number): number => Math.ceil(balance / 100);
      const memo = minimumOnlyMemo();
      for (let i = 1; i <= MINIMUM_ONLY_MEMO_SIZE + 10; i++) {
        expect(expectedPayoffDate({ balance: cents(100 * i), apr: 0, minimumPayment: cents(100) }, date('2024-01-15'), memo)).to.equal(
          i > 600 ? null : addMonths(date('2024-01-15'), months(100 * i)),
        );
      }
      expect(expectedPayoffDate({ balance: cents(300), apr: 0, minimumPayment: cents(100) }, date('2024-01-31'), memo)).to.equal(
        '2024-04-30',
      );
    });

    it('is null on an invalid APR', () => {
      expect(expectedPayoffDate({ balance: cents(1_000), apr: -1, minimumPayment: cents(100) }, date('2024-01-15'))).to.equal(null);
    });
  });

  describe('projectSingleDebt', () => {
    it('stops early with `never` once the payment does not exceed the interest', () => {
      expect(projectSingleDebt(cents(1_000_000), 20, cents(16_667))).to.deep.equal(E.left('never'));
    });

    it('reports `overflow` instead of computing past 2^53 cents', () => {
      // 100% APR with a 1-cent payment and a huge balance: the balance would pass 2^53.
      expect(projectSingleDebt(cents(Number.MAX_SAFE_INTEGER - 1), 100, cents(Number.MAX_SAFE_INTEGER - 1))).to.deep.equal(
        E.left('overflow'),
      );
    });
  });
});
