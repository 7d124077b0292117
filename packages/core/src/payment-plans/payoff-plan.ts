/**
 * Debt payoff planning (docs/decisions/api-conventions.md "Month n", 7.2 expected_payoff_date, 7.6, 7.10).
 *
 * One month loop, in integer cents, is the reference for every projection:
 * payoff plans of every strategy, strategy comparisons, progress forecasts,
 * the debt calculator (debt-calculator.ts) and an account's
 * `expected_payoff_date`. Each month n (dated `addMonths(start, n)`):
 *
 * 1. every debt with a balance accrues interest = round-half-up(balance × apr / 1200);
 * 2. every debt is paid `min(minimum, balance)`;
 * 3. what is left of the budget, plus that month's one-time extra payments,
 *    goes to the debts still owing, in strategy order, until it is spent (a
 *    paid-off debt's minimum rolls over to the next debt in the same month).
 *
 * A strategy is only two things: the order of step 3, and whether step 3
 * happens at all. Avalanche order: highest APR, then smaller balance, then
 * lower id. Snowball order: smaller balance, then higher APR, then lower id
 * (balances after the month's minimums). Custom: the given account order.
 * `minimum_only` skips step 3: the rest of the budget, extra payments and
 * freed minimums are not spent.
 */
import * as E from 'fp-ts/lib/Either.js';
import { validationError, type ValidationError, type ErrorDetail } from '../shared/errors.js';
import { MAX_EXTRA_PAYMENTS, MAX_PLAN_MONTH, type ExtraPayment, type ScheduleMonth, type ScheduledPayment, type Strategy } from './payment-plan.js';
import { addMonths, type AccountId, type Cents, type IsoDate } from '../shared/primitives.js';

/** No projection runs longer than this (docs/api/reference.md, docs/decisions/payoff-and-outlook.md). */
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
  readonly id: AccountId;
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
  /** Position of each debt in a custom order (unlisted debts last). */
  readonly ranks: Float64Array;
}

const loopState = (debts: ReadonlyArray<PayoffDebt>, customOrder: ReadonlyArray<number> = []): LoopState => {
  const count = debts.length;
  const state: LoopState = {
    count,
    ids: new Float64Array(count),
    aprs: new Float64Array(count),
    aprUnits: new Float64Array(count),
    aprDenominators: new Float64Array(count),
    minimums: new Float64Array(count),
    balances: new Float64Array(count),
    ranks: new Float64Array(count),
  };
  const rankOf = new Map(customOrder.map((id, k) => [id, k]));
  debts.forEach((d, i) => {
    const scaled = scaleApr(d.apr);
    state.ids[i] = d.id;
    state.aprs[i] = d.apr;
    state.aprUnits[i] = scaled.units;
    state.aprDenominators[i] = scaled.denominator;
    state.minimums[i] = d.minimumPayment;
    state.balances[i] = d.balance;
    state.ranks[i] = rankOf.get(d.id) ?? Number.POSITIVE_INFINITY;
  });
  return state;
};

/** `a` comes strictly before `b` in strategy order, on the current balances. */
type Precedes = (a: number, b: number) => boolean;

const precedence = (strategy: Strategy, s: LoopState): Precedes => {
  const { aprs, balances, ids, ranks } = s;
  switch (strategy) {
    case 'avalanche':
      return (a, b) => {
        const aa = aprs[a]!, ab = aprs[b]!;
        if (aa !== ab) return aa > ab;
        const ba = balances[a]!, bb = balances[b]!;
        return ba !== bb ? ba < bb : ids[a]! < ids[b]!;
      };
    case 'snowball':
      return (a, b) => {
        const ba = balances[a]!, bb = balances[b]!;
        if (ba !== bb) return ba < bb;
        const aa = aprs[a]!, ab = aprs[b]!;
        return aa !== ab ? aa > ab : ids[a]! < ids[b]!;
      };
    case 'custom':
      return (a, b) => (ranks[a] !== ranks[b] ? ranks[a]! < ranks[b]! : ids[a]! < ids[b]!);
    case 'minimum_only':
      // No extra money to direct: the order only lists the debts, by id.
      return (a, b) => ids[a]! < ids[b]!;
  }
};

/** Whether money beyond the minimums (the rest of the budget, freed minimums, extra payments) is spent. */
const spendsBeyondMinimums = (strategy: Strategy): boolean => strategy !== 'minimum_only';

