/**
 * The payment plans feature's request codecs (CreatePaymentPlanBody, ComparePaymentPlansBody, PlanPaymentBody, PaymentPlanScheduleQuery): what its operations accept, the single source
 * of truth the HTTP adapter decodes with and the OpenAPI document is generated from (shared/requests.ts holds
 * the kernel's shared pieces: page fields, query integers and ids). Objects are strict: unknown fields are rejected.
 */
import * as t from 'io-ts';
import { AccountId, IsoDate } from '../shared/primitives.js';
import { strictObject } from '../shared/codec.js';
import { PositiveCents } from '../shared/request-fields.js';
import { QueryInt } from '../shared/requests.js';
import { CustomOrder, ExtraPayments, Strategy } from './payment-plan.js';

const planBudgetFields = {
  account_ids: t.refinement(
    t.array(AccountId),
    (a) => a.length >= 1 && a.length <= 100 && new Set(a).size === a.length,
    'distinct account ids (1..100)',
  ),
  // docs/decisions/payoff-and-outlook.md: the use case checks the custom order against the plan's accounts and start_date against today.
  custom_order: CustomOrder,
  extra_payments: ExtraPayments,
  start_date: IsoDate,
};

export const CreatePaymentPlanBody = strictObject(
  'CreatePaymentPlanBody',
  { strategy: Strategy, monthly_payment: PositiveCents },
  planBudgetFields,
);
export type CreatePaymentPlanBody = t.TypeOf<typeof CreatePaymentPlanBody>;

/** The plan body minus `strategy` (docs/decisions/payoff-and-outlook.md): every strategy is computed. */
export const ComparePaymentPlansBody = strictObject('ComparePaymentPlansBody', { monthly_payment: PositiveCents }, planBudgetFields);
export type ComparePaymentPlansBody = t.TypeOf<typeof ComparePaymentPlansBody>;

export const PlanPaymentBody = strictObject('PlanPaymentBody', { account_id: AccountId, amount: PositiveCents }, { date: IsoDate });
export type PlanPaymentBody = t.TypeOf<typeof PlanPaymentBody>;
/** A page of a plan's schedule: `limit` months (1..120) after month `starting_after` (0..600; 0, the default, is before the first). */
export const PaymentPlanScheduleQuery = strictObject(
  'PaymentPlanScheduleQuery',
  {},
  { limit: QueryInt(1, 120), starting_after: QueryInt(0, 600) },
);
export type PaymentPlanScheduleQuery = t.TypeOf<typeof PaymentPlanScheduleQuery>;
