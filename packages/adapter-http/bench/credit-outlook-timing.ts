/**
 * The credit-outlook microbenchmark of docs/decisions/payoff-and-outlook.md / issue 25: `creditOutlook`
 * for the payoff benchmark's 50 debts (its ~360-month avalanche plan), each a
 * linked account of the user with a 24-month history and an opening date,
 * a third of them cards with limits, under 10 ms; part of `npm run bench`.
 */
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import { AccountRecord, creditOutlook, type CreditOutlookInput, type PaymentCode } from '@debtkit/core';
import { benchmarkInput } from './payoff-timing.js';

export const OUTLOOK_TARGET_MS = 10;
const WARMUP_RUNS = 30;
const MEASURED_RUNS = 200;
const SUBTYPES = ['credit_card_loan', 'personal_loan', 'auto_loan', 'student_loan', 'medical_loan', 'credit_card_loan'] as const;

export interface OutlookTiming {
  readonly debts: number;
  readonly accounts: number;
  /** Months of the projection (entries beyond month 0). */
  readonly months: number;
  readonly milestones: number;
  readonly runs: number;
  readonly medianMs: number;
  readonly p95Ms: number;
}

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

/** The 50 debts as the user's linked accounts, and the plan over all of them. */
export const outlookBenchmarkInput = (): CreditOutlookInput => {
  const payoff = benchmarkInput();
  const accounts = payoff.debts.map((d, i) => {
    const subtype = SUBTYPES[i % SUBTYPES.length]!;
    // Mostly on time, a late month here and there, a charge-off on every tenth account.
    const history = Array.from({ length: 24 }, (_, k): PaymentCode => (k === i % 24 ? (i % 10 === 0 ? '9' : '2') : '1'));
    const decoded = AccountRecord.decode({
      id: d.id,
      user_id: 1,
      name: `Debt ${d.id}`,
      type: 'loan',
      subtype,
      mask: null,
      status: 'active',
      nickname: null,
      apr: d.apr,
      minimum_payment: d.minimumPayment,
      user_apr: null,
      user_minimum_payment: null,
      original_loan_amount: null,
      balance: d.balance,
      limit: subtype === 'credit_card_loan' ? d.balance * 2 : null,
      last_payment_amount: null,
      last_payment_date: null,
      opened_at: `${2000 + (i % 24)}-0${1 + (i % 9)}-15`,
      closed_at: null,
      institution_name: null,
      institution_logo: null,
      next_payment_due_date: null,
      user_next_payment_date: null,
      first_time_payment: null,
      payments_history: history,
      last_updated_at: payoff.today,
      created_at: `${payoff.today}T00:00:00.000Z`,
      version: 1,
    });
    if (E.isLeft(decoded)) throw new Error(`the outlook benchmark account ${d.id} does not decode`);
    return decoded.right;
  });
  return {
    plan: {
      strategy: payoff.strategy,
      monthly_payment: payoff.monthlyPayment,
      account_ids: payoff.debts.map((d) => d.id),
      custom_order: null,
      extra_payments: [],
      start_date: payoff.today,
    },
    accounts,
    today: payoff.today,
  };
};

export const timeCreditOutlook = (): OutlookTiming => {
  const input = outlookBenchmarkInput();
  const first = creditOutlook(input);
  if (E.isLeft(first)) throw new Error(`the outlook benchmark input is invalid: ${first.left.message}`);
  for (let i = 0; i < WARMUP_RUNS; i++) creditOutlook(input);
  const times: number[] = [];
  for (let i = 0; i < MEASURED_RUNS; i++) {
    const start = performance.now();
    creditOutlook(input);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    debts: input.plan.account_ids.length,
    accounts: input.accounts.length,
    months: first.right.months.length - 1,
    milestones: first.right.milestones.length,
    runs: MEASURED_RUNS,
    medianMs: percentile(times, 50),
    p95Ms: percentile(times, 95),
  };
};
