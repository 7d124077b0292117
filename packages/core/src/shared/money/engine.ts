/**
 * The money engine (docs/decisions/payoff-and-outlook.md): the one month loop behind every
 * projection — plans and their schedule, compare, progress and forecast, the
 * outlook, `expected_payoff_date`, the calculator, the Minimum Payment Warning
 * (equal-months mode) — and the one allocation of a payment, used by recorded
 * plan payments and the sandbox advance. All amounts are integer cents.
 *
 * Month m (dated `addMonths(start, m)`), for every debt with something owed:
 *
 * 1. Promotions: a segment's promotion applies to the months dated before its
 *    `promo_ends_on`; from the first month dated on or after it the segment is
 *    at `go_to_apr`, and a deferred-interest segment with a balance left is
 *    charged its accrued deferred interest in that month (docs/decisions/payoff-and-outlook.md;
 *    Regulation Z §1026.55(b)(1) deferred-interest programs).
 * 2. Interest per segment, by the debt's method (rates.ts): `monthly`
 *    round-half-up(balance × APR / 1200); `daily_compound` the closed form
 *    balance × ((1 + APR/36500)^days − 1) over the actual days since the
 *    previous month's date (or 365/12 in the equal-months mode, Regulation Z
 *    Appendix M1 (b)(4)); `daily_simple` balance × APR/36500 × days, kept as
 *    accrued interest that is paid before principal and earns none. While a
 *    deferred-interest promotion runs, interest at `go_to_apr` accrues on the
 *    segment in the background.
 * 3. The minimum: fixed (escrow excluded: escrow never reduces the debt) or the
 *    issuer's formula, the greatest of the floor and every term (a percent of
 *    the balance the month starts with, plus the month's interest, plus an
 *    amount), never more than what is owed.
 * 4. Payments: each debt gets its minimum; what is left of the budget (plus the
 *    month's extra payments) goes to the debts still owing in strategy order.
 *    Within a debt, Regulation Z §1026.53 allocates: the minimum to the
 *    lowest-rate segments first (§1026.53(a)), the excess to the highest rate
 *    first (§1026.53(a)), except in the two months dated before a
 *    deferred-interest promotion ends, when the excess goes to that segment
 *    first (§1026.53(b)(1)). On a loan, accrued interest is paid first.
 *
 * Avalanche ranks a debt by the rate of the segment its extra money would
 * reach first; a deferred-interest segment in its promotion ranks at
 * 1200 × (the charge it would avoid) ÷ (its balance × months left) (docs/decisions/payoff-and-outlook.md).
 *
 * Debts without statement terms (one rate, monthly interest, a fixed minimum)
 * take exactly the arithmetic of docs/decisions/payoff-and-outlook.md, so their answers are unchanged.
 */
import { addMonths, addMonthsToParts, dateParts, daysInMonth, type IsoDate } from '../primitives.js';
import { dailyCompoundFactor, EQUAL_MONTH_DAYS, roundedQuotient, scaleApr } from './rates.js';
import type { DebtTerms, InterestMethod, MinimumFormula, RateSegment } from './terms.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Where the money beyond the minimums goes (docs/decisions/payoff-and-outlook.md). */
export type MoneyStrategy = 'avalanche' | 'snowball' | 'custom' | 'minimum_only';

/** How long a month is: the actual days between month dates, or 365/12 days each (Regulation Z Appendix M1 (b)(4)). */
export type DayCount = 'actual' | 'equal_months';

/** What a plan warns about (docs/decisions/payoff-and-outlook.md). */
export type MoneyWarningCode = 'deferred_interest_charged' | 'deferred_interest_avoided' | 'budget_below_minimums';

/** A warning of a projection: `account_id` null for `budget_below_minimums` (the whole budget's shortfall, in `amount`). */
export interface MoneyWarning {
  readonly account_id: number | null;
  readonly code: MoneyWarningCode;
  readonly month: number;
  readonly amount: number;
}

/** One row of a schedule month: `payment` reduces the debt (escrow excluded), `interest` includes a deferred charge posted that month, `balance` is what is owed after it. */
export interface EngineRow {
  readonly account_id: number;
  readonly payment: number;
  readonly interest: number;
  readonly principal: number;
  readonly balance: number;
}

export interface EngineMonth {
  readonly month: number;
  readonly date: IsoDate;
  readonly payments: EngineRow[];
}

/** Called after each month's payments with what every debt owes (indexed as the input's debts); it must not change them. */
export type EngineObserver = (month: number, owed: Float64Array) => void;

export interface EngineInput {
  readonly debts: ReadonlyArray<DebtTerms>;
  readonly strategy: MoneyStrategy;
  /** The whole monthly budget, minimums included, escrow excluded. */
  readonly monthlyPayment: number;
  /** Month m falls on this date plus m months. */
  readonly start: IsoDate;
  /** The order extra money goes in (`custom`): account ids; unlisted debts last. */
  readonly customOrder?: ReadonlyArray<number> | undefined;
  /** One-time additions to a month's budget (ignored by `minimum_only`). */
  readonly extraPayments?: ReadonlyArray<{ readonly month: number; readonly amount: number }> | undefined;
  readonly maxMonths: number;
  /** `actual` (the default) or `equal_months` (every month 365/12 days: the Minimum Payment Warning's assumption). */
  readonly dayCount?: DayCount | undefined;
  /** Build the schedule (one EngineMonth per month). */
  readonly schedule?: boolean | undefined;
  /** Collect warnings. */
  readonly warnings?: boolean | undefined;
  readonly observe?: EngineObserver | null | undefined;
  /** Keep going when the plan can never pay off, up to `maxMonths` (then `too_long`). */
  readonly toLimit?: boolean | undefined;
  /**
   * The largest amount a debt may owe in a month (default 2^53 − 1 cents, the
   * exact range): past it the run ends with `overflow`. Projections of accounts
   * pass the accounts' maximum balance (issue 42).
   */
  readonly maxBalance?: number | undefined;
  /** Called after each month with the book (its per-segment interest and payments of the month): for tests and the sandbox; must not change it. */
  readonly inspect?: ((month: number, book: DebtBook) => void) | undefined;
}

