/**
 * The strategy-comparison microbenchmark of docs/decisions/payoff-and-outlook.md / issue 15: the whole
 * `comparePayoffStrategies` (avalanche, snowball, custom, minimum_only) for the
 * payoff benchmark's 50 debts whose avalanche plan takes ~360 months, under
 * 10 ms; part of `npm run bench`.
 */
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import { comparePayoffStrategies, type PayoffBudgetInput } from '@debtkit/core';
import { benchmarkInput } from './payoff-timing.js';

export const COMPARISON_TARGET_MS = 10;
const WARMUP_RUNS = 30;
const MEASURED_RUNS = 100;

export interface ComparisonTiming {
  readonly debts: number;
  /** Months of each strategy, in the comparison's order (null: minimum_only does not pay off within 600). */
  readonly months: ReadonlyArray<readonly [string, number | null]>;
  readonly runs: number;
  readonly medianMs: number;
  readonly p95Ms: number;
}

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

export const timePayoffComparison = (): ComparisonTiming => {
  const { strategy: _avalanche, ...plan } = benchmarkInput();
  // A custom order too (lowest APR first), so all four strategies run.
  const input: PayoffBudgetInput = { ...plan, customOrder: [...plan.debts].sort((a, b) => a.apr - b.apr || a.id - b.id).map((d) => d.id) };
  const first = comparePayoffStrategies(input);
  if (E.isLeft(first)) throw new Error(`the comparison benchmark input is invalid: ${first.left.message}`);
  for (let i = 0; i < WARMUP_RUNS; i++) comparePayoffStrategies(input);
  const times: number[] = [];
  for (let i = 0; i < MEASURED_RUNS; i++) {
    const start = performance.now();
    comparePayoffStrategies(input);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    debts: input.debts.length,
    months: first.right.comparisons.map((c) => [c.strategy, c.months] as const),
    runs: MEASURED_RUNS,
    medianMs: percentile(times, 50),
    p95Ms: percentile(times, 95),
  };
};