/**
 * What the loop spends: the budget every month, plus one-time extras by month
 * (`extras[m]`, summed per month; null when there are none).
 */
interface LoopBudget {
  readonly monthly: number;
  readonly extras: Float64Array | null;
  /** The last month with an extra payment (0 without). */
  readonly lastExtraMonth: number;
}

const loopBudget = (monthly: number, extraPayments: ReadonlyArray<ExtraPayment> = []): LoopBudget => {
  if (extraPayments.length === 0) return { monthly, extras: null, lastExtraMonth: 0 };
  const lastExtraMonth = Math.max(...extraPayments.map((x) => x.month));
  const extras = new Float64Array(lastExtraMonth + 1);
  for (const x of extraPayments) extras[x.month]! += x.amount;
  return { monthly, extras, lastExtraMonth };
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
 * Called after each month's payments with the balances of every debt (indexed
 * as the input's debts); it must not change them.
 */
export type MonthObserver = (month: number, balances: Float64Array) => void;

/** How a run ends: at payoff, or also as soon as the plan can never pay off (`never`). */
interface LoopOptions {
  readonly observe: MonthObserver | null;
  /** Keep going when the plan can never pay off, up to `maxMonths` (then `too_long`). */
  readonly toLimit: boolean;
}

const PLAIN_RUN: LoopOptions = { observe: null, toLimit: false };

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
 * Stops with `never` as soon as a debt's balance can only grow from then on:
 * a lone remaining debt whose whole payment does not exceed its interest
 * once no extra payment is left to come, or (minimum_only, where nothing
 * rolls over) any debt whose minimum does not exceed its interest.
 */
const runMonthLoop = (
  s: LoopState,
  budget: LoopBudget,
  strategy: Strategy,
  maxMonths: number,
  schedule: ScheduleMonth[] | null,
  start: IsoDate,
  options: LoopOptions = PLAIN_RUN,
): LoopOutcome => {
  const { count, balances, minimums, aprUnits, aprDenominators, ids } = s;
  const charged = new Float64Array(count);
  const paid = new Float64Array(count);
  const unpaidInterest = schedule === null ? null : new Float64Array(count);
  const precedes = precedence(strategy, s);
  const rollsOver = spendsBeyondMinimums(strategy);
  const { extras, lastExtraMonth } = budget;

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

    let extra = rollsOver ? budget.monthly + (extras !== null && month <= lastExtraMonth ? extras[month]! : 0) - spent : 0;
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
          account_id: ids[i]! as AccountId,
          payment: payment as Cents,
          interest: interest as Cents,
          principal: (payment - interest) as Cents,
          balance: balances[i]! as Cents,
        };
      }
      schedule.push({ month, date: addMonths(start, month), payments });
    }
    for (const i of active) totalPaid += paid[i]!;
    if (options.observe !== null) options.observe(month, balances);

    if (options.toLimit) {
      // No early `never`: the caller wants every month up to the limit.
    } else if (!rollsOver) {
      for (const i of active) if (balances[i]! > 0 && paid[i]! <= charged[i]!) return { ok: false, reason: 'never' };
    } else if (active.length === 1 && month >= lastExtraMonth) {
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
  const s = loopState([{ id: 1 as AccountId, balance, apr, minimumPayment: payment }]);
  const outcome = runMonthLoop(s, loopBudget(payment), 'avalanche', maxMonths, null, '2000-01-01' as IsoDate);
  return outcome.ok
    ? E.right({ months: outcome.months, total_interest: outcome.totalInterest as Cents, total_paid: outcome.totalPaid as Cents })
    : E.left(outcome.reason);
};

// ---------------------------------------------------------------------------
// expected_payoff_date (docs/api/reference.md)
// ---------------------------------------------------------------------------

export interface MinimumOnlyInput {
  readonly balance: Cents;
  readonly apr: number;
  readonly minimumPayment: Cents;
}

/**
 * The date the balance reaches 0 paying only the minimum, or null (docs/api/reference.md):
 * null when the balance is 0, the minimum is 0, it never pays off or takes
 * more than 600 months. Runs the month loop without building a schedule.
 * @example expectedPayoffDate({ balance: 1_000_000, apr: 20, minimumPayment: 50_000 }, '2024-01-15') === '2026-02-15'
 */
