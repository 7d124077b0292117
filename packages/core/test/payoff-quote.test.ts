/**
 * Payoff quotes (shared/money/payoff-quote.ts, docs/decisions/payoff-and-outlook.md "Payoff quotes"):
 * interest per segment at APR/365 a day from the interest start to the good-through
 * date, simple or in the closed form of daily compounding, the per diem, the
 * promotion's end, accrued interest and a deferred charge.
 */
import { expect } from 'chai';
import { payoffQuote, type PayoffQuoteTerms } from '../src/shared/money/payoff-quote.js';
import type { Cents, IsoDate } from '../src/shared/primitives.js';

const d = (s: string) => s as IsoDate;
const c = (n: number) => n as Cents;
const terms = (over: Partial<PayoffQuoteTerms>): PayoffQuoteTerms => ({
  balance: c(1_000_000),
  segments: [{ balance: c(1_000_000), apr: 18.25 }],
  method: 'daily_simple',
  accruedInterest: c(0),
  interestFrom: d('2026-03-01'),
  goodThrough: d('2026-03-11'),
  isCard: false,
  ...over,
});

describe('payoff quotes', () => {
  it('a loan at 18.25%: $5.00 a day on $10,000, 10 days → $50.00 due, $5.00 per diem, $10,050.00 to pay off', () => {
    expect(payoffQuote(terms({}))).to.deep.equal({
      payoff_amount: 1_005_000,
      per_diem: 500,
      interest_due: 5_000,
      deferred_charge: 0,
      trailing_interest_note: false,
    });
  });

  it('adds the accrued interest a loan carries, and counts days across a month end (Feb 2028 has 29)', () => {
    const q = payoffQuote(terms({ accruedInterest: c(12_345), interestFrom: d('2028-02-20'), goodThrough: d('2028-03-01') }));
    expect(q.interest_due).to.equal(12_345 + 10 * 500); // Feb 20 → Mar 1, 2028: 10 days
    expect(q.payoff_amount).to.equal(1_000_000 + 12_345 + 5_000);
  });

  it('the monthly method quotes simple daily interest too; daily_compound the closed form balance × ((1 + r)^days − 1)', () => {
    const simple = payoffQuote(
      terms({ method: 'monthly', segments: [{ balance: c(500_000), apr: 24 }], balance: c(500_000), goodThrough: d('2026-03-31') }),
    );
    expect(simple.interest_due).to.equal(Math.round((500_000 * 0.24 * 30) / 365));
    const compound = payoffQuote(
      terms({ method: 'daily_compound', segments: [{ balance: c(500_000), apr: 24 }], balance: c(500_000), goodThrough: d('2026-03-31') }),
    );
    const grown = (days: number) => Math.round(500_000 * ((1 + 0.24 / 365) ** days - 1));
    expect(compound.interest_due).to.equal(grown(30));
    expect(compound.per_diem).to.equal(grown(31) - grown(30));
    expect(compound.interest_due).to.be.greaterThan(simple.interest_due);
  });

  it('sums the segments, each at its own rate, a promotion at its rate before promo_ends_on and at go_to_apr from it', () => {
    const q = payoffQuote(
      terms({
        balance: c(600_000),
        segments: [
          { balance: c(200_000), apr: 0, promo_ends_on: d('2026-03-06'), go_to_apr: 21.9 },
          { balance: c(400_000), apr: 29.2 },
        ],
      }),
    );
    // $2,000: 5 days at 0%, then 5 at 21.9% ($1.20 a day); $4,000: 10 days at 29.2% ($3.20 a day).
    expect(q.interest_due).to.equal(Math.round((200_000 * 0.219 * 5) / 365) + Math.round((400_000 * 0.292 * 10) / 365));
    expect(q.per_diem).to.equal(Math.round((200_000 * 0.219) / 365) + Math.round((400_000 * 0.292) / 365));
  });

  it('a deferred-interest segment adds its accrued interest (and its background accrual to the end) once its promotion has ended with a balance, not before', () => {
    const deferred = (goodThrough: string, balance = 150_000) =>
      payoffQuote(
        terms({
          balance: c(balance),
          segments: [
            {
              balance: c(balance),
              apr: 0,
              promo_ends_on: d('2026-03-10'),
              go_to_apr: 26.99,
              deferred_interest: true,
              accrued_deferred_interest: c(31_415),
            },
          ],
          goodThrough: d(goodThrough),
          isCard: true,
        }),
      );
    expect(deferred('2026-03-09').deferred_charge).to.equal(0);
    expect(deferred('2026-03-09').payoff_amount).to.equal(150_000);
    const after = deferred('2026-03-10');
    // Accrued so far, and 9 more days (Mar 1 → Mar 10) at 26.99% in the background: $1,500 × 26.99% × 9 / 365 = $9.98.
    expect(after.deferred_charge).to.equal(31_415 + 998);
    expect(after.payoff_amount).to.equal(150_000 + after.interest_due + 31_415 + 998);
    expect(after.trailing_interest_note).to.equal(true);
  });

  it('no interest before the day it runs from (a payment dated after the quote), and none on a zero balance', () => {
    expect(payoffQuote(terms({ interestFrom: d('2026-03-20') })).interest_due).to.equal(0);
    expect(payoffQuote(terms({ balance: c(0), segments: [] })).payoff_amount).to.equal(0);
  });
});
