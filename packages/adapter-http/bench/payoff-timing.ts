/**
 * The payoff-plan microbenchmark of docs/performance.md (50 debts, ~360 months, under
 * 5 ms), through core's public `planPayoff`; part of `npm run bench`.
 */
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import { idOf, planPayoff, type Cents, type IsoDate, type PayoffDebt, type PayoffPlanInput } from '@debtkit/core';

export const PAYOFF_TARGET_MS = 5;
const DEBTS = 50;
const TARGET_MONTHS = 360;
const WARMUP_RUNS = 50;
const MEASURED_RUNS = 200;

export interface PayoffTiming {
  readonly debts: number;
  readonly months: number;
  readonly monthlyPayment: number;
  readonly runs: number;
  readonly medianMs: number;
  readonly p95Ms: number;
}

/** 50 debts with varied balances and APRs (some tied); every minimum covers its interest plus some principal. */
const benchmarkDebts = (): PayoffDebt[] =>
  Array.from({ length: DEBTS }, (_, i) => {
    const balance = 200_000 + ((i * 7_919) % 50) * 40_000;
    const apr = 3 + ((i * 37) % 40) * 0.5;
    const minimumPayment = Math.ceil((balance * apr) / 1200) + Math.ceil(balance / 10_000);
    return { id: idOf('account', i + 1), balance: balance as Cents, apr, minimumPayment: minimumPayment as Cents };
  });

const monthsFor = (input: PayoffPlanInput): number => {
  const plan = planPayoff(input);
  return E.isRight(plan) ? plan.right.months : Number.POSITIVE_INFINITY;
};

/** The smallest whole-dollar budget whose plan takes at most 360 months (months never grow with the budget). */
export const benchmarkInput = (): PayoffPlanInput => {
  const debts = benchmarkDebts();
  const base = { strategy: 'avalanche' as const, debts, today: '2024-01-31' as IsoDate };
  const minimums = debts.reduce((sum, d) => sum + d.minimumPayment, 0);
  let low = Math.ceil(minimums / 100);
  let high = low * 10;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (monthsFor({ ...base, monthlyPayment: (mid * 100) as Cents }) <= TARGET_MONTHS) high = mid;
    else low = mid + 1;
  }
  return { ...base, monthlyPayment: (high * 100) as Cents };
};

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

export const timePayoffPlan = (): PayoffTiming => {
  const input = benchmarkInput();
  const months = monthsFor(input);
  for (let i = 0; i < WARMUP_RUNS; i++) planPayoff(input);
  const times: number[] = [];
  for (let i = 0; i < MEASURED_RUNS; i++) {
    const start = performance.now();
    planPayoff(input);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    debts: DEBTS,
    months,
    monthlyPayment: input.monthlyPayment,
    runs: MEASURED_RUNS,
    medianMs: percentile(times, 50),
    p95Ms: percentile(times, 95),
  };
};