export type EngineFailure = 'never' | 'too_long' | 'overflow';

export type EngineOutcome =
  | {
      readonly ok: true;
      readonly months: number;
      /** Interest charged, deferred charges included. */
      readonly totalInterest: number;
      /** Paid toward the debts, escrow excluded. */
      readonly totalPaid: number;
      readonly schedule: EngineMonth[];
      readonly warnings: MoneyWarning[];
      /** Months observed (the last month computed). */
      readonly monthsRun: number;
      /** Strategy order of the debts owing at the start (indexes of the input). */
      readonly order: number[];
    }
  | {
      readonly ok: false;
      readonly reason: EngineFailure;
      readonly schedule: EngineMonth[];
      readonly warnings: MoneyWarning[];
      readonly monthsRun: number;
      readonly order: number[];
    };

const METHOD_MONTHLY = 0;
const METHOD_DAILY_COMPOUND = 1;
const METHOD_DAILY_SIMPLE = 2;
const methodCode = (m: InterestMethod | null | undefined): number =>
  m === 'daily_compound' ? METHOD_DAILY_COMPOUND : m === 'daily_simple' ? METHOD_DAILY_SIMPLE : METHOD_MONTHLY;

/** No promotion (or it has ended). */
const NO_PROMO = 0;
/** Index of the equal-month factor in a segment's factor cache (28..31 days are 0..3). */
const EQUAL_INDEX = 4;
const FACTORS = 5;
/** How many arrays of a book are per debt (besides `segFirst`) and per segment (besides the factor caches). */
const DEBT_ARRAYS = 19;
const SEGMENT_ARRAYS = 12;

const epochOf = (year: number, month: number, day: number): number => Math.round(Date.UTC(year, month - 1, day) / 86_400_000);
const epochOfDate = (date: IsoDate): number => {
  const { year, month, day } = dateParts(date);
  return epochOf(year, month, day);
};

/** round-half-up(balance × percent / 100), exact. */
const percentOf = (balance: number, percent: number): number => {
  const { units, scale } = scaleApr(percent);
  return roundedQuotient(balance, units, 100 * scale);
};

/** Options of a book of debts. */
export interface BookOptions {
  readonly start: IsoDate;
  readonly dayCount?: DayCount | undefined;
  /** Explicit month dates (index 0 = the start; later months a month at a time from the last): a sandbox month whose dates are not `start` + m months. */
  readonly dates?: ReadonlyArray<IsoDate> | undefined;
  readonly warnings?: boolean | undefined;
}

/**
 * The debts of one run in parallel typed arrays (debts and their segments):
 * the loop touches them 50 × 360 times per plan, so nothing is allocated per
 * debt and month. A debt without segments has one segment of its balance.
 */
export class DebtBook {
  readonly count: number;
  readonly ids: Float64Array;
  /** What each debt owes: its segments plus its accrued interest. */
  readonly owed: Float64Array;
  /** The avalanche rank of each debt (its rate, or a deferred segment's rank). */
  readonly rankApr: Float64Array;
  /** Whether a debt takes docs/decisions/payoff-and-outlook.md's plain arithmetic (one segment, monthly, fixed minimum, no accrued interest). */
  readonly plain: Float64Array;
  /** A plain debt's rate as units / denominator of its monthly rate (docs/decisions/payoff-and-outlook.md); its truth is `owed` (its one segment's balance is synced when inspected). */
  readonly plainUnits: Float64Array;
  readonly plainDenominator: Float64Array;
  readonly method: Float64Array;
  /** The fixed minimum without escrow. */
  readonly minimum: Float64Array;
  readonly escrow: Float64Array;
  readonly formula: Array<MinimumFormula | null>;
  readonly accruedInterest: Float64Array;
  /** This month's interest (deferred charge included), and the deferred charge alone. */
  readonly charged: Float64Array;
  readonly deferredCharged: Float64Array;
  /** Segments still in a promotion, per debt. */
  readonly pendingPromos: Float64Array;
  readonly segFirst: Float64Array;
  readonly segKind: Array<RateSegment['kind']>;
  readonly sBal: Float64Array;
  readonly sApr: Float64Array;
  readonly sUnits: Float64Array;
  readonly sScale: Float64Array;
  readonly sGoApr: Float64Array;
  readonly sGoUnits: Float64Array;
  readonly sGoScale: Float64Array;
  /** The first month at `go_to_apr` (NO_PROMO when none is pending). */
  readonly sPromoMonth: Float64Array;
  readonly sPromoEnds: Array<IsoDate | null>;
  readonly sDeferred: Float64Array;
  readonly sAccrued: Float64Array;
  /** This month's interest charged to each segment (a deferred charge included), and what was paid to it. */
  readonly sCharged: Float64Array;
  readonly sPaid: Float64Array;
  /** This month's interest added to a loan's accrued interest, and what was paid of it. */
  readonly accruedCharged: Float64Array;
  readonly accruedPaid: Float64Array;
  /** The loop's scratch per debt: this month's payment, months stuck at or below the interest, interest not yet covered by a payment (schedule rows). */
  readonly paid: Float64Array;
  readonly stuck: Float64Array;
  readonly unpaidInterest: Float64Array;
  private readonly sFactor: Float64Array;
  private readonly sGoFactor: Float64Array;
  readonly warnings: MoneyWarning[] | null;
  private readonly equalMonths: boolean;
  private readonly startYear: number;
  private readonly startMonth: number;
  private readonly startDay: number;
  private readonly dates: ReadonlyArray<IsoDate> | undefined;
  private epochs: Float64Array | null = null;