export const expectedPayoffDate = (input: MinimumOnlyInput, today: IsoDate, months: MinimumOnlyMonths = minimumOnlyMonths): IsoDate | null => {
  const { balance, apr, minimumPayment } = input;
  if (!isCents(balance) || balance === 0 || !isCents(minimumPayment) || minimumPayment === 0 || !isApr(apr)) return null;
  const n = months(balance, apr, minimumPayment);
  return n === null ? null : addMonths(today, n);
};

/** How many (balance, APR, minimum) answers a `minimumOnlyMemo` keeps by default. */
export const MINIMUM_ONLY_MEMO_SIZE = 4096;

/** The months to pay `balance` off at `apr` paying only `minimumPayment`, or null when it never does within the loop's limit. */
export type MinimumOnlyMonths = (balance: Cents, apr: number, minimumPayment: Cents) => number | null;

/** Worked out every time (no memo). */
export const minimumOnlyMonths: MinimumOnlyMonths = (balance, apr, minimumPayment) => {
  const projection = projectSingleDebt(balance, apr, minimumPayment);
  return E.isRight(projection) ? projection.right.months : null;
};

/**
 * `minimumOnlyMonths` remembered: every account read renders
 * `expected_payoff_date`, and the answer depends on these three numbers only,
 * so its owner (the application, `createApplication`) keeps one of these
 * instead of running up to 600 months per read. Bounded, the oldest entry
 * dropped first. The domain keeps no state: the memo is a value handed in.
 */
export const minimumOnlyMemo = (size: number = MINIMUM_ONLY_MEMO_SIZE): MinimumOnlyMonths => {
  const entries = new Map<string, number | null>();
  return (balance, apr, minimumPayment) => {
    const key = `${balance}:${apr}:${minimumPayment}`;
    const known = entries.get(key);
    if (known !== undefined) return known;
    const months = minimumOnlyMonths(balance, apr, minimumPayment);
    if (entries.size >= size) entries.delete(entries.keys().next().value!);
    entries.set(key, months);
    return months;
  };
};

// ---------------------------------------------------------------------------
// Payoff plans (docs/decisions/payoff-and-outlook.md)
// ---------------------------------------------------------------------------

/** What every projection of a set of debts takes, whatever the strategy. */
export interface PayoffBudgetInput {
  /** The whole monthly budget, minimums included. */
  readonly monthlyPayment: Cents;
  readonly debts: ReadonlyArray<PayoffDebt>;
  /**
   * The plan's start date (docs/decisions/payoff-and-outlook.md `start_date`; today unless given):
   * month n falls on this date plus n months.
   */
  readonly today: IsoDate;
  /**
   * The order extra money goes in, a permutation of exactly the debts' ids:
   * required by `custom`, refused by the other strategies of a plan.
   */
  readonly customOrder?: ReadonlyArray<AccountId>;
  /** One-time additions to a month's budget (docs/decisions/payoff-and-outlook.md); ignored by `minimum_only`. */
  readonly extraPayments?: ReadonlyArray<ExtraPayment>;
}

export interface PayoffPlanInput extends PayoffBudgetInput {
  readonly strategy: Strategy;
}

/** A projection without its schedule: what comparisons and forecasts need. */
export interface PayoffProjection {
  /** Strategy order of the debts with a balance, on the starting balances. */
  readonly order: AccountId[];
  readonly months: number;
  readonly total_interest: Cents;
  readonly total_paid: Cents;
}

export interface PayoffPlanResult extends PayoffProjection {
  /** The date of the last month. */
  readonly payoff_date: IsoDate;
  readonly schedule: ScheduleMonth[];
}

const isCents = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;
const isApr = (n: number): boolean => Number.isFinite(n) && n >= 0 && n <= 100;

const TOO_LONG = `would take more than ${MAX_PAYOFF_MONTHS} months`;

/** The month loop's failure as the API's validation error, on the payment field. */
export const projectionError = (reason: ProjectionFailure, subject: string): ValidationError => {
  const message =
    reason === 'never'
      ? 'monthly_payment does not cover the interest: the balance would never be paid off'
      : reason === 'too_long'
        ? `${subject} ${TOO_LONG}`
        : `${subject} involves amounts beyond the supported range`;
  return validationError(message, [{ path: 'monthly_payment', message: reason === 'too_long' ? TOO_LONG : message }]);
};

