/**
 * The accounts feature's request codecs (LinkAccountBody, PatchAccountBody, AccountListQuery): what its operations accept, the single source
 * of truth the HTTP adapter decodes with and the OpenAPI document is generated from (shared/requests.ts holds
 * the kernel's shared pieces: page fields, query integers and ids). Objects are strict: unknown fields are rejected.
 */
import * as t from 'io-ts';
import { Cents, IsoDate, nullable } from '../shared/primitives.js';
import { boundedString, strictObject } from '../shared/codec.js';
import { Text } from '../shared/request-fields.js';
import { pageFields } from '../shared/requests.js';
import { AccountName, AccountStatus, AccountSubtype, AccountType, Apr, Mask, PaymentsHistory } from './account.js';
import { Balance, statementTermsProps } from './statement-terms.js';

export const LinkAccountBody = strictObject(
  'LinkAccountBody',
  { name: AccountName, type: AccountType, subtype: AccountSubtype, balance: Balance },
  {
    mask: nullable(Mask),
    status: AccountStatus,
    nickname: nullable(Text(100)),
    institution_apr: nullable(Apr),
    institution_minimum_payment: nullable(Cents),
    original_loan_amount: nullable(Cents),
    limit: nullable(Cents),
    last_payment_amount: nullable(Cents),
    last_payment_date: nullable(IsoDate),
    opened_at: nullable(IsoDate),
    institution_name: nullable(Text(200)),
    institution_logo: nullable(
      t.refinement(boundedString(0, 200_000, 'base64 image'), (s) => /^[A-Za-z0-9+/]*={0,2}$/.test(s), 'base64 image (≤200000 chars)'),
    ),
    next_payment_due_date: nullable(IsoDate),
    first_time_payment: nullable(t.boolean),
    payments_history: PaymentsHistory,
    // The statement terms (docs/decisions/payoff-and-outlook.md; accounts/statement-terms.ts).
    ...statementTermsProps,
  },
);
export type LinkAccountBody = t.TypeOf<typeof LinkAccountBody>;

export const PatchAccountBody = strictObject(
  'PatchAccountBody',
  {},
  {
    nickname: nullable(Text(100)),
    user_apr: nullable(Apr),
    user_minimum_payment: nullable(Cents),
    user_next_payment_date: nullable(IsoDate),
    status: AccountStatus,
    // The statement terms (docs/decisions/payoff-and-outlook.md; accounts/statement-terms.ts): null clears one.
    ...statementTermsProps,
  },
);
export type PatchAccountBody = t.TypeOf<typeof PatchAccountBody>;
export const AccountListQuery = strictObject('AccountListQuery', {}, { ...pageFields, type: AccountType, status: AccountStatus });
export type AccountListQuery = t.TypeOf<typeof AccountListQuery>;