  constructor(debts: ReadonlyArray<DebtTerms>, options: BookOptions) {
    const n = debts.length;
    this.count = n;
    const { year, month, day } = dateParts(options.start);
    this.startYear = year;
    this.startMonth = month;
    this.startDay = day;
    this.dates = options.dates;
    this.equalMonths = options.dayCount === 'equal_months';
    this.warnings = options.warnings === true ? [] : null;
    let segments = 0;
    for (let i = 0; i < n; i++) {
      const segs = debts[i]!.segments;
      segments += segs !== undefined && segs !== null && segs.length > 0 ? segs.length : 1;
    }
    // One backing store for every array of the book: a run allocates it once (a plan runs in well under a millisecond, so allocation shows).
    const arena = new Float64Array(DEBT_ARRAYS * n + 1 + SEGMENT_ARRAYS * segments + 2 * FACTORS * segments);
    let at = 0;
    const take = (length: number): Float64Array => {
      const view = arena.subarray(at, at + length);
      at += length;
      return view;
    };
    this.ids = take(n);
    this.owed = take(n);
    this.rankApr = take(n);
    this.plain = take(n);
    this.plainUnits = take(n);
    this.plainDenominator = take(n);
    this.method = take(n);
    this.minimum = take(n);
    this.escrow = take(n);
    this.accruedInterest = take(n);
    this.charged = take(n);
    this.deferredCharged = take(n);
    this.pendingPromos = take(n);
    this.segFirst = take(n + 1);
    this.sBal = take(segments);
    this.sApr = take(segments);
    this.sUnits = take(segments);
    this.sScale = take(segments);
    this.sGoApr = take(segments);
    this.sGoUnits = take(segments);
    this.sGoScale = take(segments);
    this.sPromoMonth = take(segments);
    this.sDeferred = take(segments);
    this.sAccrued = take(segments);
    this.sCharged = take(segments);
    this.sPaid = take(segments);
    this.accruedCharged = take(n);
    this.accruedPaid = take(n);
    this.paid = take(n);
    this.stuck = take(n);
    this.unpaidInterest = take(n);
    this.sFactor = take(segments * FACTORS);
    this.sGoFactor = take(segments * FACTORS);
    this.formula = new Array<MinimumFormula | null>(n).fill(null);
    {
      let first = 0;
      for (let i = 0; i < n; i++) {
        this.segFirst[i] = first;
        const segs = debts[i]!.segments;
        first += segs !== undefined && segs !== null && segs.length > 0 ? segs.length : 1;
      }
      this.segFirst[n] = first;
    }
    this.segKind = new Array<RateSegment['kind']>(segments).fill('purchase');
    this.sPromoEnds = new Array<IsoDate | null>(segments).fill(null);

    for (let i = 0; i < n; i++) {
      const d = debts[i]!;
      this.ids[i] = d.id;
      const method = methodCode(d.interestMethod);
      this.method[i] = method;
      const escrow = d.escrow ?? 0;
      this.escrow[i] = escrow;
      this.minimum[i] = Math.max(0, d.minimumPayment - escrow);
      this.formula[i] = d.minimumFormula ?? null;
      const accrued = d.accruedInterest ?? 0;
      this.accruedInterest[i] = accrued;
      const segs = d.segments !== undefined && d.segments !== null && d.segments.length > 0 ? d.segments : null;
      let owed = accrued;
      const first = this.segFirst[i]!;
      if (segs === null) {
        this.setRate(first, d.apr, method);
        this.sBal[first] = d.balance;
        owed += d.balance;
      } else {
        segs.forEach((seg, k) => {
          const s = first + k;
          this.segKind[s] = seg.kind;
          this.sBal[s] = seg.balance;
          this.setRate(s, seg.apr, method);
          owed += seg.balance;
          if (seg.promo_ends_on !== undefined && seg.promo_ends_on !== null && seg.go_to_apr !== undefined && seg.go_to_apr !== null) {
            this.sPromoEnds[s] = seg.promo_ends_on;
            this.sPromoMonth[s] = this.firstMonthOnOrAfter(seg.promo_ends_on);
            const go = scaleApr(seg.go_to_apr);
            this.sGoApr[s] = seg.go_to_apr;
            this.sGoUnits[s] = go.units;
            this.sGoScale[s] = go.scale;
            if (method === METHOD_DAILY_COMPOUND)
              for (let f = 0; f < FACTORS; f++)
                this.sGoFactor[s * FACTORS + f] = dailyCompoundFactor(seg.go_to_apr, f === EQUAL_INDEX ? EQUAL_MONTH_DAYS : 28 + f);
            this.sDeferred[s] = seg.deferred_interest === true ? 1 : 0;
            this.sAccrued[s] = seg.deferred_interest === true ? (seg.accrued_deferred_interest ?? 0) : 0;
            this.pendingPromos[i]! += 1;
          }
        });
      }
      this.owed[i] = owed;
      this.rankApr[i] = this.sApr[first]!;
      this.plain[i] = segs === null && method === METHOD_MONTHLY && this.formula[i] === null && accrued === 0 && escrow === 0 ? 1 : 0;
      this.plainUnits[i] = this.sUnits[first]!;
      this.plainDenominator[i] = 1200 * this.sScale[first]!;
    }
  }

