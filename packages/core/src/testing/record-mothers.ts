/**
 * Object mothers: valid `New*` records for the storage ports, with every field
 * present (absent values are `null`, as stored). Overrides replace whole fields.
 *
 * Branded values are made through their codecs, so a mother can never hand a
 * contract suite something the codecs would reject.
 *
 * @example
 *   const user = await expectRight(store.users.create(aUser(clientId, { last_name: 'Nomatch' })));
 *   const account = await expectRight(store.accounts.create(anAccount(user.id, { type: 'depository' })));
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { Cents, IsoDate, Timestamp, type ClientId, type PaymentPlanId, type UserId } from '../shared/primitives.js';
import { idOf } from '../shared/constructors.js';
import type { NewClient } from '../clients/client-repository.js';
import type { NewUser } from '../users/user-repository.js';
import type { NewAccount } from '../accounts/account-repository.js';
import type { NewCreditScore } from '../credit-scores/credit-score-repository.js';
import type { NewPaymentPlan } from '../payment-plans/payment-plan-repository.js';
import type { NewPlanPayment } from '../payment-plans/plan-payment-repository.js';
import type { BureauFlowState } from '../bureau/bureau-flow.machine.js';
import { AccountRecord, noAccountDetails } from '../accounts/account.js';

/** Decode `value` with `codec` or throw: a mother handing out an invalid value is a bug in the test. */
const make = <A>(codec: t.Type<A, unknown, unknown>, value: unknown): A => {
  const r = codec.decode(value);
  if (E.isLeft(r)) throw new Error(`test data is not a valid ${codec.name}: ${JSON.stringify(value)}`);
  return r.right;
};

/** An id of one kind: `anId('user', 7)` (core's `idOf`). */
export const anId = idOf;
/** A `Cents` amount. */
export const cents = (n: number): Cents => make(Cents, n);
/** A calendar date `YYYY-MM-DD`. */
export const isoDate = (s: string): IsoDate => make(IsoDate, s);
/** An ISO-8601 UTC timestamp. */
export const timestamp = (s: string): Timestamp => make(Timestamp, s);

/** The fixed instant test records are created at (tests never read the clock). */
export const CREATED_AT = timestamp('2024-07-01T12:00:00.000Z');
/** The calendar date of `CREATED_AT`. */
export const TODAY = isoDate('2024-07-01');

/**
 * A token hash as the token repository stores it: 64 hex characters (SHA-256).
 * Distinct `n` give distinct hashes; no crypto needed to make one.
 */
export const aTokenHash = (n: number): string => n.toString(16).padStart(64, '0');

export const aClient = (overrides: Partial<NewClient> = {}): NewClient => ({
  name: 'Acme Budgeting',
  environment: 'sandbox',
  api_version: '2024-07-01',
  created_at: CREATED_AT,
  ...overrides,
});

export const aUser = (clientId: ClientId, overrides: Partial<NewUser> = {}): NewUser => ({
  client_id: clientId,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  date_of_birth: isoDate('1990-12-10'),
  phone: '+15555550100',
  created_at: CREATED_AT,
  ...overrides,
});

/** A credit card as a data provider reports it, with every optional field filled in. */
export const anAccount = (userId: UserId, overrides: Partial<NewAccount> = {}): NewAccount => ({
  user_id: userId,
  name: 'Platinum Card',
  type: 'loan',
  subtype: 'credit_card_loan',
  mask: '4242',
  status: 'active',
  nickname: null,
  apr: 19.99,
  minimum_payment: cents(3_500),
  user_apr: null,
  user_minimum_payment: null,
  original_loan_amount: null,
  balance: cents(250_000),
  limit: cents(1_000_000),
  last_payment_amount: cents(5_000),
  last_payment_date: isoDate('2024-06-15'),
  opened_at: isoDate('2018-03-01'),
  closed_at: null,
  institution_name: 'First Example Bank',
  institution_logo: null,
  next_payment_due_date: isoDate('2024-07-15'),
  user_next_payment_date: null,
  first_time_payment: false,
  payments_history: ['1', '1', '1', 'E', '2', '1', '0', '*', ''],
  last_updated_at: TODAY,
  created_at: CREATED_AT,
  ...overrides,
});

/**
 * A card whose balance is made of rate segments (docs/decisions/payoff-and-outlook.md): $6,000 of
 * purchases at 24%, $4,000 transferred at 0% until 2025-01-01 (then 19.99%),
 * a "1% + interest, $25" minimum, compounded daily.
 */
