/**
 * The statement-grade money microbenchmarks of docs/performance.md: a plan, the
 * comparison and the credit outlook on the realistic input of
 * statement-money-input.ts (20 segmented cards with formulas and deferred
 * promotions, `daily_compound`; 30 `daily_simple` loans, two with escrow),
 * against the same targets as today's input (5, 10 and 10 ms); part of
 * `npm run bench`.
 */
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import { comparePayoffStrategies, creditOutlook, planPayoff, type PayoffBudgetInput } from '@debtkit/core';
import { statementOutlookInput, statementPlanInput } from './statement-money-input.js';

export interface StatementTiming {
  readonly what: string;
  /** Months of each projection run (the comparison: one per strategy; null: does not pay off). */
  readonly months: ReadonlyArray<readonly [string, number | null]>;
  readonly warnings: number;
  readonly runs: number;
  readonly medianMs: number;
  readonly p95Ms: number;
}

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

/** Median and p95 of `runs` timed calls after `warmup` untimed ones. */
const timeCalls = (call: () => unknown, warmup: number, runs: number): { medianMs: number; p95Ms: number } => {
  for (let i = 0; i < warmup; i++) call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { medianMs: percentile(times, 50), p95Ms: percentile(times, 95) };
};

export const timeStatementPlan = (): StatementTiming => {
  const input = statementPlanInput();
  const first = planPayoff(input);
  if (E.isLeft(first)) throw new Error(`the statement plan benchmark input is invalid: ${first.left.message}`);
  const runs = 200;
  return {
    what: 'plan (avalanche)',
    months: [['avalanche', first.right.months]],
    warnings: first.right.warnings?.length ?? 0,
    runs,
    ...timeCalls(() => planPayoff(input), 50, runs),
  };
};

export const timeStatementComparison = (): StatementTiming => {
  const { strategy: _avalanche, ...plan } = statementPlanInput();
  // A custom order too (the debts as listed), so all four strategies run, as for today's input.
  const input: PayoffBudgetInput = { ...plan, customOrder: plan.debts.map((d) => d.id) };
  const first = comparePayoffStrategies(input);
  if (E.isLeft(first)) throw new Error(`the statement comparison benchmark input is invalid: ${first.left.message}`);
  const runs = 100;
  return {
    what: 'comparison (4 strategies)',
    months: first.right.comparisons.map((c) => [c.strategy, c.months] as const),
    warnings: first.right.comparisons.reduce((n, c) => n + ((c as { warnings?: unknown[] }).warnings?.length ?? 0), 0),
    runs,
    ...timeCalls(() => comparePayoffStrategies(input), 30, runs),
  };
};

export const timeStatementOutlook = (): StatementTiming => {
  const input = statementOutlookInput();
  const first = creditOutlook(input);
  if (E.isLeft(first)) throw new Error(`the statement outlook benchmark input is invalid: ${first.left.message}`);
  const runs = 200;
  return {
    what: 'credit outlook (50 accounts)',
    months: [['avalanche', first.right.months.length - 1]],
    warnings: 0,
    runs,
    ...timeCalls(() => creditOutlook(input), 30, runs),
  };
};
