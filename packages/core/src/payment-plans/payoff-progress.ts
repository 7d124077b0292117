/**
 * Plan progress and re-forecast (docs/decisions/payoff-and-outlook.md): how a stored plan's schedule
 * compares with what was actually paid under it, and when the debts are paid
 * off from their current balances if the plan is followed from next month on.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import type { ExtraPayment, PaymentPlan, PaymentPlanRecord } from './payment-plan.js';
import { payoffInputProblems, projectPayoff, strategyProblems, type PayoffDebt, type PayoffPlanInput } from './payoff-plan.js';
import type { ErrorDetail } from '../shared/errors.js';
import type { DebtTerms } from '../shared/money/index.js';
import { MAX_BALANCE } from '../accounts/statement-terms.js';
import { Cents, IsoDate, addMonths, dateParts, nullable, type Id } from '../shared/primitives.js';

export const PlanProgressStatus = t.keyof({ on_track: null, ahead: null, behind: null }, 'PlanProgressStatus');
export type PlanProgressStatus = t.TypeOf<typeof PlanProgressStatus>;

/** The plan re-run from the current balances; month 1 is the first schedule date after today. */
export const PlanForecast = t.type({ months: t.number, payoff_date: IsoDate, total_interest: Cents }, 'PlanForecast');
export type PlanForecast = t.TypeOf<typeof PlanForecast>;

/** The API's answer to `GET …/payment_plans/{payment_plan_id}/progress`. */
export const PaymentPlanProgress = t.type(
  {
    as_of: IsoDate,
    months_elapsed: t.number,
    scheduled_to_date: Cents,
    paid_to_date: Cents,
    status: PlanProgressStatus,
    remaining_balance: Cents,
    forecast: nullable(PlanForecast),
  },
  'PaymentPlanProgress',
);
export type PaymentPlanProgress = t.TypeOf<typeof PaymentPlanProgress>;

/**
 * An account of the plan as it is now; `apr`/`minimumPayment` null when the
 * account has none; its statement terms (docs/decisions/payoff-and-outlook.md), when it has any, for
 * the engine.
 */
export interface CurrentDebt extends Pick<DebtTerms, 'interestMethod' | 'minimumFormula' | 'segments' | 'escrow' | 'accruedInterest'> {
  readonly id: Id;
  readonly balance: Cents;
  readonly apr: number | null;
  readonly minimumPayment: Cents | null;
}

export interface PlanProgressInput {
  readonly plan: ForecastPlan & Pick<PaymentPlanRecord, 'schedule'>;
  /** The sum of every payment recorded under the plan. */
  readonly paidToDate: Cents;
  /** The plan's accounts as they are now (an account missing here counts as paid off). */
  readonly accounts: ReadonlyArray<CurrentDebt>;
  readonly today: IsoDate;
}

/**
 * `on_track` when paid and scheduled differ by at most 1% of scheduled (or
 * both are 0), else `ahead` or `behind`. Integer arithmetic: no rounding.
 */
export const progressStatus = (scheduled: number, paid: number): PlanProgressStatus =>
  Math.abs(paid - scheduled) * 100 <= scheduled || (scheduled === 0 && paid === 0) ? 'on_track' : paid > scheduled ? 'ahead' : 'behind';

/**
 * The plan month n ≥ 1 whose date (start + n months, clamped) is the first
 * after `today`.
 * @example firstMonthAfter('2025-01-31', '2025-03-30') === 2 // Feb 28 ≤ today < Mar 31
 */
export const firstMonthAfter = (start: IsoDate, today: IsoDate): number => {
  const s = dateParts(start);
  const d = dateParts(today);
  // The calendar month difference is within one of the answer (day clamping moves it at most one month).
  let n = Math.max(1, d.year * 12 + d.month - (s.year * 12 + s.month));
  while (n > 1 && addMonths(start, n - 1) > today) n--;
  while (addMonths(start, n) <= today) n++;
  return n;
};

/**
 * `debt` with the statement terms `a` carries (docs/decisions/payoff-and-outlook.md): a plain account
 * adds none, so its debt keeps the plain shape the engine reads fastest.
 */
const withStatementTerms = (debt: PayoffDebt, a: CurrentDebt): PayoffDebt =>
  a.interestMethod === undefined &&
  a.minimumFormula === undefined &&
  a.segments === undefined &&
  a.escrow === undefined &&
  a.accruedInterest === undefined
    ? debt
    : {
        ...debt,
        interestMethod: a.interestMethod,
        minimumFormula: a.minimumFormula,
        segments: a.segments,
        escrow: a.escrow,
        accruedInterest: a.accruedInterest,
      };

/** The plan fields a re-forecast reads. */
export type ForecastPlan = Pick<
  PaymentPlan,
  'strategy' | 'monthly_payment' | 'account_ids' | 'custom_order' | 'extra_payments' | 'start_date'
>;

/**
 * What a re-forecast runs (docs/decisions/payoff-and-outlook.md, shared by `progress.forecast` and the
 * credit outlook of 7.12): `offset` is the plan month before forecast month 1
 * (month 1 = plan month `firstMonthAfter(start_date, today)`), so forecast
 * month m is dated `addMonths(start_date, offset + m)`.
 * - `paid_off`: no plan account owes anything any more;
 * - `runnable`: the plan's strategy, budget, custom order and remaining extra
 *   payments over the plan accounts' current balances, APRs and minimums (an
 *   account no longer there, or at 0, is a debt of 0);
 * - `unforecastable`: an owing account lost its APR or minimum, or the budget
 *   no longer covers the minimums; `problems` says which.
 */
