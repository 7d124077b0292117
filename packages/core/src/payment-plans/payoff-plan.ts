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
import {
  MAX_EXTRA_PAYMENTS,
  MAX_PLAN_MONTH,
  type ExtraPayment,
  type PlanWarning,
  type ScheduleMonth,
  type ScheduledPayment,
  type Strategy,
} from './payment-plan.js';
import { addMonths, type AccountId, type Cents, type IsoDate } from '../shared/primitives.js';
import { monthlyInterestOf, runEngine, type DebtTerms, type EngineOutcome, type MoneyWarning } from '../shared/money/index.js';

// One debt's projection and `expected_payoff_date`'s months live in the kernel's money module
// (shared/money/single-debt.ts: accounts stand on them too, docs/architecture.md); re-exported here.
export * from '../shared/money/single-debt.js';
import { MAX_PAYOFF_MONTHS, type MonthObserver, type PayoffDebt, type ProjectionFailure } from '../shared/money/single-debt.js';

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
  /**
   * The most a debt may owe in any month of the projection (default 2^53 − 1
   * cents): past it the projection fails with `overflow`. Projections of
   * accounts pass `MAX_BALANCE` (issue 42).
   */
  readonly maxBalance?: number;
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
  /** What the run warns about (docs/decisions/payoff-and-outlook.md): set when asked for (`projectPayoff`'s `withWarnings`) and by `planPayoff`. */
  readonly warnings?: PlanWarning[];
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
  if (extras.length > MAX_EXTRA_PAYMENTS) details.push({ path: 'extra_payments', message: `at most ${MAX_EXTRA_PAYMENTS} extra payments` });
  const byMonth = new Map<number, number>();
  extras.forEach((x, k) => {
    if (!Number.isSafeInteger(x.month) || x.month < 1 || x.month > MAX_PLAN_MONTH)
      details.push({ path: `extra_payments.${k}.month`, message: `must be a whole number from 1 to ${MAX_PLAN_MONTH}` });
    if (!isCents(x.amount) || x.amount === 0)
      details.push({ path: `extra_payments.${k}.amount`, message: 'must be a positive whole number of cents' });
    byMonth.set(x.month, (byMonth.get(x.month) ?? 0) + x.amount);
  });
  if ([...byMonth.values()].some((sum) => !Number.isSafeInteger(monthlyPayment + sum)))
    details.push({ path: 'extra_payments', message: "a month's budget plus its extra payments is beyond the supported range" });
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
    if (d.balance > 0 || (d.accruedInterest ?? 0) > 0) {
      owing++;
      // The budget and the minimums exclude escrow (docs/decisions/payoff-and-outlook.md): it never reduces the debt.
      const minimum = d.minimumPayment - (d.escrow ?? 0);
      minimums += minimum;
      if (minimum <= 0) details.push({ path: 'account_ids', message: `account ${d.id}: minimum payment is 0` });
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

/** How a run ends: at payoff, or also as soon as the plan can never pay off (`never`). */
interface LoopOptions {
  readonly observe: MonthObserver | null;
  /** Keep going when the plan can never pay off, up to `maxMonths` (then `too_long`). */
  readonly toLimit: boolean;
  readonly schedule: boolean;
  readonly warnings: boolean;
}

const PLAIN_RUN: LoopOptions = { observe: null, toLimit: false, schedule: false, warnings: false };

const runPlan = (
  input: PayoffPlanInput,
  maxMonths: number,
  options: LoopOptions = PLAIN_RUN,
): { readonly order: AccountId[]; readonly outcome: EngineOutcome } => {
  const customOrder = input.strategy === 'custom' ? input.customOrder : undefined;
  const outcome = runEngine({
    debts: input.debts,
    strategy: input.strategy,
    monthlyPayment: input.monthlyPayment,
    start: input.today,
    customOrder,
    extraPayments: input.strategy === 'minimum_only' ? undefined : input.extraPayments,
    maxMonths,
    maxBalance: input.maxBalance,
    schedule: options.schedule,
    warnings: options.warnings,
    observe: options.observe,
    toLimit: options.toLimit,
  });
  return { order: outcome.order.map((i) => input.debts[i]!.id), outcome };
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
  withWarnings = false,
): E.Either<ProjectionFailure, PayoffProjection> => {
  const { order, outcome } = runPlan(input, maxMonths, { ...PLAIN_RUN, observe, warnings: withWarnings });
  return outcome.ok
    ? E.right({
        order,
        months: outcome.months,
        total_interest: outcome.totalInterest as Cents,
        total_paid: outcome.totalPaid as Cents,
        ...(withWarnings ? { warnings: outcome.warnings as PlanWarning[] } : {}),
      })
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
  const { outcome } = runPlan(input, maxMonths, {
    ...PLAIN_RUN,
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

  const { order, outcome } = runPlan(input, MAX_PAYOFF_MONTHS, { ...PLAIN_RUN, schedule: true, warnings: true });
  if (!outcome.ok) return E.left(projectionError(outcome.reason === 'never' ? 'too_long' : outcome.reason, 'The payment plan'));
  return E.right({
    order,
    months: outcome.months,
    payoff_date: addMonths(input.today, outcome.months),
    total_interest: outcome.totalInterest as Cents,
    total_paid: outcome.totalPaid as Cents,
    schedule: outcome.schedule as ScheduleMonth[],
    warnings: outcome.warnings as PlanWarning[],
  });
};
