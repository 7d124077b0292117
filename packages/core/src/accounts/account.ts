/**
 * Linked accounts (docs/api/reference.md): the stored record, the API view with
 * its derived fields, and the status transitions.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { AccountId, Cents, UserId, IsoDate, Timestamp, addMonths, nullable } from '../shared/primitives.js';
import {
  AprSegment,
  InterestMethod,
  MinimumPaymentFormula,
  StatementTerms,
  carriesStatementTerms,
  debtTermsOf,
  weightedApr,
} from './statement-terms.js';
import { runEngine, type DebtTerms } from '../shared/money/index.js';
import { PaymentCode } from './payment-history.js';
import { MAX_PAYOFF_MONTHS, expectedPayoffDate, minimumOnlyMonths, type MinimumOnlyMonths } from '../shared/money/single-debt.js';
import { conflict, type Conflict } from '../shared/errors.js';
import { boundedInt, boundedNumber, boundedString } from '../shared/codec.js';

export const AccountType = t.keyof({ depository: null, loan: null, investment: null, other: null }, 'AccountType');
export type AccountType = t.TypeOf<typeof AccountType>;

export const AccountSubtype = t.keyof(
  {
    student_loan: null,
    credit_card_loan: null,
    auto_loan: null,
    personal_loan: null,
    mortgage_loan: null,
    medical_loan: null,
    other_loan: null,
    checking: null,
    savings: null,
  },
  'AccountSubtype',
);
export type AccountSubtype = t.TypeOf<typeof AccountSubtype>;

export const AccountStatus = t.keyof({ active: null, disabled: null, closed: null }, 'AccountStatus');
export type AccountStatus = t.TypeOf<typeof AccountStatus>;

/** Last 4 digits of the account number. */
export const Mask = t.refinement(t.string, (s) => /^[0-9]{4}$/.test(s), 'Mask(4 digits)');
/** An APR in percent, 0–100. */
export const Apr = boundedNumber(0, 100, 'APR(0..100)');
export const AccountName = boundedString(1, 200, 'string(1..200)');
/** A payment history: at most 24 codes, most recent month first. */
export const PaymentsHistory = t.refinement(t.array(PaymentCode), (a) => a.length <= 24, 'PaymentsHistory(≤24 codes)');

/** The version of an account as first stored. */
export const initialAccountVersion = 1;
export const AccountVersion = boundedInt(initialAccountVersion, Number.MAX_SAFE_INTEGER, 'AccountVersion');

/** What is stored for an account. `apr`/`minimum_payment` are the institution's values. */
const AccountRecordFields = t.type(
  {
    id: AccountId,
    user_id: UserId,
    name: t.string,
    type: AccountType,
    subtype: AccountSubtype,
    mask: nullable(Mask),
    status: AccountStatus,
    nickname: nullable(t.string),
    apr: nullable(Apr),
    minimum_payment: nullable(Cents),
    user_apr: nullable(Apr),
    user_minimum_payment: nullable(Cents),
    original_loan_amount: nullable(Cents),
    balance: Cents,
    limit: nullable(Cents),
    last_payment_amount: nullable(Cents),
    last_payment_date: nullable(IsoDate),
    opened_at: nullable(IsoDate),
    closed_at: nullable(IsoDate),
    institution_name: nullable(t.string),
    institution_logo: nullable(t.string),
    next_payment_due_date: nullable(IsoDate),
    user_next_payment_date: nullable(IsoDate),
    first_time_payment: nullable(t.boolean),
    payments_history: PaymentsHistory,
    last_updated_at: IsoDate,
    created_at: Timestamp,
    /** Starts at 1 and increases with every stored change: the compare-and-set token of docs/decisions/transactions.md (never in the API view). */
    version: AccountVersion,
  },
  'AccountRecord',
);

/**
 * What is stored for an account: the spec's fields, and the statement terms
 * of docs/decisions/payoff-and-outlook.md, each optional so that records stored before them decode.
 */
export const AccountRecord = t.intersection([AccountRecordFields, StatementTerms], 'AccountRecord');
export type AccountRecord = t.TypeOf<typeof AccountRecord>;

