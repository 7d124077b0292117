/**
 * Debt payoff planning (DESIGN 4 "Month n", 7.2 expected_payoff_date, 7.6).
 *
 * One month loop, in integer cents, is the reference for every projection:
 * payoff plans, the debt calculator (debt-calculator.ts) and an account's
 * `expected_payoff_date`. Each month n (dated `addMonths(today, n)`):
 *
 * 1. every debt with a balance accrues interest = round-half-up(balance × apr / 1200);
 * 2. every debt is paid `min(minimum, balance)`;
 * 3. what is left of the budget goes to the debts still owing, in strategy
 *    order, until it is spent (a paid-off debt's minimum rolls over to the
 *    next debt in the same month).
 *
 * Avalanche order: highest APR, then smaller balance, then lower id.
 * Snowball order: smaller balance, then higher APR, then lower id.
 * Balances used for ordering are those after the month's minimums.
 */
import * as E from 'fp-ts/lib/Either.js';
import { validationError, type DomainError, type ErrorDetail } from './errors.js';
import type { ScheduleMonth, ScheduledPayment, Strategy } from './payment-plan.js';
import { addMonths, type Cents, type Id, type IsoDate } from './primitives.js';

/** No projection runs longer than this (DESIGN 7.2, 7.6, 7.7). */
export const MAX_PAYOFF_MONTHS = 600;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_APR_DECIMALS = 6;

// ---------------------------------------------------------------------------
// Interest arithmetic
// ---------------------------------------------------------------------------

/**
 * An APR as an exact fraction `units / scale` percent, so interest is computed
 * on integers only. `units` is the APR written with the fewest decimals (up to
 * 6) whose value as a double is exactly `apr`: the JSON number 19.99 becomes
 * 1999 / 100, never 19.989999999999998. An APR with more than 6 decimals is
 * rounded to 6 (a millionth of a percent is far below a cent on any balance).
 */
interface ScaledApr {
  readonly units: number;
  /** 1200 × 10^decimals: the denominator of the monthly rate. */
  readonly denominator: number;
}

const scaleApr = (apr: number): ScaledApr => {
  let scale = 1;
  for (let decimals = 0; decimals < MAX_APR_DECIMALS; decimals++) {
    const units = Math.round(apr * scale);
    // Division of two exact doubles is correctly rounded, so equality means
    // `apr` is the double nearest to the decimal units/scale.
    if (units / scale === apr) return { units, denominator: 1200 * scale };
    scale *= 10;
  }
  return { units: Math.round(apr * scale), denominator: 1200 * scale };
};

/**
 * round-half-up(balance × units / denominator), exact for any safe integer
 * balance: plain doubles while the numerator is a safe integer (the usual
 * case, e.g. balances below $45 billion at 19.99%), BigInt beyond.
 */
const interestOf = (balance: number, units: number, denominator: number): number => {
  const half = denominator / 2; // denominator is a multiple of 1200, so even
  const product = balance * units;
  if (product < MAX_SAFE - half) {
    const x = product + half;
    let q = Math.floor(x / denominator);
    // The float quotient can be one off near an integer; fix it by remainder.
    const r = x - q * denominator;
    if (r < 0) q -= 1;
    else if (r >= denominator) q += 1;
    return q;
  }
  return Number((BigInt(balance) * BigInt(units) + BigInt(half)) / BigInt(denominator));
};

/**
 * One month of interest on a balance: round-half-up(balance × apr / 1200), in
 * exact integer arithmetic (see `scaleApr`).
 * @example monthlyInterest(1_000_000 as Cents, 20) === 16_667 // $166.666… → $166.67
 */
export const monthlyInterest = (balance: Cents, apr: number): Cents => {
  const { units, denominator } = scaleApr(apr);
  return interestOf(balance, units, denominator) as Cents;
};

// ---------------------------------------------------------------------------
// The month loop
// ---------------------------------------------------------------------------

/** A debt as the month loop sees it. */
export interface PayoffDebt {
  readonly id: Id;
  readonly balance: Cents;
  /** Percent, e.g. 19.99. */
  readonly apr: number;
  readonly minimumPayment: Cents;
}

type LoopOutcome =
  | { readonly ok: true; readonly months: number; readonly totalInterest: number; readonly totalPaid: number }
  | { readonly ok: false; readonly reason: 'never' | 'too_long' | 'overflow' };

/**
 * The debts of one run in parallel typed arrays: the loop touches them
 * 50 × 360 times per plan, so no per-debt objects are allocated per month.
 */
