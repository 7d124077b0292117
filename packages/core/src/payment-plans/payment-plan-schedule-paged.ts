/**
 * 2026-11-26: a payment plan no longer embeds its schedule (docs/decisions/tenancy.md).
 *
 * The schedule has a row per account and month: up to about 1 MB for one plan,
 * sent on every create, read and list although most clients show only the
 * summary. It is paged by month at its own endpoint instead (served in every
 * version: a new resource breaks nobody). The stored plan keeps its schedule,
 * so `2024-07-01` gets it back, byte for byte, from the render context.
 */
import * as t from 'io-ts';
import { PaymentPlan, ScheduleMonth, type PaymentPlanRecord } from './payment-plan.js';
import { mapListItems } from '../shared/versioning/field-transforms.js';
import type { BodyTransform, RenderContext, VersionChange } from '../shared/versioning/version-change.js';

declare module '../shared/versioning/version-change.js' {
  interface RenderContext {
    /** The schedule of each payment plan in the body, by plan id (plans stopped embedding it in 2026-11-26). */
    readonly plan_schedules?: Readonly<Record<string, ReadonlyArray<ScheduleMonth>>>;
  }
}

/** The plan as 2024-07-01 shows it: every field of today's, then `schedule`. */
export const PaymentPlan20240701 = t.type({ ...PaymentPlan.props, schedule: t.array(ScheduleMonth) }, 'PaymentPlan');

/**
 * What rendering `plans` in an older version needs: their stored schedules.
 * @example render('payment_plan', toPlanView(record), '2024-07-01', planScheduleContext([record]))
 */
export const planScheduleContext = (plans: ReadonlyArray<Pick<PaymentPlanRecord, 'id' | 'schedule'>>): RenderContext => ({
  plan_schedules: Object.fromEntries(plans.map((p) => [String(p.id), p.schedule])),
});

const isPlainObject = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * The plan with its schedule appended, as the last field (where 2024-07-01 had
 * it). Without the schedule in the context it throws: serving a 2024-07-01 plan
 * without `schedule` would break that version's contract silently.
 */
const withSchedule: BodyTransform = (body, context) => {
  if (!isPlainObject(body)) return body;
  const schedule = context.plan_schedules?.[String(body['id'])];
  if (schedule === undefined)
    throw new Error(`render: plan ${String(body['id'])} needs its schedule in the render context (planScheduleContext)`);
  return { ...body, schedule };
};

export const paymentPlanSchedulePaged: VersionChange = {
  version: '2026-11-26',
  description:
    'A payment plan no longer embeds its month-by-month `schedule`, which has a row per account and month (up to about 1 MB) ' +
    'while most clients show only the summary. Page it with `GET /api/users/{id}/payment_plans/{payment_plan_id}/schedule` ' +
    '(`limit`, `starting_after` = the last month number received), which answers `{ "months": [...], "has_more": ... }`, each ' +
    'month in the shape `schedule` had (`month`, `date`, `payments`). That endpoint is new and answers in every version, 2024-07-01 included; ' +
    'in 2024-07-01 plans still embed `schedule`, as before.',
  transforms: {
    payment_plan: withSchedule,
    payment_plan_list: mapListItems('payment_plans', withSchedule),
  },
  previousCodecs: [PaymentPlan20240701],
};
