/**
 * The OpenAPI example of `GET …/credit_outlook`, computed by core's own
 * projection from a small user (so the example is a real answer, never stale):
 * a $2,000 card on a $4,000 limit (50% utilization, 24% APR, $60 minimum)
 * paid $600 a month, beside a car loan outside the plan.
 */
import * as E from 'fp-ts/lib/Either.js';
import { AccountRecord, creditOutlook, type CreditOutlook } from '@debtkit/core';

const TODAY = '2026-06-15';

const account = (fields: Record<string, unknown>): AccountRecord => {
  const decoded = AccountRecord.decode({
    user_id: 1,
    name: 'Account',
    type: 'loan',
    mask: null,
    status: 'active',
    nickname: null,
    apr: null,
    minimum_payment: null,
    user_apr: null,
    user_minimum_payment: null,
    original_loan_amount: null,
    limit: null,
    last_payment_amount: null,
    last_payment_date: null,
    closed_at: null,
    institution_name: null,
    institution_logo: null,
    next_payment_due_date: null,
    user_next_payment_date: null,
    first_time_payment: null,
    last_updated_at: TODAY,
    created_at: `${TODAY}T00:00:00.000Z`,
    version: 1,
    ...fields,
  });
  if (E.isLeft(decoded)) throw new Error('the credit outlook example account does not decode');
  return decoded.right;
};

const accounts = [
  account({
    id: 11,
    name: 'Visa',
    subtype: 'credit_card_loan',
    balance: 200_000,
    limit: 400_000,
    apr: 24,
    minimum_payment: 6_000,
    opened_at: '2019-04-02',
    payments_history: ['1', '1', '2', '1'],
  }),
  account({
    id: 12,
    name: 'Car loan',
    subtype: 'auto_loan',
    balance: 1_200_000,
    apr: 6.5,
    minimum_payment: 35_000,
    opened_at: '2025-09-20',
    payments_history: ['1', '1'],
  }),
];

const outlook = creditOutlook({
  plan: {
    strategy: 'avalanche',
    monthly_payment: 60_000 as never,
    account_ids: [11 as never],
    custom_order: null,
    extra_payments: [],
    start_date: TODAY as never,
  },
  accounts,
  today: TODAY as never,
});
if (E.isLeft(outlook)) throw new Error(`the credit outlook example does not project: ${outlook.left.message}`);

/** A plan over the card alone: utilization turns Good in month 2, the card is paid off in month 4. */
export const CREDIT_OUTLOOK_EXAMPLE: CreditOutlook = outlook.right;