interface LoopState {
  readonly count: number;
  readonly ids: Float64Array;
  readonly aprs: Float64Array;
  readonly aprUnits: Float64Array;
  readonly aprDenominators: Float64Array;
  readonly minimums: Float64Array;
  readonly balances: Float64Array;
}

const loopState = (debts: ReadonlyArray<PayoffDebt>): LoopState => {
  const count = debts.length;
  const state: LoopState = {
    count,
    ids: new Float64Array(count),
    aprs: new Float64Array(count),
    aprUnits: new Float64Array(count),
    aprDenominators: new Float64Array(count),
    minimums: new Float64Array(count),
    balances: new Float64Array(count),
  };
  debts.forEach((d, i) => {
    const scaled = scaleApr(d.apr);
    state.ids[i] = d.id;
    state.aprs[i] = d.apr;
    state.aprUnits[i] = scaled.units;
    state.aprDenominators[i] = scaled.denominator;
    state.minimums[i] = d.minimumPayment;
    state.balances[i] = d.balance;
  });
  return state;
};

/** `a` comes strictly before `b` in strategy order, on the current balances. */
type Precedes = (a: number, b: number) => boolean;

const precedence = (strategy: Strategy, s: LoopState): Precedes => {
  const { aprs, balances, ids } = s;
  return strategy === 'avalanche'
    ? (a, b) => {
        const aa = aprs[a]!, ab = aprs[b]!;
        if (aa !== ab) return aa > ab;
        const ba = balances[a]!, bb = balances[b]!;
        return ba !== bb ? ba < bb : ids[a]! < ids[b]!;
      }
    : (a, b) => {
        const ba = balances[a]!, bb = balances[b]!;
        if (ba !== bb) return ba < bb;
        const aa = aprs[a]!, ab = aprs[b]!;
        return aa !== ab ? aa > ab : ids[a]! < ids[b]!;
      };
};

/**
 * Insertion sort in place. The order rarely changes from one month to the
 * next, so this is one comparison per debt in the common case instead of a
 * full sort every month.
 */
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

/** Strategy order of the debts with a balance, on their current balances. */
const strategyOrder = (s: LoopState, strategy: Strategy): number[] => {
  const order: number[] = [];
  for (let i = 0; i < s.count; i++) if (s.balances[i]! > 0) order.push(i);
  insertionSort(order, precedence(strategy, s));
  return order;
};

/**
 * Run the month loop to the end (mutates `s.balances`). When `schedule` is
 * given, one ScheduleMonth per month is appended to it, with a row per debt
 * that had a balance at the start of the month, in input order.
 *
 * Rows split each payment into interest and principal so that both are never
 * negative and `payment = interest + principal` holds row by row: a payment
 * first covers the debt's interest not yet paid (this month's and any that a
 * minimum below the interest left unpaid earlier), the rest is principal.
 * Over a finished plan, Σ interest = interest charged and Σ principal =
 * the initial balances.
 *
 * Stops with `never` as soon as a lone remaining debt's whole budget does not
 * exceed its interest: its balance can then only grow, month after month.
 */
