/**
 * Strategy comparison (docs/decisions/payoff-and-outlook.md): the same debts, budget, extra payments
 * and start date run through each strategy's month loop, side by side, with
 * the savings of each against paying only the minimums. Nothing is scheduled
 * or stored: each strategy is one `projectPayoff`, without a schedule.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { validationError, type ValidationError } from '../shared/errors.js';
import { PlanWarning, Strategy } from './payment-plan.js';
import {
  MAX_PAYOFF_MONTHS,
  payoffInputProblems,
  projectionError,
  projectPayoff,
  traceBalances,
  type PayoffBudgetInput,
  type PayoffPlanInput,
} from './payoff-plan.js';
import type { AccountRecord } from '../accounts/account.js';
import { utilizationWatch } from './credit-outlook.js';
import { AccountId, Cents, IsoDate, addMonths, nullable } from '../shared/primitives.js';

/** One strategy's outcome; the amounts are null only for a `minimum_only` that does not pay off within 600 months. */
export const StrategyComparison = t.type(
  {
    strategy: Strategy,
    months: nullable(t.number),
    payoff_date: nullable(IsoDate),
    total_interest: nullable(Cents),
    total_paid: nullable(Cents),
    order: t.array(AccountId),
    /** `minimum_only`'s total interest minus this one's; null when `minimum_only` does not pay off. */
    interest_saved: nullable(Cents),
    /** `minimum_only`'s months minus this one's; null when `minimum_only` does not pay off. */
    months_saved: nullable(t.number),
    /**
     * The first month whose projected credit utilization is Good (docs/decisions/payoff-and-outlook.md): 0 when it already is,
     * null when no month of the run gets there (a run that does not pay off is projected over 600 months).
     */
    credit_utilization_good_month: nullable(t.number),
    /** What the strategy's run warns about (docs/decisions/payoff-and-outlook.md), as a plan of it would; empty for a `minimum_only` that does not pay off. */
    warnings: t.array(PlanWarning),
  },
  'StrategyComparison',
);
export type StrategyComparison = t.TypeOf<typeof StrategyComparison>;

/** The API's answer to `POST …/payment_plans/compare`. */
export const PaymentPlanComparison = t.type({ comparisons: t.array(StrategyComparison), recommended: Strategy }, 'PaymentPlanComparison');
export type PaymentPlanComparison = t.TypeOf<typeof PaymentPlanComparison>;

/** The strategies compared, in the order of the answer (`custom` only with a custom order). */
const strategiesFor = (input: PayoffBudgetInput): ReadonlyArray<Strategy> =>
  input.customOrder === undefined ? ['avalanche', 'snowball', 'minimum_only'] : ['avalanche', 'snowball', 'custom', 'minimum_only'];

/**
 * Compare the strategies on one set of debts (docs/decisions/payoff-and-outlook.md): `avalanche`,
 * `snowball`, `custom` (only when `customOrder` is given) and `minimum_only`,
 * in that order. Savings are against `minimum_only` (0 for itself); when
 * `minimum_only` does not pay off within 600 months, its amounts and every
 * entry's savings are null. `recommended` is the strategy with the least total
 * interest, ties broken by fewer months, then by the order above.
 * `credit_utilization_good_month` is each strategy's first month whose
 * projected credit utilization over the user's `accounts` (every card, in the
 * run or not) is Good; without `accounts` there is no card, so it is 0.
 *
 * Left(validation_error) for the input errors of a plan, and when a strategy
 * that spends the whole budget would take more than 600 months (then no
 * strategy pays off in time).
 * @example
 * comparePayoffStrategies({ monthlyPayment: 50_000, today: '2024-01-15',
 *   debts: [{ id: 1, balance: 1_000_000, apr: 20, minimumPayment: 25_000 }] })
 * // Right({ comparisons: [{ strategy: 'avalanche', months: 25, total_interest: 226_606, interest_saved: 435_067, months_saved: 42, … },
 * //   …snowball (the same for one debt)…, { strategy: 'minimum_only', months: 67, total_interest: 661_673, … }], recommended: 'avalanche' })
 */
