import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { calculateByMonths, calculateByPayment } from '../src/calculator/debt-calculator.js';
import type { DomainError } from '../src/shared/errors.js';
import { planPayoff } from '../src/payment-plans/payoff-plan.js';
import type { Cents, IsoDate } from '../src/shared/primitives.js';
import { idOf } from '../src/shared/constructors.js';

const cents = (n: number): Cents => n as Cents;
const today = '2024-01-15' as IsoDate;

const right = <A>(e: E.Either<DomainError, A>): A => {
  if (E.isLeft(e)) throw new Error(`expected Right, got ${JSON.stringify(e.left)}`);
  return e.right;
};

const left = <A>(e: E.Either<DomainError, A>): DomainError => {
  if (E.isRight(e)) throw new Error('expected Left, got Right');
  return e.left;
};

const paths = (err: DomainError): string[] => (err._tag === 'validation_error' ? (err.details ?? []).map((d) => d.path) : []);

/** Months a payment needs, or Infinity when it does not pay off within 600. */
const monthsAt = (balance: number, apr: number, payment: number): number => {
  const r = calculateByPayment({ balance: cents(balance), apr, monthlyPayment: cents(payment), today });
  return E.isRight(r) ? r.right.months : Number.POSITIVE_INFINITY;
};

describe('debt-calculator', () => {
  describe('calculateByPayment', () => {
    it('meets the docs/decisions/payoff-and-outlook.md check: $10,000 at 20% paying $500 → 25 months, $2,266.06 interest', () => {
      expect(right(calculateByPayment({ balance: cents(1_000_000), apr: 20, monthlyPayment: cents(50_000), today }))).to.deep.equal({
        monthly_payment: 50_000,
        months: 25,
        payoff_date: '2026-02-15',
        total_interest: 226_606,
        total_paid: 1_226_606,
      });
    });

    it('agrees with a one-debt payoff plan (same loop)', () => {
      const calc = right(calculateByPayment({ balance: cents(734_512), apr: 19.99, monthlyPayment: cents(21_000), today }));
      const plan = right(
        planPayoff({
          strategy: 'snowball',
          monthlyPayment: cents(21_000),
          debts: [{ id: idOf('account', 9), balance: cents(734_512), apr: 19.99, minimumPayment: cents(21_000) }],
          today,
        }),
      );
      expect(calc).to.deep.equal({
        monthly_payment: 21_000,
        months: plan.months,
        payoff_date: plan.payoff_date,
        total_interest: plan.total_interest,
        total_paid: plan.total_paid,
      });
    });

    it('pays a balance smaller than the payment in one month', () => {
      expect(right(calculateByPayment({ balance: cents(10_000), apr: 12, monthlyPayment: cents(50_000), today }))).to.deep.equal({
        monthly_payment: 50_000,
        months: 1,
        payoff_date: '2024-02-15',
        total_interest: 100,
        total_paid: 10_100,
      });
    });

    it('dates the payoff at the month end when today is the 31st', () => {
      const r = right(calculateByPayment({ balance: cents(100), apr: 0, monthlyPayment: cents(100), today: '2024-01-31' as IsoDate }));
      expect(r.payoff_date).to.equal('2024-02-29');
    });

    it('rejects a payment that never pays off (not above the interest)', () => {
      const err = left(calculateByPayment({ balance: cents(1_000_000), apr: 20, monthlyPayment: cents(16_667), today }));
      expect(err._tag).to.equal('validation_error');
      expect(err.message).to.contain('never be paid off');
      expect(paths(err)).to.deep.equal(['monthly_payment']);
    });

    it('accepts 600 months and rejects 601', () => {
      expect(right(calculateByPayment({ balance: cents(60_000), apr: 0, monthlyPayment: cents(100), today })).months).to.equal(600);
      const err = left(calculateByPayment({ balance: cents(60_001), apr: 0, monthlyPayment: cents(100), today }));
      expect(err._tag).to.equal('validation_error');
      expect(err._tag === 'validation_error' ? err.details : undefined).to.deep.equal([
        { path: 'monthly_payment', message: 'would take more than 600 months' },
      ]);
    });

    it('rejects a balance of 0, an APR outside 0..100 and a payment of 0', () => {
      const err = left(calculateByPayment({ balance: cents(0), apr: 101, monthlyPayment: cents(0), today }));
      expect(err._tag).to.equal('validation_error');
      expect(paths(err)).to.deep.equal(['balance', 'apr', 'monthly_payment']);
      expect(paths(left(calculateByPayment({ balance: cents(1.5), apr: Number.NaN, monthlyPayment: cents(100), today })))).to.deep.equal([
        'balance',
        'apr',
      ]);
    });
  });

  describe('calculateByMonths', () => {
    const cases: ReadonlyArray<readonly [balance: number, apr: number, months: number]> = [
      [1_000_000, 20, 25],
      [1_000_000, 20, 600],
      [734_512, 19.99, 36],
      [250_000, 0, 7],
      [100, 0, 3],
      [5_000_000, 4.35, 360],
      [99_999, 29.99, 1],
    ];

    for (const [balance, apr, months] of cases) {
      it(`finds the smallest payment for ${balance} cents at ${apr}% within ${months} months`, () => {
        const r = right(calculateByMonths({ balance: cents(balance), apr, months, today }));
        expect(r.months).to.be.at.most(months);
        expect(monthsAt(balance, apr, r.monthly_payment)).to.equal(r.months);
        // One cent less does not pay off within the requested months.
        expect(monthsAt(balance, apr, r.monthly_payment - 1)).to.be.greaterThan(months);
        // The rest of the answer is the by-payment projection at that payment.
        const byPayment = right(calculateByPayment({ balance: cents(balance), apr, monthlyPayment: r.monthly_payment, today }));
        expect({ ...r, monthly_payment: undefined }).to.deep.equal({ ...byPayment, monthly_payment: undefined });
      });
    }

    it('answers $10,000 at 20% over 25 months with $492.39', () => {
      expect(right(calculateByMonths({ balance: cents(1_000_000), apr: 20, months: 25, today }))).to.deep.equal({
        monthly_payment: 49_239,
        months: 25,
        payoff_date: '2026-02-15',
        total_interest: 230_950,
        total_paid: 1_230_950,
      });
    });

    it('asks for balance + one month of interest when months is 1', () => {
      expect(right(calculateByMonths({ balance: cents(1_000_000), apr: 20, months: 1, today })).monthly_payment).to.equal(1_016_667);
    });

    it('reports the actual months, which can be fewer than asked', () => {
      // 5 cents within 4 months at 0%: 1 cent takes 5 months, 2 cents already pays off in 3.
      expect(right(calculateByMonths({ balance: cents(5), apr: 0, months: 4, today }))).to.include({ monthly_payment: 2, months: 3 });
      expect(right(calculateByMonths({ balance: cents(100), apr: 0, months: 3, today }))).to.include({ monthly_payment: 34, months: 3 });
    });

    it('rejects months outside 1..600 or not whole', () => {
      for (const months of [0, 601, 2.5, Number.NaN]) {
        const err = left(calculateByMonths({ balance: cents(1_000), apr: 5, months, today }));
        expect(err._tag).to.equal('validation_error');
        expect(paths(err)).to.deep.equal(['months']);
      }
    });

    it('rejects a balance of 0 and a negative APR', () => {
      expect(paths(left(calculateByMonths({ balance: cents(0), apr: -0.01, months: 12, today })))).to.deep.equal(['balance', 'apr']);
    });
  });
});