/** The API's Account object (docs/api/reference.md): every field, absent values `null`. */
export const Account = t.type(
  {
    id: AccountId,
    name: t.string,
    type: AccountType,
    subtype: AccountSubtype,
    mask: nullable(Mask),
    status: AccountStatus,
    nickname: nullable(t.string),
    user_apr: nullable(Apr),
    user_minimum_payment: nullable(Cents),
    effective_minimum_payment: nullable(Cents),
    effective_apr: nullable(Apr),
    /** The institution's APR and minimum, which the effective ones fall back to (since 2026-11-26). */
    institution_apr: nullable(Apr),
    institution_minimum_payment: nullable(Cents),
    original_loan_amount: nullable(Cents),
    balance: Cents,
    limit: nullable(Cents),
    last_payment_amount: nullable(Cents),
    last_updated_at: IsoDate,
    last_payment_date: nullable(IsoDate),
    opened_at: nullable(IsoDate),
    closed_at: nullable(IsoDate),
    institution_name: nullable(t.string),
    institution_logo: nullable(t.string),
    next_payment_due_date: nullable(IsoDate),
    user_next_payment_date: nullable(IsoDate),
    first_time_payment: nullable(t.boolean),
    expected_payoff_date: nullable(IsoDate),
    payments_history: t.array(PaymentCode),
    /** The statement terms (docs/decisions/payoff-and-outlook.md): `null` when the account carries none. */
    interest_method: nullable(InterestMethod),
    minimum_payment_formula: nullable(MinimumPaymentFormula),
    apr_segments: nullable(t.array(AprSegment)),
    escrow_payment: nullable(Cents),
    accrued_interest: nullable(Cents),
  },
  'Account',
);
export type Account = t.TypeOf<typeof Account>;

/** Every optional field of an account absent (`null`, no payment history): what a new record starts from before its own values. */
export const noAccountDetails = () =>
  ({
    mask: null,
    nickname: null,
    apr: null,
    minimum_payment: null,
    user_apr: null,
    user_minimum_payment: null,
    original_loan_amount: null,
    limit: null,
    last_payment_amount: null,
    last_payment_date: null,
    opened_at: null,
    closed_at: null,
    institution_name: null,
    institution_logo: null,
    next_payment_due_date: null,
    user_next_payment_date: null,
    first_time_payment: null,
    payments_history: [] as PaymentCode[],
  }) satisfies Partial<AccountRecord>;

/** `user_apr` ?? the institution's APR ?? the segments' balance-weighted APR (docs/decisions/payoff-and-outlook.md). */
export const effectiveApr = (a: AccountRecord): number | null => a.user_apr ?? a.apr ?? weightedApr(a.apr_segments);

/**
 * `user_minimum_payment` ?? this month's formula minimum (as of `today`) ?? the
 * institution's minimum (docs/decisions/payoff-and-outlook.md). Without a formula `today` is not read.
 */
export const effectiveMinimumPayment = (a: AccountRecord, today: IsoDate = a.last_updated_at): Cents | null => {
  if (a.user_minimum_payment !== null) return a.user_minimum_payment;
  if ((a.minimum_payment_formula ?? null) === null) return a.minimum_payment;
  const terms = debtTermsOf(a, today);
  return terms === null ? a.minimum_payment : (terms.minimumPayment as Cents);
};

/** The statement terms of a debt beyond its balance, rate and minimum: what `currentDebtOf` adds for the engine. */
export type DebtStatementTerms = Pick<DebtTerms, 'interestMethod' | 'minimumFormula' | 'segments' | 'escrow' | 'accruedInterest'>;

/**
 * An account as a projection sees it now (docs/decisions/payoff-and-outlook.md): its balance, effective
 * APR and minimum as of `today`, and its statement terms for the engine (none
 * for an account without them, whose projection is then docs/decisions/payoff-and-outlook.md's).
 */
export const currentDebtOf = (
  a: AccountRecord,
  today: IsoDate,
): {
  readonly id: AccountId;
  readonly balance: Cents;
  readonly apr: number | null;
  readonly minimumPayment: Cents | null;
} & DebtStatementTerms => {
  const apr = effectiveApr(a);
  const minimumPayment = effectiveMinimumPayment(a, today);
  if (!carriesStatementTerms(a)) return { id: a.id, balance: a.balance, apr, minimumPayment };
  const terms = debtTermsOf(a, today);
  const statement: DebtStatementTerms =
    terms === null
      ? {}
      : {
          ...(terms.interestMethod !== undefined ? { interestMethod: terms.interestMethod } : {}),
          ...(terms.minimumFormula !== undefined ? { minimumFormula: terms.minimumFormula } : {}),
          ...(terms.segments !== undefined ? { segments: terms.segments } : {}),
          ...(terms.escrow !== undefined ? { escrow: terms.escrow } : {}),
          ...(terms.accruedInterest !== undefined ? { accruedInterest: terms.accruedInterest } : {}),
        };
  return { id: a.id, balance: a.balance, apr, minimumPayment, ...statement };
};