export const aSegmentedCard = (userId: UserId, overrides: Partial<NewAccount> = {}): NewAccount =>
  anAccount(userId, {
    name: 'Rewards Card',
    balance: cents(1_000_000),
    apr: null,
    minimum_payment: null,
    interest_method: 'daily_compound',
    minimum_payment_formula: { floor: cents(2_500), terms: [{ percent_of_balance: 1, plus_interest: true }] },
    apr_segments: [
      { kind: 'purchase', balance: cents(600_000), apr: 24 },
      { kind: 'balance_transfer', balance: cents(400_000), apr: 0, promo_ends_on: isoDate('2025-01-01'), go_to_apr: 19.99 },
    ],
    ...overrides,
  });

let nextAccountRecordId = 1;
/**
 * A stored account as the domain functions take it (credit report, outlook):
 * a zero-balance personal loan with every optional field `null`, no history,
 * last updated (and created) on `today`; overrides replace whole fields. Ids
 * count up across calls.
 */
export const anAccountRecord = (today: IsoDate, overrides: Record<string, unknown> = {}): AccountRecord =>
  make(AccountRecord, {
    ...noAccountDetails(),
    id: nextAccountRecordId++,
    user_id: 1,
    name: 'Account',
    type: 'loan',
    subtype: 'personal_loan',
    status: 'active',
    balance: 0,
    last_updated_at: today,
    created_at: `${today}T00:00:00.000Z`,
    version: 1,
    ...overrides,
  });

/** A credit score whose factors agree with their amounts (docs/api/reference.md). */
export const aCreditScore = (userId: UserId, overrides: Partial<NewCreditScore> = {}): NewCreditScore => ({
  user_id: userId,
  date: TODAY,
  last_name: 'Lovelace',
  score: 742,
  increase: 0,
  payment_history: { amount: 95.5, factor: 'Good' },
  credit_utilization: { amount: 42.25, factor: 'Poor' },
  derogatory_marks: { amount: 0, factor: 'Good' },
  credit_age: { amount: 6.33, factor: 'Good' },
  credit_mix: { amount: 2, factor: 'Poor' },
  new_credit: { amount: 1, factor: 'Good' },
  created_at: CREATED_AT,
  ...overrides,
});

/** One bureau flow state of each kind, for round-trip checks. */
export const BUREAU_STATES: ReadonlyArray<BureauFlowState> = [
  { _tag: 'initial', consentOnFile: true },
  { _tag: 'consent' },
  { _tag: 'validate_otp', consentOnFile: false, otpFailures: 2 },
  { _tag: 'identity', consentOnFile: true },
  { _tag: 'authenticated' },
];

/**
 * A two-month avalanche plan over accounts 1 and 2 (amounts are plausible, not
 * recomputed: storage does not check the arithmetic).
 */
export const aPaymentPlan = (userId: UserId, overrides: Partial<NewPaymentPlan> = {}): NewPaymentPlan => ({
  user_id: userId,
  strategy: 'avalanche',
  monthly_payment: cents(60_000),
  account_ids: [anId('account', 1), anId('account', 2)],
  order: [anId('account', 2), anId('account', 1)],
  custom_order: null,
  extra_payments: [],
  start_date: isoDate('2024-07-01'),
  months: 2,
  payoff_date: isoDate('2024-09-01'),
  total_interest: cents(1_250),
  total_paid: cents(101_250),
  created_at: CREATED_AT,
  warnings: [],
  schedule: [
    {
      month: 1,
      date: isoDate('2024-08-01'),
      payments: [
        { account_id: anId('account', 2), payment: cents(40_000), interest: cents(700), principal: cents(39_300), balance: cents(10_700) },
        { account_id: anId('account', 1), payment: cents(20_000), interest: cents(400), principal: cents(19_600), balance: cents(30_400) },
      ],
    },
    {
      month: 2,
      date: isoDate('2024-09-01'),
      payments: [
        { account_id: anId('account', 2), payment: cents(10_850), interest: cents(150), principal: cents(10_700), balance: cents(0) },
        { account_id: anId('account', 1), payment: cents(30_400), interest: cents(0), principal: cents(30_400), balance: cents(0) },
      ],
    },
  ],
  ...overrides,
});

export const aPlanPayment = (userId: UserId, planId: PaymentPlanId, overrides: Partial<NewPlanPayment> = {}): NewPlanPayment => ({
  user_id: userId,
  payment_plan_id: planId,
  account_id: anId('account', 1),
  amount: cents(12_345),
  date: TODAY,
  ...overrides,
});
