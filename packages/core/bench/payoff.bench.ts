/**
 * Microbenchmark for DESIGN 9: a payoff plan for 50 debts over ~360 months,
 * full schedule included, must compute in under 5 ms (median).
 *
 * Run: node --conditions=debtkit-source --import tsx packages/core/bench/payoff.bench.ts
 * Import: `runPayoffBenchmark()` for another script (e.g. `npm run bench`).
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Cents, Id, IsoDate } from '../src/domain/primitives.js';
import { planPayoff, type PayoffDebt, type PayoffPlanInput } from '../src/domain/payoff-plan.js';

export const TARGET_MS = 5;
const DEBTS = 50;
const TARGET_MONTHS = 360;
const WARMUP_RUNS = 50;
const MEASURED_RUNS = 200;

export interface PayoffBenchmarkResult {
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly months: number;
}

/**
 * 50 debts with varied balances and APRs (a few tied APRs, so tie-breaks are
 * exercised); every minimum covers its interest plus some principal. Pure
 * arithmetic on the index: the same input on every run and machine.
 */
const benchmarkDebts = (): PayoffDebt[] =>
  Array.from({ length: DEBTS }, (_, i) => {
    const balance = 200_000 + ((i * 7_919) % 50) * 40_000; // $2,000 … $21,600
    const apr = 3 + ((i * 37) % 40) * 0.5; // 3% … 22.5%, some repeated
    const minimumPayment = Math.ceil((balance * apr) / 1200) + Math.ceil(balance / 10_000);
    return { id: (i + 1) as Id, balance: balance as Cents, apr, minimumPayment: minimumPayment as Cents };
  });

const monthsFor = (input: PayoffPlanInput): number => {
  const plan = planPayoff(input);
  return plan._tag === 'Right' ? plan.right.months : Number.POSITIVE_INFINITY;
};

/**
 * The input: the smallest budget (whole dollars) whose plan takes at most
 * 360 months, found by binary search (months never grow as the budget grows).
 */
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

/** Warm up, then time `MEASURED_RUNS` plans; returns median and p95 in ms and the plan's months. */
export const runPayoffBenchmark = (): PayoffBenchmarkResult => {
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
  return { medianMs: percentile(times, 50), p95Ms: percentile(times, 95), months };
};

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const { medianMs, p95Ms, months } = runPayoffBenchmark();
  const input = benchmarkInput();
  console.log(`payoff plan: ${DEBTS} debts, budget ${input.monthlyPayment} cents/month, ${months} months`);
  console.log(`median ${medianMs.toFixed(3)} ms, p95 ${p95Ms.toFixed(3)} ms over ${MEASURED_RUNS} runs`);
  console.log(`target < ${TARGET_MS} ms: ${medianMs < TARGET_MS ? 'PASS' : 'FAIL'}`);
}