export const comparePayoffStrategies = (
  input: PayoffBudgetInput,
  accounts: ReadonlyArray<AccountRecord> = [],
): E.Either<ValidationError, PaymentPlanComparison> => {
  const details = payoffInputProblems(input);
  if (details.length > 0) return E.left(validationError('Invalid payment plan comparison', details));

  const runs = strategiesFor(input).map((strategy) => {
    const run: PayoffPlanInput = { ...input, strategy, customOrder: strategy === 'custom' ? input.customOrder : undefined };
    const watch = utilizationWatch(accounts, run);
    const projection = projectPayoff(run, MAX_PAYOFF_MONTHS, watch.observe, true);
    // Any other strategy that does not pay off makes the comparison an error (below). A run that went the
    // full 600 months (`too_long`) has been watched over all of them: the same months a run to the limit
    // would watch, so it is not run again (docs/performance.md).
    if (E.isRight(projection) || strategy !== 'minimum_only' || projection.left === 'too_long')
      return { strategy, projection, goodMonth: watch.goodMonth() };
    // Cut short because it can never pay off (or overflowed): the utilization is projected over the full 600 months.
    const full = utilizationWatch(accounts, run);
    traceBalances(run, MAX_PAYOFF_MONTHS, full.observe);
    return { strategy, projection, goodMonth: full.goodMonth() };
  });
  const failed = runs.find((r) => r.strategy !== 'minimum_only' && E.isLeft(r.projection));
  if (failed !== undefined && E.isLeft(failed.projection)) {
    const reason = failed.projection.left;
    return E.left(projectionError(reason === 'never' ? 'too_long' : reason, `The ${failed.strategy} plan`));
  }

  const baseline = runs.find((r) => r.strategy === 'minimum_only')?.projection;
  const minimumOnly = baseline !== undefined && E.isRight(baseline) ? baseline.right : null;
  const comparisons: StrategyComparison[] = runs.map(({ strategy, projection, goodMonth }) => {
    if (E.isLeft(projection)) {
      // Only minimum_only can get here (any other failure returned above).
      return {
        strategy,
        months: null,
        payoff_date: null,
        total_interest: null,
        total_paid: null,
        order: orderOf(input),
        interest_saved: null,
        months_saved: null,
        credit_utilization_good_month: goodMonth,
        warnings: [],
      };
    }
    const p = projection.right;
    return {
      strategy,
      months: p.months,
      payoff_date: addMonths(input.today, p.months),
      total_interest: p.total_interest,
      total_paid: p.total_paid,
      order: p.order,
      interest_saved: minimumOnly === null ? null : ((minimumOnly.total_interest - p.total_interest) as Cents),
      months_saved: minimumOnly === null ? null : minimumOnly.months - p.months,
      credit_utilization_good_month: goodMonth,
      warnings: p.warnings ?? [],
    };
  });
  return E.right({ comparisons, recommended: recommend(comparisons) });
};

/** `minimum_only`'s order: the debts with a balance, ascending by id. */
const orderOf = (input: PayoffBudgetInput): AccountId[] =>
  input.debts
    .filter((d) => d.balance > 0)
    .map((d) => d.id)
    .sort((a, b) => a - b);

/** Least total interest, then fewer months, then the earlier entry. */
const recommend = (comparisons: ReadonlyArray<StrategyComparison>): Strategy => {
  let best: StrategyComparison | undefined;
  for (const c of comparisons) {
    if (c.total_interest === null || c.months === null) continue;
    if (
      best === undefined ||
      c.total_interest < (best.total_interest as number) ||
      (c.total_interest === best.total_interest && c.months < (best.months as number))
    )
      best = c;
  }
  // Some strategy always paid off: every failure other than minimum_only's was returned as an error.
  return best?.strategy ?? 'avalanche';
};
