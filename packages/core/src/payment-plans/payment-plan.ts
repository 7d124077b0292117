/**
 * Stored debt payoff plans and plan payments (docs/decisions/payoff-and-outlook.md).
 */
import * as t from 'io-ts';
import { boundedInt, strictObject } from '../shared/codec.js';
import { AccountId, Cents, Id, PaymentPlanId, PlanPaymentId, UserId, IsoDate, Timestamp, nullable } from '../shared/primitives.js';

/**
 * Where the money beyond the minimums goes (docs/decisions/payoff-and-outlook.md): `avalanche` and
 * `snowball` (7.6), `custom` (the order of `custom_order`), `minimum_only`
 * (nothing beyond the minimums; a paid-off debt's minimum is not reused).
 */
export const Strategy = t.keyof({ avalanche: null, snowball: null, custom: null, minimum_only: null }, 'Strategy');
export type Strategy = t.TypeOf<typeof Strategy>;

/** No plan takes more than 600 months, so no extra payment can fall later. */
export const MAX_PLAN_MONTH = 600;
/** At most this many one-time extra payments per plan (docs/decisions/payoff-and-outlook.md). */
export const MAX_EXTRA_PAYMENTS = 120;

/** A one-time addition to month `month`'s budget (docs/decisions/payoff-and-outlook.md). */
export const ExtraPayment = strictObject('ExtraPayment', {
  month: boundedInt(1, MAX_PLAN_MONTH),
  amount: t.refinement(Cents, (n) => n > 0, 'positive cents'),
});
export type ExtraPayment = t.TypeOf<typeof ExtraPayment>;

/** A plan's extra payments: at most 120 (the name states the bound for the OpenAPI document). */
export const ExtraPayments = t.refinement(
  t.array(ExtraPayment),
  (a) => a.length <= MAX_EXTRA_PAYMENTS,
  `ExtraPayments(≤${MAX_EXTRA_PAYMENTS} entries)`,
);

/** A custom order: distinct account ids (the use case checks they are exactly the plan's). */
export const CustomOrder = t.refinement(
  t.array(AccountId),
  (a) => a.length >= 1 && a.length <= 100 && new Set(a).size === a.length,
  'distinct account ids (1..100)',
);

export const ScheduledPayment = t.type({
  account_id: AccountId,
  payment: Cents,
  interest: Cents,
  principal: Cents,
  balance: Cents,
});
export type ScheduledPayment = t.TypeOf<typeof ScheduledPayment>;

/** What a plan warns about (docs/decisions/payoff-and-outlook.md; the engine's codes, shared/money/engine.ts). */
export const PlanWarningCode = t.keyof(
  { deferred_interest_charged: null, deferred_interest_avoided: null, budget_below_minimums: null },
  'PlanWarningCode',
);
export type PlanWarningCode = t.TypeOf<typeof PlanWarningCode>;

/**
 * A plan's warning (docs/decisions/payoff-and-outlook.md): a deferred-interest charge posted or avoided
 * on an account (`amount` the charge), or a month whose minimums exceed the
 * budget (`account_id` null, `amount` the shortfall; the minimums are paid).
 */
export const PlanWarning = t.type(
  { account_id: nullable(AccountId), code: PlanWarningCode, month: t.number, amount: Cents },
  'PlanWarning',
);
export type PlanWarning = t.TypeOf<typeof PlanWarning>;

export const ScheduleMonth = t.type({ month: t.number, date: IsoDate, payments: t.array(ScheduledPayment) });
export type ScheduleMonth = t.TypeOf<typeof ScheduleMonth>;

/** The months of `schedule` after month `after`, at most `count` of them, in order: a schedule page's read (`PaymentPlanRepository.getScheduleOwned`). */
export const monthsAfter = (schedule: ReadonlyArray<ScheduleMonth>, after: number, count: number): ScheduleMonth[] =>
  schedule.filter((m) => m.month > after).slice(0, count);

/** The API's PaymentPlan object (since 2026-11-26 without its schedule: payment-plans/payment-plan-schedule-paged.ts). */
export const PaymentPlan = t.type(
  {
    id: PaymentPlanId,
    strategy: Strategy,
    monthly_payment: Cents,
    account_ids: t.array(AccountId),
    order: t.array(AccountId),
    /** The extra-money order of a `custom` plan; null for the other strategies. */
    custom_order: nullable(t.array(AccountId)),
    extra_payments: t.array(ExtraPayment),
    /** Month n of the plan falls on this date plus n months. */
    start_date: IsoDate,
    months: t.number,
    payoff_date: IsoDate,
    total_interest: Cents,
    total_paid: Cents,
    created_at: Timestamp,
    /** What the plan warns about, computed at creation (docs/decisions/payoff-and-outlook.md): deferred interest charged or avoided, months whose minimums exceed the budget. */
    warnings: t.array(PlanWarning),
  },
  'PaymentPlan',
);
export type PaymentPlan = t.TypeOf<typeof PaymentPlan>;

/**
 * What is stored for a plan: the API object, its owner and its month-by-month
 * schedule (served by `GET …/schedule`, and embedded in the plan by 2024-07-01).
 */
export const PaymentPlanRecord = t.intersection(
  [PaymentPlan, t.type({ user_id: UserId, schedule: t.array(ScheduleMonth) })],
  'PaymentPlanRecord',
);
export type PaymentPlanRecord = t.TypeOf<typeof PaymentPlanRecord>;

/** The API's plan payment object. */
export const PlanPayment = t.type(
  { id: PlanPaymentId, payment_plan_id: PaymentPlanId, account_id: AccountId, amount: Cents, date: IsoDate },
  'PlanPayment',
);
export type PlanPayment = t.TypeOf<typeof PlanPayment>;

export const PlanPaymentRecord = t.intersection([PlanPayment, t.type({ user_id: UserId })], 'PlanPaymentRecord');
export type PlanPaymentRecord = t.TypeOf<typeof PlanPaymentRecord>;

/** A page of a plan's schedule (`GET …/payment_plans/{payment_plan_id}/schedule`), months ascending. */
export const PaymentPlanSchedulePage = t.type({ months: t.array(ScheduleMonth), has_more: t.boolean }, 'PaymentPlanSchedulePage');
export type PaymentPlanSchedulePage = t.TypeOf<typeof PaymentPlanSchedulePage>;