  private setRate(s: number, apr: number, method: number): void {
    const scaled = scaleApr(apr);
    this.sApr[s] = apr;
    this.sUnits[s] = scaled.units;
    this.sScale[s] = scaled.scale;
    if (method === METHOD_DAILY_COMPOUND)
      for (let f = 0; f < FACTORS; f++)
        this.sFactor[s * FACTORS + f] = dailyCompoundFactor(apr, f === EQUAL_INDEX ? EQUAL_MONTH_DAYS : 28 + f);
  }

  /** The epoch day of month m's date. */
  epochOfMonth(m: number): number {
    if (this.dates !== undefined) return epochOfDate(this.dateOfMonth(m));
    if (this.epochs !== null && m < this.epochs.length) {
      const known = this.epochs[m]!;
      if (known !== 0) return known;
    }
    const index = this.startYear * 12 + (this.startMonth - 1) + m;
    const y = Math.floor(index / 12);
    const mo = (index % 12) + 1;
    const e = epochOf(y, mo, Math.min(this.startDay, daysInMonth(y, mo)));
    if (m <= 1200) {
      if (this.epochs === null || m >= this.epochs.length) {
        const grown = new Float64Array(Math.min(1201, Math.max(64, m * 2 + 1)));
        if (this.epochs !== null) grown.set(this.epochs);
        this.epochs = grown;
      }
      this.epochs[m] = e;
    }
    return e;
  }

  /** Month m's date. */
  dateOfMonth(m: number): IsoDate {
    if (this.dates !== undefined) {
      // Past the dates given: a month at a time from the last of them.
      const last = this.dates.length - 1;
      return m <= last ? this.dates[m]! : addMonths(this.dates[last]!, m - last);
    }
    return addMonthsToParts(this.startYear, this.startMonth, this.startDay, m);
  }

  /** The first month (≥ 1) dated on or after `date`. */
  firstMonthOnOrAfter(date: IsoDate): number {
    const target = epochOfDate(date);
    if (this.dates !== undefined) {
      let m = 1;
      while (this.epochOfMonth(m) < target) m++;
      return m;
    }
    const { year, month } = dateParts(date);
    let m = Math.max(1, year * 12 + month - (this.startYear * 12 + this.startMonth) - 1);
    while (m > 1 && this.epochOfMonth(m - 1) >= target) m--;
    while (this.epochOfMonth(m) < target) m++;
    return m;
  }

  /** Days from month m − 1's date to month m's date, or 365/12 in the equal-months mode. */
  daysOfMonth(m: number): number {
    return this.equalMonths ? EQUAL_MONTH_DAYS : this.epochOfMonth(m) - this.epochOfMonth(m - 1);
  }

  private interestOn(
    balance: number,
    method: number,
    units: number,
    scale: number,
    apr: number,
    factors: Float64Array,
    s: number,
    days: number,
  ): number {
    if (balance <= 0 || apr === 0) return 0;
    if (method === METHOD_MONTHLY || (method === METHOD_DAILY_SIMPLE && this.equalMonths))
      return roundedQuotient(balance, units, 1200 * scale);
    if (method === METHOD_DAILY_SIMPLE) return roundedQuotient(balance, units * days, 36_500 * scale);
    const index = this.equalMonths ? EQUAL_INDEX : days - 28;
    const factor = index >= 0 && index < FACTORS ? factors[s * FACTORS + index]! : dailyCompoundFactor(apr, days);
    return Math.floor(balance * factor + 0.5);
  }

