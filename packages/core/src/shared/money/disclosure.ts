/**
 * The Minimum Payment Warning of a card's periodic statement (Regulation Z
 * §1026.7(b)(12)), computed as Appendix M1 says and as Appendix M2's program
 * does (docs/decisions/payoff-and-outlook.md "The Minimum Payment
 * Warning"). Pure.
 *
 * The months run on the engine's own loop (`projectMinimumOnly`) in its
 * equal-months mode: M1's assumptions, not the account's method:
 * - M1 (b)(4)(i), (iv), (vii): only minimum payments, no grace period, every
 *   month 365/12 days at a daily periodic rate of APR/365, so a month's interest
 *   is APR/12 of each segment's balance (M2: `xxxbal(I) = round(cbal(I) * (1 + perrate(I)), 0.01)`);
 * - M1 (b)(1): the account's minimum payment formula;
 * - M1 (b)(2): each segment at its own rate; a promotion at its rate for the
 *   months dated before `promo_ends_on`, then at `go_to_apr` (M2: `if month ge
 *   expm`); a deferred-interest segment at 0% if the minimums repay it before the
 *   promotion ends, else at the rate at which its interest accrues;
 * - M1 (b)(4)(iii): no other rate changes;
 * - the minimum to the lowest rate first (M2 pays `cbal1` first, its balances
 *   "in ascending order" of rate).
 *
 * The 36-month payment is M2's weighted-rate annuity (M1 (d)(2)): a promotion's
 * segment weighs its rate and `go_to_apr` by the share of 36 months each applies,
 * `expm` being the whole months from `as_of` to `promo_ends_on`.
 *
 * Figures as the statement discloses them: amounts rounded to the dollar (comment
 * 7(b)(12)-1, as M2's `round(…, 1)`), years per §1026.7(b)(12)(i)(B) (under two
 * years in months; otherwise the nearest whole year), the 36-month line left out
 * when the rounded estimate is three years or less (§1026.7(b)(12)(i)(F)(2)(i),
 * comment 7(b)(12)(i)(F)-1), and a minimum that never repays disclosed as such
 * with the 36-month payment only (§1026.7(b)(12)(ii)).
 */
import { addMonths, type Cents, type IsoDate } from '../primitives.js';
import type { DebtTerms, RateSegment } from './terms.js';
import { runEngine, type DebtBook } from './engine.js';

/** The longest a disclosure's loop runs (the engine's horizon for every projection, docs/api/reference.md): a minimum that has not repaid by then never does. */
export const DISCLOSURE_MAX_MONTHS = 600;

/** The disclosure's figures (cents rounded to the dollar), as `RepaymentDisclosure` answers them without its date. */
export interface DisclosureFigures {
  readonly minimum_payments_only: { readonly months: number; readonly years: number | null; readonly total_cost: Cents } | null;
  readonly three_year: { readonly monthly_payment: Cents; readonly total_cost: Cents; readonly savings: number | null } | null;
  readonly never_pays_off: boolean;
  readonly rounding: 'nearest_dollar';
}

/** Cents rounded to the whole dollar, half up (M2's `round(x, 1)` on dollars). */
export const toDollar = (cents: number): Cents => (Math.floor((cents + 50) / 100) * 100) as Cents;

/**
 * The repayment estimate as the statement states it (§1026.7(b)(12)(i)(B)): `null`
 * under two years (stated in months), else the nearest whole year, half a year up
 * (comment 7(b)(12)(i)(F)-1: 2 years 6 months to 3 years 5 months is 3 years).
 * @example disclosedYears(94) === 8 // 7 years 10 months
 */
export const disclosedYears = (months: number): number | null => (months < 24 ? null : Math.floor((months + 6) / 12));

/**
 * Whole months from `asOf` to `date` (M2's `expm`): the most n with
 * `asOf + n months` (docs/decisions/api-conventions.md's dating) on or before `date`; 0 when `date` is not after `asOf`.
 * @example wholeMonthsBetween('2026-03-15', '2026-09-15') === 6; wholeMonthsBetween('2026-03-15', '2026-09-14') === 5
 */
export const wholeMonthsBetween = (asOf: IsoDate, date: IsoDate): number => {
  let n = 0;
  while (addMonths(asOf, n + 1) <= date) n++;
  return n;
};

/**
 * The segments as M1 (b)(2) has the loop see them: each deferred-interest segment
 * at 0% until its promotion ends (`hopeful`), or, for the segments in `accruing`,
 * at the rate its interest accrues at (`go_to_apr`) from the start. Never deferred
 * and never a lump charge: M1 has none.
 */
const m1Segments = (segments: ReadonlyArray<RateSegment>, accruing: ReadonlySet<number>): RateSegment[] =>
  segments.map((s, i) => {
    if (!isDeferred(s)) return s;
    return accruing.has(i)
      ? {
          kind: s.kind,
          balance: s.balance,
          apr: s.go_to_apr!,
          promo_ends_on: null,
          go_to_apr: null,
          deferred_interest: false,
          accrued_deferred_interest: 0,
        }
      : { ...s, apr: 0, deferred_interest: false, accrued_deferred_interest: 0 };
  });

