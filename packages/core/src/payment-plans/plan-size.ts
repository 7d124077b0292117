/**
 * Bounded answers (docs/decisions/tenancy.md): no response body passes 1 MiB, and a single
 * resource stays under it by the limits at its creation, with room for the
 * envelope that may carry it (an event, a webhook payload, a kept
 * Idempotency-Key answer). The one resource whose size a client controls is a
 * payment plan: its schedule has a row per account and month. So a plan is
 * refused at creation, with a 400 naming the limit in account-months, when
 *
 * 1. its accounts × months of schedule pass `MAX_PLAN_ACCOUNT_MONTHS` (a plan
 *    of that size at typical amounts is about 86 bytes per account-month, so
 *    the bound with room to spare: a 50-debt, 360-month plan is over it); or
 * 2. its body, in any supported API version, would pass
 *    `MAX_PLAN_BODY_BYTES` (1 MiB − 4 KiB) anyway: ids and amounts of many
 *    digits make rows longer than typical. This is measured, not estimated,
 *    and only for plans large enough that it could happen.
 */
import * as E from 'fp-ts/lib/Either.js';
import { validationError, type ValidationError } from '../shared/errors.js';
import type { PaymentPlan } from './payment-plan.js';

/** No response body passes this many bytes (before compression). */
export const MAX_RESPONSE_BODY_BYTES = 1024 * 1024;

/** A plan's own body stays under this: 4 KiB are left for an event's or a list's envelope around it. */
export const MAX_PLAN_BODY_BYTES = MAX_RESPONSE_BODY_BYTES - 4 * 1024;

/** Accounts × months of schedule one plan may have. */
export const MAX_PLAN_ACCOUNT_MONTHS = 12_000;

/**
 * The longest a schedule row can be: the fixed text of
 * `{"account_id":…,"payment":…,"interest":…,"principal":…,"balance":…},`
 * (63 characters) and five numbers of at most 16 digits (safe integers).
 */
const MAX_ROW_BYTES = 63 + 5 * 16;
/** The longest a schedule month's own text can be: `{"month":600,"date":"YYYY-MM-DD","payments":[` and `]},`. */
const MAX_MONTH_BYTES = 48;
/**
 * The longest the rest of a plan can be: 100 account ids listed three times
 * (`account_ids`, `order`, `custom_order`), 120 extra payments, and the
 * scalar fields, each number at most 16 digits.
 */
const MAX_FIXED_BYTES = 3 * 100 * 17 + 120 * 45 + 1024;

/** UTF-8 length of `s` without encoding it. */
const utf8Length = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i += 1;
    } else n += 3;
  }
  return n;
};

/** Accounts × months: the size of a plan's schedule. */
export const planAccountMonths = (plan: Pick<PaymentPlan, 'order' | 'months'>): number => plan.order.length * plan.months;

const tooLarge = (reason: string): ValidationError =>
  validationError(
    `The payment plan is too large: ${reason}; the limit is ${MAX_PLAN_ACCOUNT_MONTHS.toLocaleString('en-US')} account-months (accounts × months of schedule)`,
    [
      {
        path: 'account_ids',
        message: `at most ${MAX_PLAN_ACCOUNT_MONTHS} account-months (accounts × months of schedule); plan fewer accounts or pay them off sooner`,
      },
    ],
  );

/**
 * Right when `plan` may be created: within `MAX_PLAN_ACCOUNT_MONTHS`, and
 * under `MAX_PLAN_BODY_BYTES` as each of `renderings` shapes it (one per
 * supported API version). Give the plan its widest `id` (the largest safe
 * integer) when it has none yet, so the measure holds for any id it gets.
 * @example planSizeProblem(plan, [(p) => p]) // Left(validation_error) for 50 accounts × 241 months
 */
export const planSizeProblem = (
  plan: PaymentPlan,
  renderings: ReadonlyArray<(plan: PaymentPlan) => unknown>,
): E.Either<ValidationError, void> => {
  const accountMonths = planAccountMonths(plan);
  if (accountMonths > MAX_PLAN_ACCOUNT_MONTHS) {
    return E.left(
      tooLarge(`${plan.order.length} accounts over ${plan.months} months is ${accountMonths.toLocaleString('en-US')} account-months`),
    );
  }
  // Only a plan that could come near the bound at the widest rows is measured (typical plans are far from it).
  // Half the bound: an older version's shape would have to double a plan's text to pass it unmeasured.
  if (accountMonths * MAX_ROW_BYTES + plan.months * MAX_MONTH_BYTES + MAX_FIXED_BYTES <= MAX_PLAN_BODY_BYTES / 2) return E.right(undefined);
  for (const render of renderings) {
    const bytes = utf8Length(JSON.stringify(render(plan)));
    if (bytes > MAX_PLAN_BODY_BYTES) {
      return E.left(
        tooLarge(
          `its body would be ${bytes.toLocaleString('en-US')} bytes, over ${MAX_PLAN_BODY_BYTES.toLocaleString('en-US')} (1 MiB − 4 KiB), as its ids and amounts are long`,
        ),
      );
    }
  }
  return E.right(undefined);
};