  /**
   * Month m's promotions and interest for debt i: ends promotions dated by
   * month m (posting a deferred charge with a balance left), accrues the
   * month's interest per segment (and deferred interest in the background).
   * Sets `charged[i]` and `deferredCharged[i]`; returns false on overflow.
   */
  accrue(i: number, m: number): boolean {
    const first = this.segFirst[i]!;
    const last = this.segFirst[i + 1]!;
    if (this.plain[i] === 1) {
      const balance = this.owed[i]!;
      const interest = balance > 0 ? roundedQuotient(balance, this.plainUnits[i]!, this.plainDenominator[i]!) : 0;
      const owed = balance + interest;
      this.sBal[first] = owed;
      this.owed[i] = owed;
      this.sCharged[first] = interest;
      this.sPaid[first] = 0;
      this.charged[i] = interest;
      this.deferredCharged[i] = 0;
      return owed <= MAX_SAFE;
    }
    const method = this.method[i]!;
    const days = method === METHOD_MONTHLY ? 0 : this.daysOfMonth(m);
    let charged = 0;
    let deferred = 0;
    let owed = this.accruedInterest[i]!;
    this.accruedCharged[i] = 0;
    this.accruedPaid[i] = 0;
    for (let s = first; s < last; s++) {
      const promoMonth = this.sPromoMonth[s]!;
      let posted = 0;
      if (promoMonth !== NO_PROMO && m >= promoMonth) {
        // The promotion has ended: the segment is at go_to_apr from this month.
        this.setRate(s, this.sGoApr[s]!, method);
        this.sPromoMonth[s] = NO_PROMO;
        this.pendingPromos[i]! -= 1;
        if (this.sDeferred[s] === 1) {
          if (this.sBal[s]! > 0 && this.sAccrued[s]! > 0) {
            posted = this.sAccrued[s]!;
            if (this.warnings !== null)
              this.warnings.push({ account_id: this.ids[i]!, code: 'deferred_interest_charged', month: m, amount: posted });
          }
          this.sAccrued[s] = 0;
          this.sDeferred[s] = 0;
        }
      }
      const balance = this.sBal[s]!;
      const interest = this.interestOn(balance, method, this.sUnits[s]!, this.sScale[s]!, this.sApr[s]!, this.sFactor, s, days);
      if (this.sDeferred[s] === 1 && balance > 0) {
        this.sAccrued[s]! += this.interestOn(
          balance,
          method,
          this.sGoUnits[s]!,
          this.sGoScale[s]!,
          this.sGoApr[s]!,
          this.sGoFactor,
          s,
          days,
        );
      }
      this.sPaid[s] = 0;
      if (method === METHOD_DAILY_SIMPLE) {
        this.accruedInterest[i]! += interest;
        this.accruedCharged[i]! += interest;
        owed += interest;
        this.sBal[s] = balance + posted;
        this.sCharged[s] = posted;
      } else {
        this.sBal[s] = balance + interest + posted;
        this.sCharged[s] = interest + posted;
      }
      owed += this.sBal[s]!;
      charged += interest + posted;
      deferred += posted;
    }
    this.owed[i] = owed;
    this.charged[i] = charged;
    this.deferredCharged[i] = deferred;
    return owed <= MAX_SAFE;
  }

  /** Debt i's minimum for a month that started owing `startOwed` (escrow excluded), never more than it owes now. */
  minimumOf(i: number, startOwed: number): number {
    const formula = this.formula[i]!;
    let minimum: number;
    if (formula === null) minimum = this.minimum[i]!;
    else {
      minimum = formula.floor;
      for (const term of formula.terms) {
        const amount = percentOf(startOwed, term.percent_of_balance) + (term.plus_interest ? this.charged[i]! : 0) + term.plus_amount;
        if (amount > minimum) minimum = amount;
      }
    }
    const owed = this.owed[i]!;
    return minimum < owed ? minimum : owed;
  }

  /** Whether segment s is in the two months dated before its deferred-interest promotion ends, as of month m (§1026.53(b)(1)). */
  private inDeferredWindow(s: number, m: number): boolean {
    const promoMonth = this.sPromoMonth[s]!;
    return this.sDeferred[s] === 1 && promoMonth !== NO_PROMO && m < promoMonth && m >= promoMonth - 2;
  }

  /**
   * Pays `amount` (at most what debt i owes) in month m, allocated as
   * Regulation Z §1026.53 requires: accrued interest first on a loan; then the
   * minimum part (`excess` false) to the lowest-rate segments first, the excess
   * to the highest rate first, a deferred-interest segment in its last two
   * months before the promotion ends first. A deferred segment paid off in its
   * promotion avoids its charge (a `deferred_interest_avoided` warning).
   * Returns what was paid.
   */
  pay(i: number, amount: number, excess: boolean, m: number): number {
    if (amount <= 0) return 0;
    const first = this.segFirst[i]!;
    if (this.plain[i] === 1) {
      const balance = this.owed[i]!;
      const paid = amount < balance ? amount : balance;
      this.sBal[first] = balance - paid;
      this.sPaid[first]! += paid;
      this.owed[i] = balance - paid;
      return paid;
    }
    let left = amount;
    const accrued = this.accruedInterest[i]!;
    if (accrued > 0) {
      const part = left < accrued ? left : accrued;
      this.accruedInterest[i] = accrued - part;
      this.accruedPaid[i]! += part;
      left -= part;
    }
    const last = this.segFirst[i + 1]!;
    while (left > 0) {
      const best = this.nextSegment(first, last, excess, m);
      if (best < 0) break;
      const balance = this.sBal[best]!;
      const part = left < balance ? left : balance;
      this.sBal[best] = balance - part;
      this.sPaid[best]! += part;
      left -= part;
      if (balance - part === 0 && this.sDeferred[best] === 1 && this.sPromoMonth[best] !== NO_PROMO) {
        // Paid before its date: the deferred interest is never charged.
        const avoided = this.sAccrued[best]!;
        if (avoided > 0 && this.warnings !== null)
          this.warnings.push({ account_id: this.ids[i]!, code: 'deferred_interest_avoided', month: m, amount: avoided });
        this.sAccrued[best] = 0;
      }
    }
    const paid = amount - left;
    this.owed[i]! -= paid;
    return paid;
  }

  /**
   * What debt i's extra money pays in month m before its avalanche rank can
   * change: its accrued interest and the balance of the segment the excess
   * reaches first (the segment `updateRank` ranks it by). Once that is paid,
   * the debt is ranked again by its next segment.
   */
  excessPortion(i: number, m: number): number {
    const best = this.nextSegment(this.segFirst[i]!, this.segFirst[i + 1]!, true, m);
    return this.accruedInterest[i]! + (best < 0 ? 0 : this.sBal[best]!);
  }

