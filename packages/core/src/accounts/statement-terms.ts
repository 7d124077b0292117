/**
 * What an account may carry beyond the spec's fields so that its money is
 * computed as its statement does (docs/decisions/payoff-and-outlook.md): the interest method, the
 * issuer's minimum payment formula, the balance by rate (`apr_segments`, with
 * promotions and deferred interest), escrow and accrued interest. All
 * optional, on link and PATCH, in every version; shown as `null` when absent.
 *
 * Sources: Regulation Z (12 CFR 1026) §1026.53 (allocation of payments across
 * balances with different rates), §1026.55(b)(1) (promotional and deferred-interest
 * programs), §1026.7(b)(12) and Appendix M1 (the Minimum Payment Warning);
 * the minimum payment formulas are the issuers' published ones (e.g. "1% of
 * the balance plus interest and fees, or $25, whichever is greater").
 */
import * as t from 'io-ts';
import { boundedNumber, strictObject } from '../shared/codec.js';
import type { ErrorDetail } from '../shared/errors.js';
import { Cents, IsoDate, nullable } from '../shared/primitives.js';
import { firstMonthMinimum, type DebtTerms, type MinimumFormula, type RateSegment } from '../shared/money/index.js';

/**
 * The largest balance an account may have, in cents ($100 billion): every
 * amount stays exact in a double through 600 months of interest, and the
 * closed form of daily compounding keeps sub-cent precision (issue 42).
 */
export const MAX_BALANCE = 10_000_000_000_000;

/** A whole number of cents from 0 to MAX_BALANCE. */
export const Balance = t.refinement(Cents, (n) => n <= MAX_BALANCE, `Cents(0..${MAX_BALANCE})`);

export const InterestMethod = t.keyof({ monthly: null, daily_compound: null, daily_simple: null }, 'InterestMethod');
export type InterestMethod = t.TypeOf<typeof InterestMethod>;

export const SegmentKind = t.keyof(
  { purchase: null, balance_transfer: null, cash_advance: null, promotional: null, penalty: null },
  'SegmentKind',
);
export type SegmentKind = t.TypeOf<typeof SegmentKind>;

const Rate = boundedNumber(0, 100, 'APR(0..100)');
const Percent = boundedNumber(0, 100, 'percent(0..100)');

export const MinimumPaymentFormulaTerm = strictObject(
  'MinimumPaymentFormulaTerm',
  { percent_of_balance: Percent },
  { plus_interest: t.boolean, plus_amount: Balance },
);
export type MinimumPaymentFormulaTerm = t.TypeOf<typeof MinimumPaymentFormulaTerm>;

/** At least one term, at most five. */
export const MinimumPaymentFormulaTerms = t.refinement(
  t.array(MinimumPaymentFormulaTerm),
  (a) => a.length >= 1 && a.length <= 5,
  'terms(1..5 entries)',
);

export const MinimumPaymentFormula = strictObject('MinimumPaymentFormula', { floor: Balance, terms: MinimumPaymentFormulaTerms });
export type MinimumPaymentFormula = t.TypeOf<typeof MinimumPaymentFormula>;

export const AprSegment = strictObject(
  'AprSegment',
  { kind: SegmentKind, balance: Balance, apr: Rate },
  {
    promo_ends_on: nullable(IsoDate),
    go_to_apr: nullable(Rate),
    deferred_interest: nullable(t.boolean),
    accrued_deferred_interest: nullable(Balance),
  },
);
export type AprSegment = t.TypeOf<typeof AprSegment>;

/** At least one segment, at most ten. */
export const AprSegments = t.refinement(t.array(AprSegment), (a) => a.length >= 1 && a.length <= 10, 'AprSegments(1..10 entries)');

/** The statement terms as a link or PATCH body takes them (each may be null: absent, or cleared by PATCH). */
export const statementTermsProps = {
  interest_method: nullable(InterestMethod),
  minimum_payment_formula: nullable(MinimumPaymentFormula),
  apr_segments: nullable(AprSegments),
  escrow_payment: nullable(Balance),
  accrued_interest: nullable(Balance),
};

/** The statement terms as an account stores them: each optional (records stored before them have none). */
export const StatementTerms = t.partial(statementTermsProps, 'StatementTerms');
export type StatementTerms = t.TypeOf<typeof StatementTerms>;