const runMonthLoop = (
  s: LoopState,
  budget: number,
  strategy: Strategy,
  maxMonths: number,
  schedule: ScheduleMonth[] | null,
  today: IsoDate,
): LoopOutcome => {
  const { count, balances, minimums, aprUnits, aprDenominators, ids } = s;
  const charged = new Float64Array(count);
  const paid = new Float64Array(count);
  const unpaidInterest = schedule === null ? null : new Float64Array(count);
  const precedes = precedence(strategy, s);

  let active: number[] = [];
  for (let i = 0; i < count; i++) if (balances[i]! > 0) active.push(i);
  let order = active.slice();
  let totalInterest = 0;
  let totalPaid = 0;

  for (let month = 1; active.length > 0; month++) {
    if (month > maxMonths) return { ok: false, reason: 'too_long' };

    for (const i of active) {
      const interest = interestOf(balances[i]!, aprUnits[i]!, aprDenominators[i]!);
      const owed = balances[i]! + interest;
      if (owed > MAX_SAFE) return { ok: false, reason: 'overflow' };
      balances[i] = owed;
      charged[i] = interest;
      totalInterest += interest;
    }

    let spent = 0;
    let anyPaidOff = false;
    for (const i of active) {
      const payment = Math.min(minimums[i]!, balances[i]!);
      balances[i]! -= payment;
      paid[i] = payment;
      spent += payment;
      if (balances[i] === 0) anyPaidOff = true;
    }

    let extra = budget - spent;
    if (anyPaidOff) order = order.filter((i) => balances[i]! > 0);
    if (extra > 0 && order.length > 0) {
      insertionSort(order, precedes);
      for (let k = 0; k < order.length && extra > 0; k++) {
        const i = order[k]!;
        const payment = Math.min(extra, balances[i]!);
        balances[i]! -= payment;
        paid[i]! += payment;
        extra -= payment;
        if (balances[i] === 0) anyPaidOff = true;
      }
    }

    if (schedule !== null && unpaidInterest !== null) {
      const payments: ScheduledPayment[] = new Array<ScheduledPayment>(active.length);
      for (let k = 0; k < active.length; k++) {
        const i = active[k]!;
        const payment = paid[i]!;
        const interestDue = unpaidInterest[i]! + charged[i]!;
        const interest = Math.min(payment, interestDue);
        unpaidInterest[i] = interestDue - interest;
        payments[k] = {
          account_id: ids[i]! as Id,
          payment: payment as Cents,
          interest: interest as Cents,
          principal: (payment - interest) as Cents,
          balance: balances[i]! as Cents,
        };
      }
      schedule.push({ month, date: addMonths(today, month), payments });
    }
    for (const i of active) totalPaid += paid[i]!;

    if (active.length === 1) {
      const i = active[0]!;
      if (balances[i]! > 0 && paid[i]! <= charged[i]!) return { ok: false, reason: 'never' };
    }
    if (anyPaidOff) {
      active = active.filter((i) => balances[i]! > 0);
      order = order.filter((i) => balances[i]! > 0);
    }
    if (active.length === 0) {
      if (!Number.isSafeInteger(totalInterest) || !Number.isSafeInteger(totalPaid)) return { ok: false, reason: 'overflow' };
      return { ok: true, months: month, totalInterest, totalPaid };
    }
  }
  return { ok: true, months: 0, totalInterest, totalPaid };
};

/** What a projection of one debt paid off by one fixed payment yields. */
export interface SingleDebtProjection {
  readonly months: number;
  readonly total_interest: Cents;
  readonly total_paid: Cents;
}

/** Why a projection does not pay off. */
export type ProjectionFailure = 'never' | 'too_long' | 'overflow';

/**
 * One debt paid `payment` a month through the month loop, without a schedule
 * (the debt calculator and `expectedPayoffDate` build on it). A balance of 0
 * is paid off in 0 months.
 * @example projectSingleDebt(1_000_000 as Cents, 20, 50_000 as Cents) // Right({ months: 25, total_interest: 226_606, … })
 */
export const projectSingleDebt = (
  balance: Cents,
  apr: number,
  payment: Cents,
  maxMonths: number = MAX_PAYOFF_MONTHS,
): E.Either<ProjectionFailure, SingleDebtProjection> => {
  const s = loopState([{ id: 1 as Id, balance, apr, minimumPayment: payment }]);
  const outcome = runMonthLoop(s, payment, 'avalanche', maxMonths, null, '2000-01-01' as IsoDate);
  return outcome.ok
    ? E.right({ months: outcome.months, total_interest: outcome.totalInterest as Cents, total_paid: outcome.totalPaid as Cents })
    : E.left(outcome.reason);
};

// ---------------------------------------------------------------------------
// expected_payoff_date (DESIGN 7.2)
// ---------------------------------------------------------------------------

export interface MinimumOnlyInput {
  readonly balance: Cents;
  readonly apr: number;
  readonly minimumPayment: Cents;
}

/**
 * The date the balance reaches 0 paying only the minimum, or null (DESIGN 7.2):
 * null when the balance is 0, the minimum is 0, it never pays off or takes
 * more than 600 months. Runs the month loop without building a schedule.
 * @example expectedPayoffDate({ balance: 1_000_000, apr: 20, minimumPayment: 50_000 }, '2024-01-15') === '2026-02-15'
 */
export const expectedPayoffDate = (input: MinimumOnlyInput, today: IsoDate): IsoDate | null => {
  const { balance, apr, minimumPayment } = input;
  if (!isCents(balance) || balance === 0 || !isCents(minimumPayment) || minimumPayment === 0 || !isApr(apr)) return null;
  const projection = projectSingleDebt(balance, apr, minimumPayment);
  return E.isRight(projection) ? addMonths(today, projection.right.months) : null;
};

// ---------------------------------------------------------------------------
// Payoff plans (DESIGN 7.6)
// ---------------------------------------------------------------------------