  /**
   * The segment of those in [first, last) with a balance that a payment reaches
   * next (-1 when none): the lowest rate for the minimum, the highest for the
   * excess, a deferred segment in its last two months first (Regulation Z
   * §1026.53; docs/decisions/payoff-and-outlook.md).
   */
  private nextSegment(first: number, last: number, excess: boolean, m: number): number {
    let best = -1;
    for (let s = first; s < last; s++) {
      if (this.sBal[s]! <= 0) continue;
      if (best < 0) {
        best = s;
        continue;
      }
      if (excess) {
        const ws = this.inDeferredWindow(s, m);
        const wb = this.inDeferredWindow(best, m);
        if (ws !== wb) {
          if (ws) best = s;
        } else if (this.sApr[s]! > this.sApr[best]!) best = s;
      } else if (this.sApr[s]! < this.sApr[best]!) best = s;
    }
    return best;
  }

  /** Debt i's avalanche rank in month m: the rate of the segment its extra money reaches first (docs/decisions/payoff-and-outlook.md). */
  updateRank(i: number, m: number): void {
    const first = this.segFirst[i]!;
    const best = this.nextSegment(first, this.segFirst[i + 1]!, true, m);
    if (best < 0) {
      this.rankApr[i] = this.sApr[first]!;
      return;
    }
    const promoMonth = this.sPromoMonth[best]!;
    if (this.sDeferred[best] === 1 && promoMonth !== NO_PROMO && promoMonth > m) {
      // 1200 × the charge it would avoid ÷ (balance × months left), the charge
      // being what has accrued so far plus what the balance would accrue at
      // go_to_apr in the months left: go_to_apr + 1200 × accrued ÷ (balance ×
      // months left). Never below go_to_apr, so avalanche pays a deferred
      // promotion before its date when the budget allows rather than a card
      // whose rate is below the one the promotion would post at.
      const monthsLeft = promoMonth - m;
      const rank = this.sGoApr[best]! + (1200 * this.sAccrued[best]!) / (this.sBal[best]! * monthsLeft);
      this.rankApr[i] = Math.max(rank, this.sApr[best]!);
    } else this.rankApr[i] = this.sApr[best]!;
  }

  /** Debt i's principal now (the segments' sum). */
  principalOf(i: number): number {
    if (this.plain[i] === 1) return this.owed[i]!;
    let sum = 0;
    for (let s = this.segFirst[i]!; s < this.segFirst[i + 1]!; s++) sum += this.sBal[s]!;
    return sum;
  }

  /**
   * Debt i's terms now, for storing after a payment or a sandbox month: the
   * segments' balances, a promotion ended (at `go_to_apr`, its promotion fields
   * dropped), deferred interest accrued so far, loan interest accrued.
   */
  termsOf(i: number, original: DebtTerms): DebtTerms {
    const first = this.segFirst[i]!;
    const segs = original.segments;
    const segments =
      segs === undefined || segs === null || segs.length === 0
        ? segs
        : segs.map((seg, k): RateSegment => {
            const s = first + k;
            const ended = this.sPromoEnds[s] !== null && this.sPromoMonth[s] === NO_PROMO;
            return ended
              ? { kind: seg.kind, balance: this.sBal[s]!, apr: this.sApr[s]! }
              : {
                  ...seg,
                  balance: this.sBal[s]!,
                  ...(seg.deferred_interest === true ? { accrued_deferred_interest: this.sAccrued[s]! } : {}),
                };
          });
    return {
      ...original,
      balance: this.principalOf(i),
      segments,
      ...(original.accruedInterest !== undefined && original.accruedInterest !== null
        ? { accruedInterest: this.accruedInterest[i]! }
        : this.accruedInterest[i]! > 0
          ? { accruedInterest: this.accruedInterest[i]! }
          : {}),
    };
  }
}

/** `a` comes strictly before `b` in strategy order, on the current balances. */
type Precedes = (a: number, b: number) => boolean;

const precedence = (strategy: MoneyStrategy, book: DebtBook, ranks: Float64Array): Precedes => {
  const { rankApr, owed, ids } = book;
  switch (strategy) {
    case 'avalanche':
      return (a, b) => {
        const aa = rankApr[a]!,
          ab = rankApr[b]!;
        if (aa !== ab) return aa > ab;
        const ba = owed[a]!,
          bb = owed[b]!;
        return ba !== bb ? ba < bb : ids[a]! < ids[b]!;
      };
    case 'snowball':
      return (a, b) => {
        const ba = owed[a]!,
          bb = owed[b]!;
        if (ba !== bb) return ba < bb;
        const aa = rankApr[a]!,
          ab = rankApr[b]!;
        return aa !== ab ? aa > ab : ids[a]! < ids[b]!;
      };
    case 'custom':
      return (a, b) => (ranks[a] !== ranks[b] ? ranks[a]! < ranks[b]! : ids[a]! < ids[b]!);
    case 'minimum_only':
      return (a, b) => ids[a]! < ids[b]!;
  }
};

/** Insertion sort in place: the order rarely changes from one month to the next. */
const insertionSort = (order: number[], precedes: Precedes): void => {
  for (let i = 1; i < order.length; i++) {
    const v = order[i]!;
    let j = i - 1;
    while (j >= 0 && precedes(v, order[j]!)) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = v;
  }
};