/** The account fields the rules below read. */
export interface TermsSubject extends StatementTerms {
  readonly type: string;
  readonly subtype: string;
  readonly balance: number;
  /** The minimum the account has without a formula (user's ?? institution's), or null. */
  readonly fixedMinimum: number | null;
}

/** A card (docs/decisions/payoff-and-outlook.md): a credit card or medical financing; every other loan is a loan. */
export const isCard = (subtype: string): boolean => subtype === 'credit_card_loan' || subtype === 'medical_loan';

/** Whether an account carries any statement term. */
export const carriesStatementTerms = (a: StatementTerms): boolean =>
  (a.interest_method ?? null) !== null ||
  (a.minimum_payment_formula ?? null) !== null ||
  (a.apr_segments ?? null) !== null ||
  (a.escrow_payment ?? null) !== null ||
  (a.accrued_interest ?? null) !== null;

/** Whether a payment on the account is allocated (segments or accrued interest: docs/decisions/payoff-and-outlook.md, §1026.53), not a plain subtraction. */
export const allocatesPayments = (a: StatementTerms): boolean => (a.apr_segments ?? null) !== null || (a.accrued_interest ?? 0) > 0;

/**
 * Everything wrong with an account's statement terms together, as details
 * naming the field (docs/decisions/payoff-and-outlook.md): empty when they are valid.
 */
export const statementTermsProblems = (a: TermsSubject): ErrorDetail[] => {
  const details: ErrorDetail[] = [];
  const card = isCard(a.subtype);
  const loan = a.type === 'loan';
  if (a.balance > MAX_BALANCE) details.push({ path: 'balance', message: `must be at most ${MAX_BALANCE} cents` });
  const method = a.interest_method ?? null;
  if (method !== null && !loan) details.push({ path: 'interest_method', message: 'is only for loan accounts' });
  else if (method === 'daily_simple' && card)
    details.push({ path: 'interest_method', message: 'daily_simple is for loans, not cards (credit_card_loan, medical_loan)' });
  if ((a.minimum_payment_formula ?? null) !== null && !card)
    details.push({ path: 'minimum_payment_formula', message: 'is only for cards (credit_card_loan, medical_loan)' });
  const segments = a.apr_segments ?? null;
  if (segments !== null) {
    if (!card) details.push({ path: 'apr_segments', message: 'are only for cards (credit_card_loan, medical_loan)' });
    const sum = segments.reduce((s, x) => s + x.balance, 0);
    if (sum !== a.balance)
      details.push({ path: 'apr_segments', message: `balances must sum to balance (${a.balance} cents; they sum to ${sum})` });
    segments.forEach((x, k) => {
      const promo = (x.promo_ends_on ?? null) !== null;
      const goTo = (x.go_to_apr ?? null) !== null;
      if (promo && !goTo) details.push({ path: `apr_segments.${k}.go_to_apr`, message: 'is required with promo_ends_on' });
      if (goTo && !promo) details.push({ path: `apr_segments.${k}.promo_ends_on`, message: 'is required with go_to_apr' });
      if ((x.deferred_interest ?? null) !== null && !promo)
        details.push({ path: `apr_segments.${k}.deferred_interest`, message: 'is only allowed with promo_ends_on and go_to_apr' });
      if ((x.accrued_deferred_interest ?? null) !== null && x.deferred_interest !== true)
        details.push({ path: `apr_segments.${k}.accrued_deferred_interest`, message: 'is only allowed on a deferred_interest segment' });
    });
  }
  const escrow = a.escrow_payment ?? null;
  if (escrow !== null) {
    if (a.subtype !== 'mortgage_loan') details.push({ path: 'escrow_payment', message: 'is only for mortgages (mortgage_loan)' });
    else if (a.fixedMinimum !== null && escrow >= a.fixedMinimum)
      details.push({ path: 'escrow_payment', message: `must be less than the minimum payment (${a.fixedMinimum} cents)` });
  }
  const accrued = a.accrued_interest ?? null;
  if (accrued !== null && (!loan || card)) details.push({ path: 'accrued_interest', message: 'is only for loans that are not cards' });
  return details;
};

/** The minimum payment formula as the engine takes it. */
const engineFormula = (f: MinimumPaymentFormula): MinimumFormula => ({
  floor: f.floor,
  terms: f.terms.map((x) => ({
    percent_of_balance: x.percent_of_balance,
    plus_interest: x.plus_interest ?? false,
    plus_amount: x.plus_amount ?? 0,
  })),
});

