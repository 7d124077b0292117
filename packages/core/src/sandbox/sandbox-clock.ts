/**
 * One month of the sandbox over time (docs/sandbox-over-time.md), as a pure function: what
 * a month does to a user's accounts. The use case (sandbox/use-cases.ts)
 * stores it, one transaction per month.
 */
import type { Account, AccountRecord } from '../accounts/account.js';
import { effectiveApr, effectiveMinimumPayment, toAccountView } from '../accounts/account.js';
import type { ErrorDetail } from '../shared/errors.js';
import { MAX_PAYMENTS_HISTORY_LENGTH, type PaymentCode } from '../accounts/payment-history.js';
import type { ScheduleMonth } from '../payment-plans/payment-plan.js';
import { DebtBook, type DebtTerms } from '../shared/money/index.js';
import { MAX_BALANCE, toAprSegments } from '../accounts/statement-terms.js';
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
      ...(effectiveMinimumPayment(a) === null
        ? [{ path: `accounts.${a.id}`, message: `account ${a.id} has no minimum payment (set user_minimum_payment)` }]
        : []),
    ]);

/**
 * The month's code (docs/sandbox-over-time.md): `E` at a zero balance, `1` when at least the
 * minimum (or what was owed) was paid, else a missed month: `2`, then `3`, `4`,
 * `5` as misses continue (the previous month's code is the history's first).
 */