const customRanks = (book: DebtBook, customOrder: ReadonlyArray<number> | undefined): Float64Array => {
  const ranks = new Float64Array(book.count).fill(Number.POSITIVE_INFINITY);
  if (customOrder !== undefined) {
    const rankOf = new Map(customOrder.map((id, k) => [id, k]));
    for (let i = 0; i < book.count; i++) ranks[i] = rankOf.get(book.ids[i]!) ?? Number.POSITIVE_INFINITY;
  }
  return ranks;
};

/** The strategy order of the debts owing something at the start (month 0 ranks), as indexes of the input. */
export const engineOrder = (
  debts: ReadonlyArray<DebtTerms>,
  strategy: MoneyStrategy,
  start: IsoDate,
  customOrder?: ReadonlyArray<number>,
): number[] => startOrder(new DebtBook(debts, { start }), strategy, customOrder);

const startOrder = (book: DebtBook, strategy: MoneyStrategy, customOrder: ReadonlyArray<number> | undefined): number[] => {
  for (let i = 0; i < book.count; i++) if (book.plain[i] === 0) book.updateRank(i, 0);
  const order: number[] = [];
  for (let i = 0; i < book.count; i++) if (book.owed[i]! > 0) order.push(i);
  insertionSort(order, precedence(strategy, book, customRanks(book, customOrder)));
  return order;
};

/** Months a debt may pay no more than its interest before it is called never paid off, when its interest varies month to month. */
const STUCK_MONTHS_VARYING = 12;

/**
 * Run the month loop to the end. Total on any input; meaningful on input the
 * callers' validation accepts. Stops with `never` as soon as a debt can only
 * grow from then on (a lone debt whose whole payment does not cover its
 * interest once no extra payment or promotion change is left to come, or in
 * `minimum_only` any such debt), unless `toLimit`.
 */
