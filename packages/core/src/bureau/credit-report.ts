/**
 * The sandbox credit report (docs/decisions/payoff-and-outlook.md), derived deterministically from a
 * user's accounts and a date.
 */
import type { CreditReport } from '../credit-scores/credit-score.js';
import type { AccountRecord } from '../accounts/account.js';
import { FACTOR_RULES, factorObject } from '../credit-scores/credit-factors.js';
import { hasDerogatory, onTimeCount, ratedCount } from '../accounts/payment-history.js';
import { daysBetween, type IsoDate } from '../shared/primitives.js';

/** What a bureau reports (defined with the credit score it makes, credit-scores/credit-score.ts). */
export type { CreditReport };

const DAYS_PER_YEAR = 365.25;
const NEW_CREDIT_WINDOW_DAYS = 365;

const clamp = (min: number, max: number, x: number): number => Math.min(max, Math.max(min, x));

/** Nearest integer, halves away from zero, immune to 712.4999999999999-style float noise. */
const roundToInteger = (x: number): number => {
  const sign = x < 0 ? -1 : 1;
  return sign * Math.round(Number(Math.abs(x).toPrecision(15))) || 0;
};

/**
 * Age in whole days of an account on `today`. An `opened_at` after today (bad
 * data or clock skew) counts as opened today, so it is age 0 for credit_age and
 * new for new_credit, rather than a negative age.
 */
const ageInDays = (openedAt: IsoDate, today: IsoDate): number => Math.max(0, daysBetween(openedAt, today));

/** The six factor amounts before rounding (docs/decisions/payoff-and-outlook.md). */
const rawAmounts = (accounts: ReadonlyArray<AccountRecord>, today: IsoDate) => {
  const history = accounts.flatMap((a) => a.payments_history);
  const rated = ratedCount(history);
  const paymentHistory = rated === 0 ? 100 : (100 * onTimeCount(history)) / rated;

  const cards = accounts.filter((a) => a.status !== 'closed' && a.subtype === 'credit_card_loan' && a.limit !== null && a.limit > 0);
  const totalLimit = cards.reduce((sum, a) => sum + (a.limit ?? 0), 0);
  const totalBalance = cards.reduce((sum, a) => sum + a.balance, 0);
  const utilization = totalLimit === 0 ? 0 : Math.min(100, (100 * totalBalance) / totalLimit);

  const derogatory = accounts.filter((a) => hasDerogatory(a.payments_history)).length;

  const ages = accounts.flatMap((a) => (a.opened_at === null ? [] : [ageInDays(a.opened_at, today)]));
  const meanAgeYears = ages.length === 0 ? 0 : ages.reduce((sum, d) => sum + d, 0) / ages.length / DAYS_PER_YEAR;

  const loanSubtypes = new Set(accounts.filter((a) => a.type === 'loan').map((a) => a.subtype));

  // Opened within the last 365 days: today is day 0 and counts; exactly 365 days ago does not.
  const newAccounts = ages.filter((d) => d < NEW_CREDIT_WINDOW_DAYS).length;

  return {
    payment_history: paymentHistory,
    credit_utilization: utilization,
    // Counts are capped at their spec maximum so the report always satisfies the CreditScore codec.
    derogatory_marks: Math.min(FACTOR_RULES.derogatory_marks.max, derogatory),
    credit_age: Math.min(FACTOR_RULES.credit_age.max, meanAgeYears),
    credit_mix: Math.min(FACTOR_RULES.credit_mix.max, loanSubtypes.size),
    new_credit: Math.min(FACTOR_RULES.new_credit.max, newAccounts),
  };
};

/**
 * docs/decisions/payoff-and-outlook.md's score, from the already rounded amounts, clamped to 300..850.
 * Weights: payment history 35%, utilization 30%, age 15% (full at 10 years),
 * mix 10% (full at 4 kinds), new credit 10% (none at 5 new accounts); then
 * −40 per derogatory mark.
 */
const scoreOf = (a: { ph: number; cu: number; dm: number; age: number; mix: number; newCredit: number }): number =>
  clamp(
    300,
    850,
    roundToInteger(
      300 +
        550 *
          ((0.35 * a.ph) / 100 +
            0.3 * (1 - a.cu / 100) +
            0.15 * Math.min(a.age / 10, 1) +
            0.1 * Math.min(a.mix / 4, 1) +
            0.1 * Math.max(0, 1 - a.newCredit / 5)) -
        40 * a.dm,
    ),
  );

/**
 * The sandbox bureau's credit report for a user's accounts on `today` (docs/decisions/payoff-and-outlook.md).
 * Total and deterministic: no accounts gives payment_history 100,
 * credit_utilization 0, every count 0, credit_age 0 and score 713.
 * @example
 * deriveCreditReport([], '2024-07-01').payment_history // { amount: 100, factor: 'Good' }
 */
export const deriveCreditReport = (accounts: ReadonlyArray<AccountRecord>, today: IsoDate): CreditReport => {
  const raw = rawAmounts(accounts, today);
  const payment_history = factorObject('payment_history', raw.payment_history);
  const credit_utilization = factorObject('credit_utilization', raw.credit_utilization);
  const derogatory_marks = factorObject('derogatory_marks', raw.derogatory_marks);
  const credit_age = factorObject('credit_age', raw.credit_age);
  const credit_mix = factorObject('credit_mix', raw.credit_mix);
  const new_credit = factorObject('new_credit', raw.new_credit);
  return {
    score: scoreOf({
      ph: payment_history.amount,
      cu: credit_utilization.amount,
      dm: derogatory_marks.amount,
      age: credit_age.amount,
      mix: credit_mix.amount,
      newCredit: new_credit.amount,
    }),
    payment_history,
    credit_utilization,
    derogatory_marks,
    credit_age,
    credit_mix,
    new_credit,
  };
};
