/**
 * Payoff quotes (docs/decisions/payoff-and-outlook.md "Payoff quotes"):
 * what it costs to pay a debt off in full on a date. Pure: the caller gives the
 * terms, the date interest runs from, and the user's today.
 *
 * - Interest runs per segment (the whole balance is one segment at the account's
 *   rate when it has none) at APR / 365 a day, from `interestFrom` to
 *   `goodThrough`: simple interest (`balance × APR/365 × days`, rounded half up
 *   to the cent, in exact integers) for `monthly` and `daily_simple`, and the
 *   closed form `balance × ((1 + APR/365)^days − 1)` for `daily_compound`
 *   (the closed form between postings, never a loop over days).
 * - A promotion's rate applies to the days before `promo_ends_on`, its
 *   `go_to_apr` from that day on (the days are split at the date).
 * - `interest_due` = `accrued_interest` + that interest; `per_diem` is one more
 *   day of it (the interest to `goodThrough + 1` less the interest to
 *   `goodThrough`), what a payment arriving a day late adds.
 * - `payoff_amount` = balance + `interest_due`, plus a deferred-interest
 *   segment's accrued interest (as stored, and accruing at `go_to_apr` from
 *   `interestFrom` to the promotion's end) when the promotion has ended by
 *   `goodThrough` and the segment still has a balance: the deferred interest is
 *   imposed when the balance is not paid in full by the end of the period
 *   (Regulation Z §1026.16(h)(2)).
 */
import { addDays, daysBetween, type Cents, type IsoDate } from '../primitives.js';
import { dailyCompoundInterestOf, dailySimpleInterestOf } from './rates.js';
import type { InterestMethod } from './terms.js';

/** One balance at one rate, as the quote reads it. */
export interface QuoteSegment {
  /** Cents. */
  readonly balance: number;
  /** Percent, e.g. 19.99: the rate before `promo_ends_on` (or for good, without one). */
  readonly apr: number;
  readonly promo_ends_on?: IsoDate | null | undefined;
  readonly go_to_apr?: number | null | undefined;
  readonly deferred_interest?: boolean | null | undefined;
  /** The deferred interest accrued so far (cents), posted if the promotion ends with a balance. */
  readonly accrued_deferred_interest?: number | null | undefined;
}

export interface PayoffQuoteTerms {
  /** Cents. */
  readonly balance: number;
  readonly segments: ReadonlyArray<QuoteSegment>;
  readonly method: InterestMethod;
  /** Interest already accrued and unpaid (loans: the account's `accrued_interest`). */
  readonly accruedInterest: number;
  /** The day interest runs from: the last payment's date, else one month before the next due date. */
  readonly interestFrom: IsoDate;
  readonly goodThrough: IsoDate;
  /** Cards carry the trailing-interest note (interest posted after a payoff on a revolving account). */
  readonly isCard: boolean;
}

export interface PayoffQuoteFigures {
  readonly payoff_amount: Cents;
  readonly per_diem: Cents;
  readonly interest_due: Cents;
  /** The deferred interest a payoff on `goodThrough` owes (0 when none is imposed by then). */
  readonly deferred_charge: Cents;
  readonly trailing_interest_note: boolean;
}

const simpleInterest = (balance: number, apr: number, days: number): number =>
  balance <= 0 || days <= 0 || apr === 0 ? 0 : dailySimpleInterestOf(balance, apr, days);
const compoundInterest = (balance: number, apr: number, days: number): number =>
  balance <= 0 || days <= 0 || apr === 0 ? 0 : dailyCompoundInterestOf(balance, apr, days);

/** The rate of each run of days from `from` to `to`: before and from the promotion's end. */
const rateRuns = (s: QuoteSegment, from: IsoDate, to: IsoDate): ReadonlyArray<{ apr: number; days: number }> => {
  const total = Math.max(0, daysBetween(from, to));
  if (s.promo_ends_on == null || s.go_to_apr == null) return [{ apr: s.apr, days: total }];
  const promoDays = Math.min(total, Math.max(0, daysBetween(from, s.promo_ends_on)));
  return [
    { apr: s.apr, days: promoDays },
    { apr: s.go_to_apr, days: total - promoDays },
  ];
};

/**
 * Interest of one segment from `from` to `to`. Compounding runs on: a rate
 * change at the promotion's end compounds on the balance grown so far.
 */
const segmentInterest = (s: QuoteSegment, method: InterestMethod, from: IsoDate, to: IsoDate): number => {
  if (method !== 'daily_compound') return rateRuns(s, from, to).reduce((sum, run) => sum + simpleInterest(s.balance, run.apr, run.days), 0);
  let grown: number = s.balance;
  for (const run of rateRuns(s, from, to)) grown += compoundInterest(grown, run.apr, run.days);
  return grown - s.balance;
};

const interestTo = (terms: PayoffQuoteTerms, date: IsoDate): number =>
  terms.segments.reduce((sum, s) => sum + segmentInterest(s, terms.method, terms.interestFrom, date), 0);

/**
 * A deferred-interest segment's charge once its promotion has ended by `date` with
 * a balance left: the interest accrued so far (`accrued_deferred_interest`, as of
 * the account's last posting) and the interest accruing at `go_to_apr` in the
 * background from `interestFrom` to the promotion's end, by the account's method.
 */
const deferredChargeBy = (terms: PayoffQuoteTerms, date: IsoDate): number =>
  terms.segments.reduce((sum, s) => {
    if (s.deferred_interest !== true || s.promo_ends_on == null || s.go_to_apr == null || s.balance <= 0 || s.promo_ends_on > date)
      return sum;
    const days = Math.max(0, daysBetween(terms.interestFrom, s.promo_ends_on));
    const background =
      terms.method === 'daily_compound' ? compoundInterest(s.balance, s.go_to_apr, days) : simpleInterest(s.balance, s.go_to_apr, days);
    return sum + (s.accrued_deferred_interest ?? 0) + background;
  }, 0);

/**
 * The figures of a payoff quote good through `terms.goodThrough`.
 * @example payoffQuote({ balance: 1_000_000, segments: [{ balance: 1_000_000, apr: 18.25 }], method: 'daily_simple',
 *   accruedInterest: 0, interestFrom: '2026-03-01', goodThrough: '2026-03-11', isCard: false })
 *   // { interest_due: 5000, per_diem: 500, payoff_amount: 1_005_000, ... }: $10,000 × 18.25% / 365 = $5.00 a day
 */
export const payoffQuote = (terms: PayoffQuoteTerms): PayoffQuoteFigures => {
  const interest = interestTo(terms, terms.goodThrough);
  const interestDue = terms.accruedInterest + interest;
  const perDiem = interestTo(terms, addDays(terms.goodThrough, 1)) - interest;
  const deferred = deferredChargeBy(terms, terms.goodThrough);
  return {
    payoff_amount: (terms.balance + interestDue + deferred) as Cents,
    per_diem: perDiem as Cents,
    interest_due: interestDue as Cents,
    deferred_charge: deferred as Cents,
    trailing_interest_note: terms.isCard,
  };
};
