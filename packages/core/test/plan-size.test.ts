/**
 * The plan-size rule (docs/decisions/tenancy.md "Bounded answers", payment-plans/plan-size.ts) at
 * its edge: the largest plan it allows, rendered in every supported version,
 * is under 1 MiB − 4 KiB; one more month of schedule is refused, naming the
 * limit in account-months; so is a plan within the account-months whose long
 * ids and amounts would still pass the bound.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from '../src/shared/errors.js';
import type { PaymentPlan, ScheduleMonth } from '../src/payment-plans/payment-plan.js';
import { planPayoff, type PayoffDebt } from '../src/payment-plans/payoff-plan.js';
import { MAX_PLAN_ACCOUNT_MONTHS, MAX_PLAN_BODY_BYTES, planSizeProblem } from '../src/payment-plans/plan-size.js';
import type { Timestamp } from '../src/shared/primitives.js';
import { idOf } from '../src/shared/constructors.js';
import { planScheduleContext, versioning } from '../src/registry/versioning/versions.js';
import { cents, date, debt } from './payoff-builders.js';

/**
 * 50 debts of $10,000 at 20% paying only their minimum: $169.89 a month pays
 * each off in exactly 240 months (50 × 240 = 12,000 account-months); $169.83 takes 241.
 */
export const LARGEST_ALLOWED_MINIMUM = 16_989;
export const ONE_MONTH_MORE_MINIMUM = 16_983;

/** A computed plan with its schedule, as it is stored (the latest version shows it without). */
type PlanWithSchedule = PaymentPlan & { readonly schedule: ScheduleMonth[] };

const planOf = (debts: ReadonlyArray<PayoffDebt>, minimum: number): PlanWithSchedule => {
  const result = planPayoff({ strategy: 'minimum_only', monthlyPayment: cents(minimum * debts.length), debts, today: date('2024-07-01') });
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
  return {
    id: idOf('payment_plan', Number.MAX_SAFE_INTEGER),
    strategy: 'minimum_only',
    monthly_payment: cents(minimum * debts.length),
    account_ids: debts.map((d) => d.id),
    order: result.right.order,
    custom_order: null,
    extra_payments: [],
    start_date: date('2024-07-01'),
    months: result.right.months,
    payoff_date: result.right.payoff_date,
    total_interest: result.right.total_interest,
    total_paid: result.right.total_paid,
    created_at: '2024-07-01T12:00:00.000Z' as Timestamp,
    warnings: [],
    schedule: result.right.schedule,
  };
};

const fiftyDebts = (minimum: number, firstId = 1, balance = 1_000_000): PayoffDebt[] =>
  Array.from({ length: 50 }, (_, i) => debt(firstId + i, balance, 20, minimum));

/** Each version's rendering of a plan: the latest without its schedule, 2024-07-01 with it (from the render context). */
const everyVersion = versioning.known.map((v) => (plan: PaymentPlan) => {
  const { schedule, ...view } = plan as PlanWithSchedule;
  return versioning.render('payment_plan', view, v, planScheduleContext([{ id: plan.id, schedule }]));
});
const bytesOf = (body: unknown): number => Buffer.byteLength(JSON.stringify(body));

const leftOf = (e: E.Either<DomainError, void>): DomainError => {
  if (E.isRight(e)) throw new Error('expected the plan to be refused');
  return e.left;
};

describe('plan-size rule (bounded answers)', () => {
  it('the limit is 12,000 account-months, under 1 MiB − 4 KiB', () => {
    expect(MAX_PLAN_ACCOUNT_MONTHS).to.equal(12_000);
    expect(MAX_PLAN_BODY_BYTES).to.equal(1_048_576 - 4_096);
  });

  it('the largest plan allowed (50 accounts × 240 months) is accepted, and its body in every supported version is under 1 MiB − 4 KiB', () => {
    const plan = planOf(fiftyDebts(LARGEST_ALLOWED_MINIMUM), LARGEST_ALLOWED_MINIMUM);
    expect(plan.months * plan.order.length).to.equal(MAX_PLAN_ACCOUNT_MONTHS);
    expect(planSizeProblem(plan, everyVersion)).to.deep.equal(E.right(undefined));
    expect(versioning.known.length).to.be.greaterThan(0);
    for (const render of everyVersion) expect(bytesOf(render(plan))).to.be.at.most(MAX_PLAN_BODY_BYTES);
    expect(
      Math.max(...everyVersion.map((render) => bytesOf(render(plan)))),
      'the largest rendering (2024-07-01, schedule embedded)',
    ).to.be.at.least(900_000);
  });

  it('one month more (50 × 241 = 12,050 account-months) is refused with a validation error naming the limit in account-months', () => {
    const plan = planOf(fiftyDebts(ONE_MONTH_MORE_MINIMUM), ONE_MONTH_MORE_MINIMUM);
    expect(plan.months).to.equal(241);
    expect(leftOf(planSizeProblem(plan, everyVersion))).to.deep.equal({
      _tag: 'validation_error',
      message:
        'The payment plan is too large: 50 accounts over 241 months is 12,050 account-months; the limit is 12,000 account-months (accounts × months of schedule)',
      details: [
        {
          path: 'account_ids',
          message: 'at most 12000 account-months (accounts × months of schedule); plan fewer accounts or pay them off sooner',
        },
      ],
    });
  });

  it('a 50-debt, 360-month minimum_only plan is over the limit (docs/decisions/tenancy.md)', () => {
    // $167.11 a month: 359 months; $167.10: 361 (interest rounding skips 360).
    const plan = planOf(fiftyDebts(16_710), 16_710);
    expect(plan.months).to.equal(361);
    expect(leftOf(planSizeProblem(plan, everyVersion)).message).to.contain('the limit is 12,000 account-months');
  });

  it('a plan within the account-months whose long ids and amounts would pass the bound is refused, measured', () => {
    // 13-digit ids and balances of $10 billion: rows far longer than typical.
    const wide = Array.from({ length: 50 }, (_, i) => debt(1_000_000_000_000 + i, 1_000_000_000_000, 20, 16_989_000_000));
    const plan = planOf(wide, 16_989_000_000);
    expect(plan.months * plan.order.length).to.be.at.most(MAX_PLAN_ACCOUNT_MONTHS);
    expect(bytesOf(plan)).to.be.above(MAX_PLAN_BODY_BYTES);
    expect(leftOf(planSizeProblem(plan, everyVersion)).message).to.match(
      /^The payment plan is too large: its body would be [0-9,]+ bytes, over 1,044,480 \(1 MiB − 4 KiB\), as its ids and amounts are long; the limit is 12,000 account-months/,
    );
  });

  it('measures the body as each version renders it: a version whose shape is longer is held to the bound too', () => {
    const plan = planOf(fiftyDebts(LARGEST_ALLOWED_MINIMUM), LARGEST_ALLOWED_MINIMUM);
    const padded = (p: PaymentPlan) => ({ ...p, note: 'x'.repeat(200_000) });
    expect(leftOf(planSizeProblem(plan, [...everyVersion, padded])).message).to.contain('its body would be');
  });
});
