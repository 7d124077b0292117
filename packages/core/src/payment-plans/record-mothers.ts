/**
 * This feature's object mothers (testing/record-mothers.ts has the kernel's): valid records for its
 * storage ports, every field present (absent values `null`, as stored); overrides replace whole fields.
 */
import type { PaymentPlanId, UserId } from '../shared/primitives.js';
import type { NewPaymentPlan } from './payment-plan-repository.js';
import type { NewPlanPayment } from './plan-payment-repository.js';
import { CREATED_AT, anId, cents, isoDate, TODAY } from '../testing/record-mothers.js';

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