/**
 * The date the account reaches 0 paying only its minimum from `today`, through
 * the money engine with its statement terms (docs/decisions/payoff-and-outlook.md), or null (as
 * `expectedPayoffDate`).
 */
export const statementPayoffMonths = (a: AccountRecord, today: IsoDate): number | null => {
  const debt = debtTermsOf(a, today);
  if (debt === null || debt.balance + (debt.accruedInterest ?? 0) === 0 || debt.minimumPayment - (debt.escrow ?? 0) <= 0) return null;
  const outcome = runEngine({ debts: [debt], strategy: 'minimum_only', monthlyPayment: 0, start: today, maxMonths: MAX_PAYOFF_MONTHS });
  return outcome.ok ? outcome.months : null;
};

/** The memo key of an account with statement terms: every input its payoff date depends on, today included. */
const statementKey = (a: AccountRecord, today: IsoDate): string =>
  JSON.stringify([
    today,
    a.balance,
    a.apr,
    a.user_apr,
    a.minimum_payment,
    a.user_minimum_payment,
    a.interest_method,
    a.minimum_payment_formula,
    a.apr_segments,
    a.escrow_payment,
    a.accrued_interest,
  ]);

const payoffDateOf = (
  a: AccountRecord,
  today: IsoDate,
  months: MinimumOnlyMonths,
  apr: number | null,
  minimum: Cents | null,
): IsoDate | null => {
  if (!carriesStatementTerms(a))
    return apr === null || minimum === null
      ? null
      : expectedPayoffDate({ balance: a.balance, apr, minimumPayment: minimum }, today, months);
  const n =
    months.statement === undefined
      ? statementPayoffMonths(a, today)
      : months.statement(statementKey(a, today), () => statementPayoffMonths(a, today));
  return n === null ? null : addMonths(today, n);
};

/**
 * Views remembered by the key that names them (`accountViewKey`): `build` runs when the key is new.
 * The application's owner may hand one in (`ApplicationDeps.accountViews`); the domain keeps none.
 */
export type AccountViews = (key: string, build: () => Account) => Account;

/**
 * What an account's view is a function of: its record, named by its id and version (every write of
 * an account raises its version: the repository's compare-and-set, an update and a payment alike, on
 * every store), and its owner's today. The minimum-only months are the application's one memo, the
 * same for every read. Equal keys, equal views.
 */
export const accountViewKey = (a: AccountRecord, today: IsoDate): string => `${a.id}@${a.version}@${today}`;

/** The API view of a stored account on `today` (derived fields computed, never stored). */
export const toAccountView = (a: AccountRecord, today: IsoDate, months: MinimumOnlyMonths = minimumOnlyMonths): Account => {
  const apr = effectiveApr(a);
  const minimum = effectiveMinimumPayment(a, today);
  return {
    id: a.id,
    name: a.name,
    type: a.type,
    subtype: a.subtype,
    mask: a.mask,
    status: a.status,
    nickname: a.nickname,
    user_apr: a.user_apr,
    user_minimum_payment: a.user_minimum_payment,
    effective_minimum_payment: minimum,
    effective_apr: apr,
    institution_apr: a.apr,
    institution_minimum_payment: a.minimum_payment,
    original_loan_amount: a.original_loan_amount,
    balance: a.balance,
    limit: a.limit,
    last_payment_amount: a.last_payment_amount,
    last_updated_at: a.last_updated_at,
    last_payment_date: a.last_payment_date,
    opened_at: a.opened_at,
    closed_at: a.closed_at,
    institution_name: a.institution_name,
    institution_logo: a.institution_logo,
    next_payment_due_date: a.next_payment_due_date,
    user_next_payment_date: a.user_next_payment_date,
    first_time_payment: a.first_time_payment,
    expected_payoff_date: payoffDateOf(a, today, months, apr, minimum),
    payments_history: [...a.payments_history],
    interest_method: a.interest_method ?? null,
    minimum_payment_formula: a.minimum_payment_formula ?? null,
    apr_segments: a.apr_segments ?? null,
    escrow_payment: a.escrow_payment ?? null,
    accrued_interest: a.accrued_interest ?? null,
  };
};

/**
 * Status transitions (docs/api/reference.md): active ⇄ disabled, active|disabled → closed;
 * closed is terminal. Staying in the same status is allowed (no-op).
 */
export const transitionStatus = (from: AccountStatus, to: AccountStatus): E.Either<Conflict, AccountStatus> => {
  if (from === to) return E.right(to);
  if (from === 'closed') return E.left(conflict(`Account is closed; it cannot become ${to}`));
  return E.right(to);
};
