/**
 * A payment on an account whose balance is made of rate segments or carries
 * accrued interest (docs/decisions/payoff-and-outlook.md), allocated as Regulation Z §1026.53 requires
 * by the money engine's one allocation (`DebtBook.pay`): on a loan, accrued
 * interest first; the minimum to the lowest-rate segments first, the excess to
 * the highest rate first, or to a deferred-interest segment in the two months
 * before its promotion ends (§1026.53(b)(1)). `balance` stays the segments' sum.
 */
import { DebtBook, type DebtTerms } from '../shared/money/index.js';
import type { Cents, IsoDate } from '../shared/primitives.js';
import type { AccountRecord } from './account.js';
import { effectiveMinimumPayment } from './account.js';
import type { AccountPatch } from './account-repository.js';
import { toAprSegments } from './statement-terms.js';

/** The account as the allocation sees it: its segments as stored (whatever `user_apr` says: the stored balance is theirs), accrued interest. */
const termsForAllocation = (a: AccountRecord): DebtTerms => ({
  id: a.id,
  balance: a.balance,
  apr: a.user_apr ?? a.apr ?? 0,
  minimumPayment: 0,
  ...(a.apr_segments !== undefined && a.apr_segments !== null ? { segments: a.apr_segments } : {}),
  ...(a.accrued_interest !== undefined && a.accrued_interest !== null ? { accruedInterest: a.accrued_interest } : {}),
});

/**
 * What a payment of `amount` on `date` writes to the account (never below 0):
 * the new balance, segments and accrued interest, the last-payment fields.
 * The part up to the account's minimum for that date (escrow excluded) is the
 * minimum; the rest is the excess.
 * @example allocatedPayment(card, 30_000, '2026-03-15', '2026-03-15').apr_segments // the minimum to the 0% segment, the rest to the highest rate
 */
export const allocatedPayment = (a: AccountRecord, amount: Cents, date: IsoDate, updatedOn: IsoDate): AccountPatch => {
  const terms = termsForAllocation(a);
  const book = new DebtBook([terms], { start: date });
  const minimum = Math.max(0, (effectiveMinimumPayment(a, date) ?? 0) - (a.escrow_payment ?? 0));
  const minimumPart = Math.min(amount, minimum);
  book.pay(0, minimumPart, false, 0);
  book.pay(0, amount - minimumPart, true, 0);
  const after = book.termsOf(0, terms);
  return {
    balance: after.balance as Cents,
    ...(after.segments !== undefined && after.segments !== null ? { apr_segments: toAprSegments(after.segments) } : {}),
    ...(a.accrued_interest !== undefined && a.accrued_interest !== null ? { accrued_interest: (after.accruedInterest ?? 0) as Cents } : {}),
    last_payment_amount: amount,
    last_payment_date: date,
    last_updated_at: updatedOn,
  };
};