export const runEngine = (input: EngineInput): EngineOutcome => {
  const book = new DebtBook(input.debts, { start: input.start, dayCount: input.dayCount, warnings: input.warnings });
  const startingOrder = startOrder(book, input.strategy, input.strategy === 'custom' ? input.customOrder : undefined);
  const { count, owed, ids, charged, deferredCharged, plain, pendingPromos } = book;
  const strategy = input.strategy;
  const rollsOver = strategy !== 'minimum_only';
  const precedes = precedence(strategy, book, customRanks(book, strategy === 'custom' ? input.customOrder : undefined));
  const schedule: EngineMonth[] = [];
  const buildSchedule = input.schedule === true;
  const warnings = book.warnings;
  const observe = input.observe ?? null;
  const toLimit = input.toLimit === true;
  const maxMonths = input.maxMonths;

  let extras: Float64Array | null = null;
  let lastExtraMonth = 0;
  if (rollsOver && input.extraPayments !== undefined && input.extraPayments.length > 0) {
    lastExtraMonth = Math.max(...input.extraPayments.map((x) => x.month));
    extras = new Float64Array(lastExtraMonth + 1);
    for (const x of input.extraPayments) extras[x.month]! += x.amount;
  }

  const { paid, stuck } = book;
  const unpaidInterest = buildSchedule ? book.unpaidInterest : null;
  let anyComplex = false;
  for (let i = 0; i < count; i++) if (plain[i] === 0) anyComplex = true;

  let active: number[] = [];
  for (let i = 0; i < count; i++) if (owed[i]! > 0) active.push(i);
  let order = startingOrder.slice();
  let totalInterest = 0;
  let totalPaid = 0;
  const fail = (reason: EngineFailure, monthsRun: number) => ({
    ok: false as const,
    reason,
    schedule,
    warnings: warnings ?? [],
    monthsRun,
    order: startingOrder,
  });

  const { sBal, sCharged, sPaid, segFirst, minimum, plainUnits, plainDenominator } = book;
  const varying = (i: number): boolean => book.method[i] !== METHOD_MONTHLY;
  /** Per-segment interest and payments of plain debts are kept only for `inspect` (the book's own paths always keep them). */
  const tracking = input.inspect !== undefined;
  const limit = Math.min(input.maxBalance ?? MAX_SAFE, MAX_SAFE);

  for (let month = 1; active.length > 0; month++) {
    if (month > maxMonths) return fail('too_long', month - 1);

    // Each debt's month on its own (interest, then its minimum): one debt's
    // minimum depends on nothing of another's.
    let minimumSum = 0;
    let anyPaidOff = false;
    for (let k = 0; k < active.length; k++) {
      const i = active[k]!;
      let payment: number;
      if (plain[i] === 1) {
        // docs/decisions/payoff-and-outlook.md's arithmetic, inline: the hot path of every plain debt (its truth is `owed`).
        const balance = owed[i]!;
        const interest = roundedQuotient(balance, plainUnits[i]!, plainDenominator[i]!);
        const due = balance + interest;
        if (due > limit) return fail('overflow', month - 1);
        charged[i] = interest;
        totalInterest += interest;
        const m = minimum[i]!;
        payment = m < due ? m : due;
        const left = due - payment;
        owed[i] = left;
        if (tracking) {
          const s = segFirst[i]!;
          sBal[s] = left;
          sCharged[s] = interest;
          sPaid[s] = payment;
        }
        if (left === 0) anyPaidOff = true;
      } else {
        const startOwed = owed[i]!;
        if (!book.accrue(i, month) || owed[i]! > limit) return fail('overflow', month - 1);
        totalInterest += charged[i]!;
        payment = book.pay(i, book.minimumOf(i, startOwed), false, month);
        if (owed[i] === 0) anyPaidOff = true;
      }
      paid[i] = payment;
      minimumSum += payment;
    }
    const spent = minimumSum;
    if (warnings !== null && minimumSum > input.monthlyPayment)
      warnings.push({ account_id: null, code: 'budget_below_minimums', month, amount: minimumSum - input.monthlyPayment });

    let extra = rollsOver ? input.monthlyPayment + (extras !== null && month <= lastExtraMonth ? extras[month]! : 0) - spent : 0;
    if (anyPaidOff) order = order.filter((i) => owed[i]! > 0);
    if (extra > 0 && order.length > 0) {
      if (anyComplex && strategy !== 'custom') for (const i of order) if (plain[i] === 0) book.updateRank(i, month);
      insertionSort(order, precedes);
      if (anyComplex && strategy === 'avalanche') {
        // Segment by segment: a debt with segments keeps the extra only while
        // the segment it reaches first leads; once that segment is paid, the
        // debt is ranked again by its next one (a card's 0% balance transfer
        // does not take the money a deferred promotion elsewhere needs).
        while (extra > 0 && order.length > 0) {
          const i = order[0]!;
          const portion = plain[i] === 1 ? owed[i]! : book.excessPortion(i, month);
          const payment = book.pay(i, extra < portion ? extra : portion, true, month);
          paid[i]! += payment;
          extra -= payment;
          if (owed[i] === 0) {
            anyPaidOff = true;
            order.shift();
          } else if (payment === 0) break;
          else if (plain[i] === 0) {
            book.updateRank(i, month);
            insertionSort(order, precedes);
          }
        }
      }
      for (let k = 0; k < order.length && extra > 0; k++) {
        const i = order[k]!;
        let payment: number;
        if (plain[i] === 1) {
          const balance = owed[i]!;
          payment = extra < balance ? extra : balance;
          owed[i] = balance - payment;
          if (tracking) {
            const s = segFirst[i]!;
            sBal[s] = balance - payment;
            sPaid[s]! += payment;
          }
        } else payment = book.pay(i, extra, true, month);
        paid[i]! += payment;
        extra -= payment;
        if (owed[i] === 0) anyPaidOff = true;
      }
    }

    if (buildSchedule && unpaidInterest !== null) {
      const payments: EngineRow[] = new Array<EngineRow>(active.length);
      for (let k = 0; k < active.length; k++) {
        const i = active[k]!;
        const payment = paid[i]!;
        const interestDue = unpaidInterest[i]! + charged[i]!;
        const interest = Math.min(payment, interestDue);
        unpaidInterest[i] = interestDue - interest;
        payments[k] = { account_id: ids[i]!, payment, interest, principal: payment - interest, balance: owed[i]! };
      }
      schedule.push({ month, date: book.dateOfMonth(month), payments });
    }
    for (let k = 0; k < active.length; k++) totalPaid += paid[active[k]!]!;
    if (observe !== null) observe(month, owed);
    if (input.inspect !== undefined) input.inspect(month, book);

    if (!toLimit && (!rollsOver || (active.length === 1 && month >= lastExtraMonth))) {
      for (let k = 0; k < active.length; k++) {
        const i = active[k]!;
        if (owed[i]! > 0 && paid[i]! <= charged[i]! - deferredCharged[i]! && pendingPromos[i] === 0) {
          stuck[i]! += 1;
          // Monthly interest is a fixed rate on a balance that only grows from here: one month tells;
          // daily interest varies with the month's length, so a year of it does.
          if (stuck[i]! >= (varying(i) ? STUCK_MONTHS_VARYING : 1)) return fail('never', month);
        } else stuck[i] = 0;
      }
    }
    if (anyPaidOff) {
      active = active.filter((i) => owed[i]! > 0);
      order = order.filter((i) => owed[i]! > 0);
    }
    if (active.length === 0) {
      if (!Number.isSafeInteger(totalInterest) || !Number.isSafeInteger(totalPaid)) return fail('overflow', month);
      return {
        ok: true,
        months: month,
        totalInterest,
        totalPaid,
        schedule,
        warnings: warnings ?? [],
        monthsRun: month,
        order: startingOrder,
      };
    }
  }
  return { ok: true, months: 0, totalInterest, totalPaid, schedule, warnings: warnings ?? [], monthsRun: 0, order: startingOrder };
};

/**
 * A debt's minimum in month 1 from `start` (docs/decisions/payoff-and-outlook.md `effective_minimum_payment`:
 * this month's formula minimum), escrow excluded, never more than it owes then:
 * month 1's interest accrued, then the fixed minimum or the formula.
 * @example firstMonthMinimum({ id: 1, balance: 500_000, apr: 24, minimumPayment: 0, minimumFormula: { floor: 2_500, terms: [{ percent_of_balance: 1, plus_interest: true, plus_amount: 0 }] } }, '2026-01-15') === 15_000
 */
export const firstMonthMinimum = (debt: DebtTerms, start: IsoDate, dayCount: DayCount = 'actual'): number => {
  const book = new DebtBook([debt], { start, dayCount });
  const startOwed = book.owed[0]!;
  if (startOwed === 0) return 0;
  book.accrue(0, 1);
  return book.minimumOf(0, startOwed);
};
