/**
 * Linked accounts (docs/api/reference.md): the stored record, the API view with
 * its derived fields, and the status transitions.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { AccountId, Cents, UserId, IsoDate, Timestamp, nullable } from '../shared/primitives.js';
import { PaymentCode } from './payment-history.js';
import { expectedPayoffDate, minimumOnlyMonths, type MinimumOnlyMonths } from '../payment-plans/payoff-plan.js';
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
export const AccountRecord = t.type(
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

export const effectiveApr = (a: AccountRecord): number | null => a.user_apr ?? a.apr;
export const effectiveMinimumPayment = (a: AccountRecord): Cents | null => a.user_minimum_payment ?? a.minimum_payment;

/** The API view of a stored account on `today` (derived fields computed, never stored). */
export const toAccountView = (a: AccountRecord, today: IsoDate, months: MinimumOnlyMonths = minimumOnlyMonths): Account => {
  const apr = effectiveApr(a);
  const minimum = effectiveMinimumPayment(a);
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
    expected_payoff_date:
      apr === null || minimum === null ? null : expectedPayoffDate({ balance: a.balance, apr, minimumPayment: minimum }, today, months),
    payments_history: [...a.payments_history],
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
