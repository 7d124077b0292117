/**
 * One month of the sandbox over time (docs/sandbox-over-time.md), as a pure function: what
 * a month does to a user's accounts. The use case (sandbox/use-cases.ts)
 * stores it, one transaction per month.
 */
import type { AccountRecord } from '../accounts/account.js';
import { effectiveApr, effectiveMinimumPayment } from '../accounts/account.js';
import type { ErrorDetail } from '../shared/errors.js';
import { MAX_PAYMENTS_HISTORY_LENGTH, type PaymentCode } from '../accounts/payment-history.js';
import type { ScheduleMonth } from '../payment-plans/payment-plan.js';
import { monthlyInterest } from '../payment-plans/payoff-plan.js';
import { addMonths, type AccountId, type Cents, type IsoDate } from '../shared/primitives.js';
import type { SandboxAdvance, SandboxPayments } from '../users/user.js';

/** An advance moves at most this many months a call (docs/sandbox-over-time.md). */
export const MAX_ADVANCE_MONTHS = 12;

/** The date month `i` of an advance falls on (4's day clamping, from the advance's start, so no day drifts). */
export const advanceMonthDate = (advance: Pick<SandboxAdvance, 'from'>, i: number): IsoDate => addMonths(advance.from, i);

/** The date an advance ends on. */
export const advanceTarget = (advance: Pick<SandboxAdvance, 'from' | 'months'>): IsoDate => advanceMonthDate(advance, advance.months);

/** The months of `advance` still to apply when the user's clock shows `userDate`: their indexes, in order. */
export const monthsLeft = (advance: SandboxAdvance, userDate: IsoDate): ReadonlyArray<number> => {
  const left: number[] = [];
  for (let i = 1; i <= advance.months; i++) if (advanceMonthDate(advance, i) > userDate) left.push(i);
  return left;
};

/** The accounts a month moves: every open (not closed) loan. */
export const isAdvanced = (a: AccountRecord): boolean => a.type === 'loan' && a.status !== 'closed';

/**
 * The open loans with a balance that lack an APR or a minimum payment: a month
 * cannot be computed for them (409 naming them).
 */
export const accountsMissingTerms = (accounts: ReadonlyArray<AccountRecord>): ReadonlyArray<ErrorDetail> =>
  accounts
    .filter((a) => isAdvanced(a) && a.balance > 0)
    .flatMap((a) => [
      ...(effectiveApr(a) === null ? [{ path: `accounts.${a.id}`, message: `account ${a.id} has no APR (set user_apr)` }] : []),
      ...(effectiveMinimumPayment(a) === null ? [{ path: `accounts.${a.id}`, message: `account ${a.id} has no minimum payment (set user_minimum_payment)` }] : []),
    ]);

/**
 * The month's code (docs/sandbox-over-time.md): `E` at a zero balance, `1` when at least the
 * minimum (or what was owed) was paid, else a missed month: `2`, then `3`, `4`,
 * `5` as misses continue (the previous month's code is the history's first).
 */
export const monthCode = (previous: PaymentCode | undefined, balanceAfter: number, paid: number, minimum: number, owed: number): PaymentCode => {
  if (balanceAfter === 0) return 'E';
  if (paid >= Math.min(minimum, owed)) return '1';
  switch (previous) {
    case '2':
      return '3';
    case '3':
      return '4';
    case '4':
    case '5':
      return '5';
    default:
      return '2';
  }
};

/** What one month did to one account. */
export interface AccountMonth {
  readonly accountId: AccountId;
  readonly balanceBefore: Cents;
  readonly interest: Cents;
  readonly paid: Cents;
  readonly balanceAfter: Cents;
  /** The fields to store (balance, history, last payment, next due date, last update). */
  readonly patch: Pick<AccountRecord, 'balance' | 'payments_history' | 'last_payment_amount' | 'last_payment_date' | 'next_payment_due_date' | 'last_updated_at'>;
}

export interface MonthInput {
  /** Every account of the user; only open loans move. */
  readonly accounts: ReadonlyArray<AccountRecord>;
  /** The month's date (the user's clock after it). */
  readonly date: IsoDate;
  readonly payments: SandboxPayments;
  /** With `payments: "plan"`: the plan's schedule month whose date falls in this month, if any (none: nothing is paid). */
  readonly planMonth?: ScheduleMonth | undefined;
}

/**
 * One month: every open loan accrues round-half-up(balance × APR / 1200) on
 * its balance, then is paid its minimum, nothing, or what the plan month
 * schedules for it (never more than it owes; a paid-off loan stays at 0), and
 * gains the month's code at the front of its history (24 kept). So, per account:
 * balance before + interest − paid = balance after.
 */
export const applyMonth = (input: MonthInput): ReadonlyArray<AccountMonth> =>
  input.accounts.filter(isAdvanced).map((a): AccountMonth => {
    const apr = effectiveApr(a) ?? 0;
    const minimum = effectiveMinimumPayment(a) ?? 0;
    const interest = a.balance > 0 ? monthlyInterest(a.balance, apr) : (0 as Cents);
    const owed = a.balance + interest;
    const wanted =
      input.payments === 'minimum'
        ? minimum
        : input.payments === 'plan'
          ? (input.planMonth?.payments.find((p) => p.account_id === a.id)?.payment ?? 0)
          : 0;
    const paid = Math.min(wanted, owed) as Cents;
    const balanceAfter = (owed - paid) as Cents;
    const code = monthCode(a.payments_history[0], balanceAfter, paid, minimum, owed);
    return {
      accountId: a.id,
      balanceBefore: a.balance,
      interest,
      paid,
      balanceAfter,
      patch: {
        balance: balanceAfter,
        payments_history: [code, ...a.payments_history].slice(0, MAX_PAYMENTS_HISTORY_LENGTH),
        last_payment_amount: paid > 0 ? paid : a.last_payment_amount,
        last_payment_date: paid > 0 ? input.date : a.last_payment_date,
        next_payment_due_date: balanceAfter > 0 ? addMonths(input.date, 1) : null,
        last_updated_at: input.date,
      },
    };
  });

/** The plan's schedule month whose date falls in (`after`, `upTo`]: the month of a plan an advance month posts. */
export const planMonthIn = (schedule: ReadonlyArray<ScheduleMonth>, after: IsoDate, upTo: IsoDate): ScheduleMonth | undefined =>
  schedule.find((m) => m.date > after && m.date <= upTo);