/** The account's fields the money engine reads. */
export interface TermsAccount extends StatementTerms {
  readonly id: number;
  readonly balance: number;
  readonly apr: number | null;
  readonly user_apr: number | null;
  readonly minimum_payment: number | null;
  readonly user_minimum_payment: number | null;
}

/**
 * The balance-weighted current APR of the segments, 2 decimals (docs/decisions/payoff-and-outlook.md
 * `effective_apr` when neither `user_apr` nor the institution's APR is set);
 * null without segments or with no balance in them.
 */
export const weightedApr = (segments: ReadonlyArray<AprSegment> | null | undefined): number | null => {
  if (segments === null || segments === undefined) return null;
  const total = segments.reduce((s, x) => s + x.balance, 0);
  if (total === 0) return segments.length > 0 ? Math.round(Math.min(...segments.map((x) => x.apr)) * 100) / 100 : null;
  return Math.round((segments.reduce((s, x) => s + x.balance * x.apr, 0) / total) * 100) / 100;
};

/**
 * The account's debt terms for the engine, as of `today` (docs/decisions/payoff-and-outlook.md): a
 * `user_apr` is the user's one rate for the whole balance (segments ignored);
 * else the segments carry the rates; a `user_minimum_payment` is fixed, else
 * the formula, else the institution's minimum. Null when it has no rate or no
 * minimum. `minimumPayment` is this month's minimum (escrow included).
 */
export const debtTermsOf = (a: TermsAccount, today: string): DebtTerms | null => {
  const segments = a.user_apr === null ? (a.apr_segments ?? null) : null;
  const apr = a.user_apr ?? a.apr ?? weightedApr(segments);
  const formula =
    a.user_minimum_payment === null && (a.minimum_payment_formula ?? null) !== null ? engineFormula(a.minimum_payment_formula!) : null;
  const base: DebtTerms = {
    id: a.id,
    balance: a.balance,
    apr: apr ?? 0,
    minimumPayment: a.user_minimum_payment ?? a.minimum_payment ?? 0,
    ...(a.interest_method !== undefined && a.interest_method !== null ? { interestMethod: a.interest_method } : {}),
    ...(segments !== null ? { segments: segments.map(toRateSegment) } : {}),
    ...(formula !== null ? { minimumFormula: formula } : {}),
    ...(a.escrow_payment !== undefined && a.escrow_payment !== null ? { escrow: a.escrow_payment } : {}),
    ...(a.accrued_interest !== undefined && a.accrued_interest !== null ? { accruedInterest: a.accrued_interest } : {}),
  };
  if (apr === null) return null;
  if (formula !== null) return { ...base, minimumPayment: firstMonthMinimum(base, today as never) + (base.escrow ?? 0) };
  return a.user_minimum_payment === null && a.minimum_payment === null ? null : base;
};

const toRateSegment = (x: AprSegment): RateSegment => ({
  kind: x.kind,
  balance: x.balance,
  apr: x.apr,
  ...(x.promo_ends_on !== undefined && x.promo_ends_on !== null ? { promo_ends_on: x.promo_ends_on } : {}),
  ...(x.go_to_apr !== undefined && x.go_to_apr !== null ? { go_to_apr: x.go_to_apr } : {}),
  ...(x.deferred_interest === true ? { deferred_interest: true, accrued_deferred_interest: x.accrued_deferred_interest ?? 0 } : {}),
});

/** The segments back as an account stores them, after the engine moved money (a payment, a sandbox month). */
export const toAprSegments = (segments: ReadonlyArray<RateSegment>): AprSegment[] =>
  segments.map((x) => ({
    kind: x.kind,
    balance: x.balance as Cents,
    apr: x.apr,
    ...(x.promo_ends_on !== undefined && x.promo_ends_on !== null ? { promo_ends_on: x.promo_ends_on } : {}),
    ...(x.go_to_apr !== undefined && x.go_to_apr !== null ? { go_to_apr: x.go_to_apr } : {}),
    ...(x.deferred_interest === true
      ? { deferred_interest: true, accrued_deferred_interest: (x.accrued_deferred_interest ?? 0) as Cents }
      : {}),
  }));