const listIds = (ids: ReadonlyArray<number>): string => ids.join(', ');

/** A custom order must list every debt of the plan exactly once, and nothing else. */
const customOrderProblems = (customOrder: ReadonlyArray<number>, debts: ReadonlyArray<PayoffDebt>): ErrorDetail[] => {
  const details: ErrorDetail[] = [];
  const planIds = new Set<number>(debts.map((d) => d.id));
  const listed = new Set<number>();
  for (const id of customOrder) {
    if (listed.has(id)) details.push({ path: 'custom_order', message: `account ${id} is listed more than once` });
    listed.add(id);
  }
  const missing = [...planIds].filter((id) => !listed.has(id));
  const extra = [...listed].filter((id) => !planIds.has(id));
  if (missing.length > 0)
    details.push({ path: 'custom_order', message: `must list every account of the plan exactly once; missing: ${listIds(missing)}` });
  if (extra.length > 0) details.push({ path: 'custom_order', message: `lists accounts that are not in the plan: ${listIds(extra)}` });
  return details;
};

const extraPaymentProblems = (monthlyPayment: number, extras: ReadonlyArray<ExtraPayment>): ErrorDetail[] => {
  const details: ErrorDetail[] = [];
  if (extras.length > MAX_EXTRA_PAYMENTS)
    details.push({ path: 'extra_payments', message: `at most ${MAX_EXTRA_PAYMENTS} extra payments` });
  const byMonth = new Map<number, number>();
  extras.forEach((x, k) => {
    if (!Number.isSafeInteger(x.month) || x.month < 1 || x.month > MAX_PLAN_MONTH)
      details.push({ path: `extra_payments.${k}.month`, message: `must be a whole number from 1 to ${MAX_PLAN_MONTH}` });
    if (!isCents(x.amount) || x.amount === 0)
      details.push({ path: `extra_payments.${k}.amount`, message: 'must be a positive whole number of cents' });
    byMonth.set(x.month, (byMonth.get(x.month) ?? 0) + x.amount);
  });
  if ([...byMonth.values()].some((sum) => !Number.isSafeInteger(monthlyPayment + sum)))
    details.push({ path: 'extra_payments', message: 'a month\'s budget plus its extra payments is beyond the supported range' });
  return details;
};

/**
 * Everything wrong with a projection's input, as validation details (empty
 * when it is valid). Strategy-independent: see `strategyProblems` for the
 * rule tying `custom_order` to the strategy.
 */
export const payoffInputProblems = (input: PayoffBudgetInput): ReadonlyArray<ErrorDetail> => {
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
  if (input.customOrder !== undefined) details.push(...customOrderProblems(input.customOrder, debts));
  if (input.extraPayments !== undefined) details.push(...extraPaymentProblems(monthlyPayment, input.extraPayments));
  return details;
};

/** `custom` needs a `custom_order`; every other strategy refuses one (docs/decisions/payoff-and-outlook.md). */
export const strategyProblems = (strategy: Strategy, customOrder: ReadonlyArray<AccountId> | undefined): ReadonlyArray<ErrorDetail> =>
  strategy === 'custom' && customOrder === undefined
    ? [{ path: 'custom_order', message: 'is required when strategy is custom' }]
    : strategy !== 'custom' && customOrder !== undefined
      ? [{ path: 'custom_order', message: 'is only allowed when strategy is custom' }]
      : [];

/** How far back a plan may start (docs/decisions/payoff-and-outlook.md). */
export const MAX_START_MONTHS_AGO = 24;

/**
 * A plan's `start_date` is not in the future and not more than 24 months
 * before today (docs/decisions/payoff-and-outlook.md).
 * @example startDateProblems('2024-01-15', '2026-01-15') // [] — exactly 24 months back is allowed
 */
export const startDateProblems = (startDate: IsoDate, today: IsoDate): ReadonlyArray<ErrorDetail> => {
  const earliest = addMonths(today, -MAX_START_MONTHS_AGO);
  return startDate > today
    ? [{ path: 'start_date', message: `must not be in the future (today is ${today})` }]
    : startDate < earliest
      ? [{ path: 'start_date', message: `must not be more than ${MAX_START_MONTHS_AGO} months in the past (earliest ${earliest})` }]
      : [];
};

