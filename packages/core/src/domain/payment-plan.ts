/**
 * Stored debt payoff plans and plan payments (DESIGN 7.6).
 */
import * as t from 'io-ts';
import { Cents, Id, IsoDate, Timestamp } from './primitives.js';

export const Strategy = t.keyof({ avalanche: null, snowball: null }, 'Strategy');
export type Strategy = t.TypeOf<typeof Strategy>;

export const ScheduledPayment = t.type({
  account_id: Id,
  payment: Cents,
  interest: Cents,
  principal: Cents,
  balance: Cents,
});
export type ScheduledPayment = t.TypeOf<typeof ScheduledPayment>;

export const ScheduleMonth = t.type({ month: t.number, date: IsoDate, payments: t.array(ScheduledPayment) });
export type ScheduleMonth = t.TypeOf<typeof ScheduleMonth>;

/** The API's PaymentPlan object. */
export const PaymentPlan = t.type(
  {
    id: Id,
    strategy: Strategy,
    monthly_payment: Cents,
    account_ids: t.array(Id),
    order: t.array(Id),
    months: t.number,
    payoff_date: IsoDate,
    total_interest: Cents,
    total_paid: Cents,
    created_at: Timestamp,
    schedule: t.array(ScheduleMonth),
  },
  'PaymentPlan',
);
export type PaymentPlan = t.TypeOf<typeof PaymentPlan>;

export const PaymentPlanRecord = t.intersection([PaymentPlan, t.type({ user_id: Id })], 'PaymentPlanRecord');
export type PaymentPlanRecord = t.TypeOf<typeof PaymentPlanRecord>;

/** The API's plan payment object. */
export const PlanPayment = t.type(
  { id: Id, payment_plan_id: Id, account_id: Id, amount: Cents, date: IsoDate },
  'PlanPayment',
);
export type PlanPayment = t.TypeOf<typeof PlanPayment>;

export const PlanPaymentRecord = t.intersection([PlanPayment, t.type({ user_id: Id })], 'PlanPaymentRecord');
export type PlanPaymentRecord = t.TypeOf<typeof PlanPaymentRecord>;