export type ForecastBasis =
  | { readonly _tag: 'paid_off'; readonly offset: number }
  | { readonly _tag: 'runnable'; readonly offset: number; readonly input: PayoffPlanInput }
  | { readonly _tag: 'unforecastable'; readonly offset: number; readonly problems: ReadonlyArray<ErrorDetail> };

/**
 * The re-forecast's input for a plan, from its accounts as they are now.
 * @example forecastBasis(plan, [], '2025-03-31') // { _tag: 'paid_off', offset: 1 } for a plan started 2025-01-31
 */
export const forecastBasis = (plan: ForecastPlan, accounts: ReadonlyArray<CurrentDebt>, today: IsoDate): ForecastBasis => {
  const offset = firstMonthAfter(plan.start_date, today) - 1;
  const current = new Map(accounts.map((a) => [a.id as number, a]));
  const debts: PayoffDebt[] = [];
  const missing: ErrorDetail[] = [];
  for (const id of plan.account_ids) {
    const a = current.get(id);
    if (a === undefined || a.balance + (a.accruedInterest ?? 0) === 0) {
      // Nothing owed: in the plan (a custom order names it) but never paid.
      debts.push({ id, balance: 0 as Cents, apr: 0, minimumPayment: 0 as Cents });
      continue;
    }
    if (a.apr === null) missing.push({ path: `accounts.${id}`, message: `account ${id} has no APR (set user_apr)` });
    if (a.minimumPayment === null)
      missing.push({ path: `accounts.${id}`, message: `account ${id} has no minimum payment (set user_minimum_payment)` });
    if (a.apr !== null && a.minimumPayment !== null)
      debts.push(withStatementTerms({ id, balance: a.balance, apr: a.apr, minimumPayment: a.minimumPayment }, a));
  }
  if (missing.length > 0) return { _tag: 'unforecastable', offset, problems: missing };
  if (debts.every((d) => d.balance === 0)) return { _tag: 'paid_off', offset };

  const extraPayments: ExtraPayment[] = plan.extra_payments
    .filter((x) => x.month > offset)
    .map((x) => ({ month: x.month - offset, amount: x.amount }));
  const input: PayoffPlanInput = {
    strategy: plan.strategy,
    monthlyPayment: plan.monthly_payment,
    debts,
    today: addMonths(plan.start_date, offset),
    customOrder: plan.custom_order ?? undefined,
    extraPayments,
    // No month of a re-forecast of accounts owes more than an account may (issue 42).
    maxBalance: MAX_BALANCE,
  };
  const problems = [...strategyProblems(input.strategy, input.customOrder), ...payoffInputProblems(input)];
  return problems.length > 0 ? { _tag: 'unforecastable', offset, problems } : { _tag: 'runnable', offset, input };
};

/**
 * The re-forecast: `forecastBasis` run through the month loop. Null when it no
 * longer pays off within 600 months, or can no longer be computed.
 */
const forecastOf = (input: PlanProgressInput): PlanForecast | null => {
  const { plan } = input;
  const basis = forecastBasis(plan, input.accounts, input.today);
  switch (basis._tag) {
    case 'unforecastable':
      return null;
    case 'paid_off':
      return { months: 0, payoff_date: addMonths(plan.start_date, basis.offset), total_interest: 0 as Cents };
    case 'runnable': {
      const projection = projectPayoff(basis.input);
      if (E.isLeft(projection)) return null;
      const { months, total_interest } = projection.right;
      // Dated from the plan's start, not from `basis.input.today`, so day clamping matches the schedule's.
      return { months, payoff_date: addMonths(plan.start_date, basis.offset + months), total_interest };
    }
  }
};

/**
 * A plan's progress as of `today` (docs/decisions/payoff-and-outlook.md): schedule months dated on or
 * before today, what they scheduled, what was recorded as paid, the status,
 * the plan accounts' current balances and the re-forecast.
 * @example
 * // An avalanche plan started 2025-01-31 over $100 at 12% and $200 at 24% ($20 minimums, $60 a month),
 * // paid as scheduled for its first two months (Feb 28, Mar 31):
 * planProgress({ plan, paidToDate: 12_000, accounts: [{ id: 1, balance: 6_181, … }, { id: 2, balance: 12_728, … }], today: '2025-03-31' })
 * // { as_of: '2025-03-31', months_elapsed: 2, scheduled_to_date: 12_000, paid_to_date: 12_000, status: 'on_track',
 * //   remaining_balance: 18_909, forecast: { months: 4, payoff_date: '2025-07-31', total_interest: 693 } }
 */
export const planProgress = (input: PlanProgressInput): PaymentPlanProgress => {
  const { plan, paidToDate, accounts, today } = input;
  let monthsElapsed = 0;
  let scheduled = 0;
  for (const month of plan.schedule) {
    if (month.date > today) break;
    monthsElapsed++;
    for (const p of month.payments) scheduled += p.payment;
  }
  const inPlan = new Set<number>(plan.account_ids);
  const remaining = accounts.filter((a) => inPlan.has(a.id)).reduce((sum, a) => sum + a.balance, 0);
  return {
    as_of: today,
    months_elapsed: monthsElapsed,
    scheduled_to_date: scheduled as Cents,
    paid_to_date: paidToDate,
    status: progressStatus(scheduled, paidToDate),
    remaining_balance: remaining as Cents,
    forecast: forecastOf(input),
  };
};