const isDeferred = (s: RateSegment): boolean =>
  s.deferred_interest === true && s.promo_ends_on != null && s.go_to_apr != null && s.balance > 0;

/** The first month (≥ 1) dated on or after `date`: the first month past a promotion ending on `date`. */
const firstMonthOnOrAfter = (asOf: IsoDate, date: IsoDate): number => {
  let m = 1;
  while (addMonths(asOf, m) < date) m++;
  return m;
};

/** The segments of a debt: its own, or one of its whole balance at its rate. */
const segmentsOf = (debt: DebtTerms): ReadonlyArray<RateSegment> =>
  debt.segments != null && debt.segments.length > 0 ? debt.segments : [{ kind: 'purchase', balance: debt.balance, apr: debt.apr }];

/**
 * M2's estimated monthly payment to repay the balance in 36 months, in cents
 * (`pmt01 = round(tbal / pvaf, 0.01)`): an annuity at the balance-weighted
 * periodic rate, a promotion's segment weighing its two rates by their shares of
 * the 36 months (M1 (d)(2)).
 */
export const threeYearPayment = (segments: ReadonlyArray<RateSegment>, asOf: IsoDate, accruing: ReadonlySet<number>): number => {
  const total = segments.reduce((sum, s) => sum + s.balance, 0);
  if (total === 0) return 0;
  const monthlyRate = (s: RateSegment, i: number): number => {
    if (s.promo_ends_on == null || s.go_to_apr == null) return s.apr / 1200;
    if (s.deferred_interest === true) return accruing.has(i) ? s.go_to_apr / 1200 : 0;
    const expm = Math.min(36, wholeMonthsBetween(asOf, s.promo_ends_on));
    return (expm / 36) * (s.apr / 1200) + (1 - expm / 36) * (s.go_to_apr / 1200);
  };
  const rate = segments.reduce((sum, s, i) => sum + s.balance * monthlyRate(s, i), 0) / total;
  const annuityFactor = rate === 0 ? 36 : -Math.expm1(-36 * Math.log1p(rate)) / rate;
  return Math.round(total / annuityFactor);
};

/**
 * The disclosure of `debt` (a card: its segments, minimum formula or fixed
 * minimum) on the statement date `asOf`.
 * @example Appendix M2's account ($500 at 0% until as_of + 6 months then 17%, $250 at 17%, $250 at 21%,
 *   2% of the balance or $20): { minimum_payments_only: { months: 94, years: 8, total_cost: 187200 },
 *   three_year: { monthly_payment: 3500, total_cost: 127600, savings: 59600 }, never_pays_off: false }
 */
export const repaymentDisclosure = (debt: DebtTerms, asOf: IsoDate): DisclosureFigures => {
  const segments = segmentsOf(debt);
  const run = (accruing: ReadonlySet<number>, inspect?: (month: number, book: DebtBook) => void) =>
    runEngine({
      debts: [{ ...debt, interestMethod: 'monthly', accruedInterest: 0, escrow: 0, segments: m1Segments(segments, accruing) }],
      strategy: 'minimum_only',
      monthlyPayment: 0,
      start: asOf,
      maxMonths: DISCLOSURE_MAX_MONTHS,
      dayCount: 'equal_months',
      inspect,
    });
  // M1 (b)(2): a deferred-interest segment is at 0% when the minimums repay it in a month dated before its
  // promotion ends, else at its accruing rate throughout. The hopeful run says which: the month each segment
  // reaches 0, read from the engine's book (one debt, so segment i is the book's segment i).
  const paidOff = new Array<number>(segments.length).fill(Number.POSITIVE_INFINITY);
  const hopeful = run(new Set(), (month, book) => {
    for (let i = 0; i < segments.length; i++) if (paidOff[i] === Number.POSITIVE_INFINITY && book.sBal[i]! <= 0) paidOff[i] = month;
  });
  const accruing = new Set(
    segments.flatMap((s, i) => (isDeferred(s) && paidOff[i]! >= firstMonthOnOrAfter(asOf, s.promo_ends_on!) ? [i] : [])),
  );
  const outcome = accruing.size === 0 ? hopeful : run(accruing);
  const payment = threeYearPayment(segments, asOf, accruing);
  const threeYearTotal = toDollar(payment * 36);
  if (!outcome.ok) {
    return {
      minimum_payments_only: null,
      three_year: { monthly_payment: toDollar(payment), total_cost: threeYearTotal, savings: null },
      never_pays_off: true,
      rounding: 'nearest_dollar',
    };
  }
  const years = disclosedYears(outcome.months);
  const totalCost = toDollar(outcome.totalPaid);
  return {
    minimum_payments_only: { months: outcome.months, years, total_cost: totalCost },
    three_year:
      years === null || years <= 3
        ? null
        : { monthly_payment: toDollar(payment), total_cost: threeYearTotal, savings: totalCost - threeYearTotal },
    never_pays_off: false,
    rounding: 'nearest_dollar',
  };
};