const runPlan = (
  input: PayoffPlanInput,
  maxMonths: number,
  schedule: ScheduleMonth[] | null,
  options: LoopOptions = PLAIN_RUN,
): { readonly order: AccountId[]; readonly outcome: LoopOutcome } => {
  const s = loopState(input.debts, input.strategy === 'custom' ? input.customOrder : undefined);
  const order = strategyOrder(s, input.strategy).map((i) => s.ids[i]! as AccountId);
  const budget = loopBudget(input.monthlyPayment, spendsBeyondMinimums(input.strategy) ? input.extraPayments : undefined);
  return { order, outcome: runMonthLoop(s, budget, input.strategy, maxMonths, schedule, input.today, options) };
};

/**
 * The month loop of one strategy without building a schedule: what a strategy
 * comparison or a re-forecast needs. Total on any input; only meaningful on
 * input that `payoffInputProblems` and `strategyProblems` accept.
 * @example
 * projectPayoff({ strategy: 'minimum_only', monthlyPayment: 50_000, today: '2024-01-15',
 *   debts: [{ id: 1, balance: 1_000_000, apr: 20, minimumPayment: 25_000 }] })
 * // Right({ order: [1], months: 67, total_interest: 661_673, … }): only the $250 minimum is paid
 */
export const projectPayoff = (
  input: PayoffPlanInput,
  maxMonths: number = MAX_PAYOFF_MONTHS,
  observe: MonthObserver | null = null,
): E.Either<ProjectionFailure, PayoffProjection> => {
  const { order, outcome } = runPlan(input, maxMonths, null, { observe, toLimit: false });
  return outcome.ok
    ? E.right({ order, months: outcome.months, total_interest: outcome.totalInterest as Cents, total_paid: outcome.totalPaid as Cents })
    : E.left(outcome.reason);
};

/** How far `traceBalances` got: `months` observed, and whether the debts were paid off in them. */
export interface BalanceTrace {
  readonly months: number;
  readonly paidOff: boolean;
}

/**
 * The month loop of one strategy run for its balances: `observe(month,
 * balances)` after each month's payments (balances indexed as `input.debts`).
 * Unlike `projectPayoff`, a plan that never pays off is not cut short: it runs
 * `maxMonths` months. It stops early only at payoff, or when a balance grows
 * beyond the exactly representable range (`months` is then the last month
 * computed). Total on input that `payoffInputProblems` accepts.
 * @example
 * traceBalances({ strategy: 'avalanche', monthlyPayment: 50_000, today: '2024-01-15',
 *   debts: [{ id: 1, balance: 1_000_000, apr: 20, minimumPayment: 25_000 }] }, 600, (m, b) => console.log(m, b[0]))
 * // logs 1 966667, 2 932778, … 25 0; returns { months: 25, paidOff: true }
 */
export const traceBalances = (input: PayoffPlanInput, maxMonths: number, observe: MonthObserver): BalanceTrace => {
  let months = 0;
  const { outcome } = runPlan(input, maxMonths, null, {
    observe: (month, balances) => {
      months = month;
      observe(month, balances);
    },
    toLimit: true,
  });
  return { months, paidOff: outcome.ok };
};

/**
 * A debt payoff plan with its month-by-month schedule (docs/decisions/payoff-and-outlook.md).
 * Debts with a balance of 0 are skipped (no `order` entry, no schedule rows).
 *
 * Left(validation_error) with details when there is no debt with a balance,
 * a debt with a balance has a minimum of 0, the budget is below the sum of
 * minimums, `custom_order` is missing for `custom` (or given for another
 * strategy, or not exactly the debts' ids), an extra payment is out of range,
 * or the plan would take more than 600 months.
 * @example
 * planPayoff({ strategy: 'avalanche', monthlyPayment: 50_000, today: '2024-01-15',
 *   debts: [{ id: 1, balance: 1_000_000, apr: 20, minimumPayment: 25_000 }] })
 * // Right({ months: 25, total_interest: 226_606, payoff_date: '2026-02-15', … })
 */
export const planPayoff = (input: PayoffPlanInput): E.Either<ValidationError, PayoffPlanResult> => {
  const details = [...strategyProblems(input.strategy, input.customOrder), ...payoffInputProblems(input)];
  if (details.length > 0) return E.left(validationError('Invalid payment plan', details));

  const schedule: ScheduleMonth[] = [];
  const { order, outcome } = runPlan(input, MAX_PAYOFF_MONTHS, schedule);
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
