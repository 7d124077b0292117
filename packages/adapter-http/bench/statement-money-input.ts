/**
 * The realistic bench input of docs/decisions/payoff-and-outlook.md (statement-grade money) and
 * docs/performance.md: 50 debts as a user's statements show them.
 *
 * - 20 cards (`credit_card_loan`), each with three segments: purchases at
 *   17.99–26.99%, a cash advance at 29.99%, and a deferred-interest promotion
 *   at 0% (26.99% when it ends, 3 to 17 months away), a "1% of the balance plus
 *   interest, $25 floor" minimum and `daily_compound` interest;
 * - 30 loans with `daily_simple` interest, amortising minimums, two of them
 *   mortgages whose payment includes $600 of escrow.
 *
 * Deterministic (no randomness): the bench and its A/B runs time the same work.
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  AccountRecord,
  addMonths,
  idOf,
  type Cents,
  type CreditOutlookInput,
  type IsoDate,
  type PaymentCode,
  type PayoffDebt,
  type PayoffPlanInput,
} from '@debtkit/core';

export const STATEMENT_TODAY = '2026-01-15' as IsoDate;
const CARDS = 20;
const LOANS = 30;
/** "1% of the balance plus interest, $25 floor" (Capital One's published formula). */
export const ONE_PERCENT_PLUS_INTEREST = { floor: 2_500, terms: [{ percent_of_balance: 1, plus_interest: true, plus_amount: 0 }] } as const;

/** Round half up to the cent. */
const cents = (x: number): number => Math.floor(x + 0.5);

/** The level payment that repays `balance` at `apr` in `months` months. */
const amortising = (balance: number, apr: number, months: number): number => {
  const r = apr / 1200;
  return Math.ceil((balance * r) / (1 - (1 + r) ** -months));
};

const card = (i: number): PayoffDebt => {
  const balance = 300_000 + ((i * 7_919) % 20) * 25_000; // $3,000 to $7,750
  const purchaseApr = 17.99 + (i % 10);
  const cash = cents(balance * 0.1);
  const deferred = cents(balance * 0.4);
  const purchase = balance - cash - deferred;
  const segments = [
    { kind: 'purchase' as const, balance: purchase, apr: purchaseApr },
    { kind: 'cash_advance' as const, balance: cash, apr: 29.99 },
    {
      kind: 'promotional' as const,
      balance: deferred,
      apr: 0,
      promo_ends_on: addMonths(STATEMENT_TODAY, 3 + (i % 15)),
      go_to_apr: 26.99,
      deferred_interest: true,
      accrued_deferred_interest: 0,
    },
  ];
  // The first month's formula minimum, as the statement shows it: 1% of the balance plus a month's interest.
  const interest = cents((purchase * purchaseApr + cash * 29.99) / 1200);
  const minimumPayment = Math.max(2_500, cents(balance / 100) + interest);
  return {
    id: idOf('account', i + 1),
    balance: balance as Cents,
    apr: 0,
    minimumPayment: minimumPayment as Cents,
    interestMethod: 'daily_compound',
    minimumFormula: ONE_PERCENT_PLUS_INTEREST,
    segments,
  };
};

const loan = (k: number): PayoffDebt => {
  const id = idOf('account', CARDS + k + 1);
  if (k < 2) {
    // Two mortgages: principal and interest over 30 years, plus $600 of escrow in the payment.
    const balance = 24_000_000 + k * 6_000_000;
    const apr = 6.5 - k * 0.75;
    return {
      id,
      balance: balance as Cents,
      apr,
      minimumPayment: (amortising(balance, apr, 360) + 60_000) as Cents,
      interestMethod: 'daily_simple',
      escrow: 60_000,
    };
  }
  const balance = 500_000 + ((k * 4_099) % 40) * 50_000; // $5,000 to $24,500
  const apr = 3.5 + ((k * 37) % 20) * 0.5;
  const term = 60 + (k % 5) * 24;
  return { id, balance: balance as Cents, apr, minimumPayment: amortising(balance, apr, term) as Cents, interestMethod: 'daily_simple' };
};

/** The 50 debts, cards first. */
export const statementDebts = (): PayoffDebt[] => [
  ...Array.from({ length: CARDS }, (_, i) => card(i)),
  ...Array.from({ length: LOANS }, (_, k) => loan(k)),
];

/**
 * The avalanche plan over the 50 debts with a budget 10% above the first
 * month's minimums (escrow included), in whole dollars: enough for avalanche to
 * pay some promotions off before their end and not others, so the plan both
 * avoids and is charged deferred interest, and `minimum_only` (in the
 * comparison) runs the mortgages' 360 months.
 */
export const statementPlanInput = (): PayoffPlanInput => {
  const debts = statementDebts();
  const minimums = debts.reduce((sum, d) => sum + d.minimumPayment, 0);
  return { strategy: 'avalanche', debts, today: STATEMENT_TODAY, monthlyPayment: (Math.ceil((minimums * 1.1) / 100) * 100) as Cents };
};

/**
 * The 50 debts as the user's linked accounts with their statement terms, a
 * 24-month history and an opening date each (the cards with limits), and the
 * avalanche plan over all of them: the credit outlook's realistic input.
 */
export const statementOutlookInput = (): CreditOutlookInput => {
  const plan = statementPlanInput();
  const accounts = plan.debts.map((d, i) => {
    const isCard = d.segments !== undefined && d.segments !== null;
    const history = Array.from({ length: 24 }, (_, k): PaymentCode => (k === i % 24 ? '2' : '1'));
    const decoded = AccountRecord.decode({
      id: d.id,
      user_id: 1,
      name: `Debt ${d.id}`,
      type: 'loan',
      subtype: isCard
        ? 'credit_card_loan'
        : d.escrow !== undefined && d.escrow !== null
          ? 'mortgage_loan'
          : i % 2 === 0
            ? 'auto_loan'
            : 'student_loan',
      mask: null,
      status: 'active',
      nickname: null,
      apr: isCard ? null : d.apr,
      minimum_payment: d.minimumPayment,
      user_apr: null,
      user_minimum_payment: null,
      original_loan_amount: null,
      balance: d.balance,
      limit: isCard ? d.balance * 2 : null,
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
      last_updated_at: plan.today,
      created_at: `${plan.today}T00:00:00.000Z`,
      version: 1,
      interest_method: d.interestMethod ?? null,
      minimum_payment_formula: d.minimumFormula ?? null,
      apr_segments: d.segments ?? null,
      escrow_payment: d.escrow ?? null,
      accrued_interest: d.accruedInterest ?? null,
    });
    if (E.isLeft(decoded)) throw new Error(`the statement outlook account ${d.id} does not decode`);
    return decoded.right;
  });
  return {
    plan: {
      strategy: plan.strategy,
      monthly_payment: plan.monthlyPayment,
      account_ids: plan.debts.map((d) => d.id),
      custom_order: null,
      extra_payments: [],
      start_date: plan.today,
    },
    accounts,
    today: plan.today,
  };
};