export const monthCode = (
  previous: PaymentCode | undefined,
  balanceAfter: number,
  paid: number,
  minimum: number,
  owed: number,
): PaymentCode => {
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

/**
 * What one month did to one account. Balances are what it owes (its balance
 * plus accrued interest): balanceBefore + interest + deferredInterest − paid = balanceAfter.
 */
export interface AccountMonth {
  readonly accountId: AccountId;
  readonly balanceBefore: Cents;
  /** The month's interest, a deferred-interest charge excluded. */
  readonly interest: Cents;
  /** Deferred interest charged this month: a promotion ended with a balance left (docs/decisions/payoff-and-outlook.md). */
  readonly deferredInterest: Cents;
  /** What reduced the debt (escrow excluded). */
  readonly paid: Cents;
  readonly balanceAfter: Cents;
  /** The fields to store (balance, segments, accrued interest, history, last payment, next due date, last update). */
  readonly patch: Pick<
    AccountRecord,
    'balance' | 'payments_history' | 'last_payment_amount' | 'last_payment_date' | 'next_payment_due_date' | 'last_updated_at'
  > &
    Pick<AccountRecord, 'apr_segments' | 'accrued_interest'>;
}

export interface MonthInput {
  /** Every account of the user; only open loans move. */
  readonly accounts: ReadonlyArray<AccountRecord>;
  /** The month's date (the user's clock after it). */
  readonly date: IsoDate;
  /** The previous month's date (the user's clock before it): interest runs over the days between (default one month before `date`). */
  readonly from?: IsoDate | undefined;
  readonly payments: SandboxPayments;
  /** With `payments: "plan"`: the plan's schedule month whose date falls in this month, if any (none: nothing is paid). */
  readonly planMonth?: ScheduleMonth | undefined;
}

/**
 * The account as the engine's one month sees it: its segments as stored (at
 * `user_apr` when the user set one: their one rate for the whole balance), its
 * method, minimum (the user's fixed one, else the formula, else the
 * institution's), escrow and accrued interest.
 */
const termsOfMonth = (a: AccountRecord): DebtTerms => {
  const userApr = a.user_apr;
  const segments = a.apr_segments ?? null;
  const formula = a.user_minimum_payment === null ? (a.minimum_payment_formula ?? null) : null;
  return {
    id: a.id,
    balance: a.balance,
    apr: effectiveApr(a) ?? 0,
    minimumPayment: a.user_minimum_payment ?? a.minimum_payment ?? 0,
    ...(a.interest_method !== undefined && a.interest_method !== null ? { interestMethod: a.interest_method } : {}),
    ...(segments !== null
      ? { segments: userApr === null ? segments : segments.map((x) => ({ kind: x.kind, balance: x.balance, apr: userApr })) }
      : {}),
    ...(formula !== null
      ? {
          minimumFormula: {
            floor: formula.floor,
            terms: formula.terms.map((x) => ({
              percent_of_balance: x.percent_of_balance,
              plus_interest: x.plus_interest ?? false,
              plus_amount: x.plus_amount ?? 0,
            })),
          },
        }
      : {}),
    ...(a.escrow_payment !== undefined && a.escrow_payment !== null ? { escrow: a.escrow_payment } : {}),
    ...(a.accrued_interest !== undefined && a.accrued_interest !== null ? { accruedInterest: a.accrued_interest } : {}),
  };
};

/**
 * One month, through the money engine's own month (shared/money: `DebtBook`),
 * for every open loan: promotions that end by the month's date end (a
 * deferred-interest segment with a balance left is charged its accrued
 * interest), interest accrues by the account's method over the days since the
 * previous month (docs/decisions/payoff-and-outlook.md's round-half-up(balance × APR / 1200) for an account
 * without statement terms), then it is paid its minimum (a formula's falls with
 * the balance), nothing, or what the plan month schedules for it (never more
 * than it owes; a paid-off loan stays at 0), allocated as Regulation Z §1026.53
 * requires (the minimum to the lowest rates, the excess to the highest), and it
 * gains the month's code at the front of its history (24 kept). So, per account:
 * balance before + interest + deferred interest − paid = balance after.
 */
export const applyMonth = (input: MonthInput): ReadonlyArray<AccountMonth> =>
  input.accounts.filter(isAdvanced).map((a): AccountMonth => {
    const from = input.from ?? addMonths(input.date, -1);
    const terms = termsOfMonth(a);
    const book = new DebtBook([terms], { start: from, dates: [from, input.date] });
    const before = book.owed[0]!;
    let minimum = 0;
    if (before > 0) {
      book.accrue(0, 1);
      minimum = book.minimumOf(0, before);
    }
    const owed = book.owed[0]!;
    const wanted =
      input.payments === 'minimum'
        ? minimum
        : input.payments === 'plan'
          ? (input.planMonth?.payments.find((p) => p.account_id === a.id)?.payment ?? 0)
          : 0;
    const paid = Math.min(wanted, owed);
    const minimumPart = Math.min(paid, minimum);
    book.pay(0, minimumPart, false, 1);
    book.pay(0, paid - minimumPart, true, 1);
    const after = book.termsOf(0, terms);
    const balanceAfter = book.owed[0]!;
    const deferredInterest = before > 0 ? book.deferredCharged[0]! : 0;
    const interest = before > 0 ? book.charged[0]! - deferredInterest : 0;
    const code = monthCode(a.payments_history[0], balanceAfter, paid, minimum, owed);
    return {
      accountId: a.id,
      balanceBefore: before as Cents,
      interest: interest as Cents,
      deferredInterest: deferredInterest as Cents,
      paid: paid as Cents,
      balanceAfter: balanceAfter as Cents,
      patch: {
        balance: after.balance as Cents,
        ...(a.apr_segments !== undefined && a.apr_segments !== null ? { apr_segments: storedSegments(a, after) } : {}),
        ...(a.accrued_interest !== undefined && a.accrued_interest !== null
          ? { accrued_interest: (after.accruedInterest ?? 0) as Cents }
          : {}),
        payments_history: [code, ...a.payments_history].slice(0, MAX_PAYMENTS_HISTORY_LENGTH),
        last_payment_amount: paid > 0 ? (paid as Cents) : a.last_payment_amount,
        last_payment_date: paid > 0 ? input.date : a.last_payment_date,
        next_payment_due_date: balanceAfter > 0 ? addMonths(input.date, 1) : null,
        last_updated_at: input.date,
      },
    };
  });

/**
 * One month of an advance as the compute pool works it out (sandbox-computations.ts):
 * `applyMonth`, and each moved account's view on the month's date as it will
 * be once its patch is stored (the account read in the month's transaction
 * with the patch over it: the use case writes the patch by compare-and-set on
 * that read's version, so the stored account is exactly this, or the month
 * runs again from a fresh read). The views are what the month's
 * `account.updated` events carry; their `expected_payoff_date` is a
 * minimum-only projection, the month's heaviest part.
 */
export interface ProjectedMonth {
  readonly months: ReadonlyArray<AccountMonth>;
  /** `views[k]` is the view of `months[k]`'s account after the month. */
  readonly views: ReadonlyArray<Account>;
}

export const projectMonth = (input: MonthInput): ProjectedMonth => {
  const months = applyMonth(input);
  const byId = new Map(input.accounts.map((a) => [a.id, a]));
  return {
    months,
    views: months.map((m) => toAccountView({ ...byId.get(m.accountId)!, ...m.patch }, input.date)),
  };
};

/** The segments as the account stores them after the month: the engine's (promotions ended, deferred interest accrued), or, under a `user_apr`, the stored ones with the new balances. */
const storedSegments = (a: AccountRecord, after: DebtTerms) =>
  a.user_apr === null
    ? toAprSegments(after.segments ?? [])
    : (a.apr_segments ?? []).map((x, k) => ({ ...x, balance: (after.segments?.[k]?.balance ?? x.balance) as Cents }));

/** The largest balance an advance may leave an account with (issue 42): past it, the month is refused. */
export const accountsPastMaximum = (months: ReadonlyArray<AccountMonth>): ReadonlyArray<ErrorDetail> =>
  months
    .filter((m) => m.balanceAfter > MAX_BALANCE)
    .map((m) => ({
      path: `accounts.${m.accountId}`,
      message: `account ${m.accountId} would owe more than the maximum balance (${MAX_BALANCE} cents)`,
    }));

/** The plan's schedule month whose date falls in (`after`, `upTo`]: the month of a plan an advance month posts. */
export const planMonthIn = (schedule: ReadonlyArray<ScheduleMonth>, after: IsoDate, upTo: IsoDate): ScheduleMonth | undefined =>
  schedule.find((m) => m.date > after && m.date <= upTo);