export interface PayoffPlanInput {
  readonly strategy: Strategy;
  /** The whole monthly budget, minimums included. */
  readonly monthlyPayment: Cents;
  readonly debts: ReadonlyArray<PayoffDebt>;
  readonly today: IsoDate;
}

export interface PayoffPlanResult {
  /** Strategy order of the debts with a balance, on today's balances. */
  readonly order: Id[];
  readonly months: number;
  /** The date of the last month. */
  readonly payoff_date: IsoDate;
  readonly total_interest: Cents;
  readonly total_paid: Cents;
  readonly schedule: ScheduleMonth[];
}

const isCents = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;
const isApr = (n: number): boolean => Number.isFinite(n) && n >= 0 && n <= 100;

const TOO_LONG = `would take more than ${MAX_PAYOFF_MONTHS} months`;

/** The month loop's failure as the API's validation error, on the payment field. */
export const projectionError = (reason: ProjectionFailure, subject: string): DomainError => {
  const message =
    reason === 'never'
      ? 'monthly_payment does not cover the interest: the balance would never be paid off'
      : reason === 'too_long'
        ? `${subject} ${TOO_LONG}`
        : `${subject} involves amounts beyond the supported range`;
  return validationError(message, [{ path: 'monthly_payment', message: reason === 'too_long' ? TOO_LONG : message }]);
};

const validatePlan = (input: PayoffPlanInput): ReadonlyArray<ErrorDetail> => {
  const details: ErrorDetail[] = [];
  const { monthlyPayment, debts } = input;
  if (!isCents(monthlyPayment) || monthlyPayment === 0)
    details.push({ path: 'monthly_payment', message: 'must be a positive whole number of cents' });
  const seen = new Set<number>();
  let minimums = 0;
  let owing = 0;
  for (const d of debts) {
    if (seen.has(d.id)) details.push({ path: 'account_ids', message: `account ${d.id} is listed more than once` });
    seen.add(d.id);
    if (!isCents(d.balance)) details.push({ path: 'account_ids', message: `account ${d.id}: balance must be a whole number of cents ≥ 0` });
    if (!isApr(d.apr)) details.push({ path: 'account_ids', message: `account ${d.id}: apr must be between 0 and 100` });
    if (!isCents(d.minimumPayment))
      details.push({ path: 'account_ids', message: `account ${d.id}: minimum payment must be a whole number of cents ≥ 0` });
    if (d.balance > 0) {
      owing++;
      minimums += d.minimumPayment;
      if (d.minimumPayment === 0) details.push({ path: 'account_ids', message: `account ${d.id}: minimum payment is 0` });
    }
  }
  if (owing === 0) details.push({ path: 'account_ids', message: 'no debt with a balance to pay off' });
  else if (isCents(monthlyPayment) && monthlyPayment < minimums)
    details.push({ path: 'monthly_payment', message: `must cover the sum of minimum payments (${minimums} cents)` });
  return details;
};

/**
 * A debt payoff plan with its month-by-month schedule (DESIGN 7.6). Debts with
 * a balance of 0 are skipped (no `order` entry, no schedule rows).
 *
 * Left(validation_error) with details when there is no debt with a balance,
 * a debt with a balance has a minimum of 0, the budget is below the sum of
 * minimums, or the plan would take more than 600 months.
 * @example
 * planPayoff({ strategy: 'avalanche', monthlyPayment: 50_000, today: '2024-01-15',
 *   debts: [{ id: 1, balance: 1_000_000, apr: 20, minimumPayment: 25_000 }] })
 * // Right({ months: 25, total_interest: 226_606, payoff_date: '2026-02-15', … })
 */
export const planPayoff = (input: PayoffPlanInput): E.Either<DomainError, PayoffPlanResult> => {
  const details = validatePlan(input);
  if (details.length > 0) return E.left(validationError('Invalid payment plan', details));

  const s = loopState(input.debts);
  const order = strategyOrder(s, input.strategy).map((i) => s.ids[i]! as Id);
  const schedule: ScheduleMonth[] = [];
  const outcome = runMonthLoop(s, input.monthlyPayment, input.strategy, MAX_PAYOFF_MONTHS, schedule, input.today);
  if (!outcome.ok) return E.left(projectionError(outcome.reason === 'never' ? 'too_long' : outcome.reason, 'The payment plan'));
  return E.right({
    order,
    months: outcome.months,
    payoff_date: addMonths(input.today, outcome.months),
    total_interest: outcome.totalInterest as Cents,
    total_paid: outcome.totalPaid as Cents,
    schedule,
  });
};
