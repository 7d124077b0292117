/**
 * This feature's object mothers (testing/record-mothers.ts has the kernel's): valid records for its
 * storage ports, every field present (absent values `null`, as stored); overrides replace whole fields.
 */
import type { IsoDate, UserId } from '../shared/primitives.js';
import type { NewAccount } from './account-repository.js';
import { AccountRecord, noAccountDetails } from './account.js';
import { CREATED_AT, TODAY, cents, isoDate, timestamp } from '../testing/record-mothers.js';
import { make } from '../testing/make.js';

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
