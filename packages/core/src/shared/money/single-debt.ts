/**
 * One debt paid a fixed amount a month, and the months `expected_payoff_date` is made of
 * (docs/api/reference.md, docs/decisions/payoff-and-outlook.md): the kernel's money module, so accounts
 * (their `expected_payoff_date`), payment plans and the calculator stand on it one way
 * (docs/architecture.md, "The dependency rule"). `payment-plans/payoff-plan.ts` re-exports it.
 */
import * as E from 'fp-ts/lib/Either.js';
import { addMonths, type AccountId, type Cents, type IsoDate } from '../primitives.js';
import { monthlyInterestOf, runEngine, type DebtTerms } from './index.js';

const isCents = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;
const isApr = (n: number): boolean => Number.isFinite(n) && n >= 0 && n <= 100;

/** No projection runs longer than this (docs/api/reference.md, docs/decisions/payoff-and-outlook.md). */
export const MAX_PAYOFF_MONTHS = 600;

// ---------------------------------------------------------------------------
// Interest arithmetic (the money engine's, shared/money/rates.ts)
// ---------------------------------------------------------------------------

/**
 * One month of interest on a balance: round-half-up(balance × apr / 1200), in
 * exact integer arithmetic (shared/money/rates.ts `scaleApr`).
 * @example monthlyInterest(1_000_000 as Cents, 20) === 16_667 // $166.666… → $166.67
 */
export const monthlyInterest = (balance: Cents, apr: number): Cents => monthlyInterestOf(balance, apr) as Cents;

// ---------------------------------------------------------------------------
// The month loop: the money engine (shared/money/engine.ts)
// ---------------------------------------------------------------------------

/**
 * A debt as the month loop sees it: one rate, monthly interest and a fixed
 * minimum (docs/decisions/payoff-and-outlook.md), or, through the optional members, the statement terms
 * of docs/decisions/payoff-and-outlook.md (segments, a daily method, a minimum formula, escrow, accrued
 * interest: shared/money/terms.ts `DebtTerms`).
 */
export interface PayoffDebt extends DebtTerms {
  readonly id: AccountId;
  readonly balance: Cents;
  /** Percent, e.g. 19.99. */
  readonly apr: number;
  /** Escrow included (it never reduces the debt). */
  readonly minimumPayment: Cents;
}

/**
 * Called after each month's payments with what every debt owes (indexed as
 * the input's debts); it must not change them.
 */
export type MonthObserver = (month: number, balances: Float64Array) => void;

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
  const outcome = runEngine({
    debts: [{ id: 1, balance, apr, minimumPayment: payment }],
    strategy: 'avalanche',
    monthlyPayment: payment,
    start: '2000-01-01' as IsoDate,
    maxMonths,
  });
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
export const expectedPayoffDate = (
  input: MinimumOnlyInput,
  today: IsoDate,
  months: MinimumOnlyMonths = minimumOnlyMonths,
): IsoDate | null => {
  const { balance, apr, minimumPayment } = input;
  if (!isCents(balance) || balance === 0 || !isCents(minimumPayment) || minimumPayment === 0 || !isApr(apr)) return null;
  const n = months(balance, apr, minimumPayment);
  return n === null ? null : addMonths(today, n);
};

/** How many (balance, APR, minimum) answers a `minimumOnlyMemo` keeps by default. */
export const MINIMUM_ONLY_MEMO_SIZE = 4096;

/**
 * The months to pay `balance` off at `apr` paying only `minimumPayment`, or
 * null when it never does within the loop's limit. `statement`, when present,
 * remembers the months of an account with statement terms (docs/decisions/payoff-and-outlook.md) by a
 * key holding every input they depend on: `compute` runs on a miss.
 */
export type MinimumOnlyMonths = ((balance: Cents, apr: number, minimumPayment: Cents) => number | null) & {
  readonly statement?: (key: string, compute: () => number | null) => number | null;
};

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
  const remember = (key: string, compute: () => number | null): number | null => {
    const known = entries.get(key);
    if (known !== undefined) return known;
    const months = compute();
    if (entries.size >= size) entries.delete(entries.keys().next().value!);
    entries.set(key, months);
    return months;
  };
  const plain = (balance: Cents, apr: number, minimumPayment: Cents): number | null =>
    remember(`${balance}:${apr}:${minimumPayment}`, () => minimumOnlyMonths(balance, apr, minimumPayment));
  // Statement keys are JSON arrays: they never collide with the plain keys.
  return Object.assign(plain, { statement: remember });
};
