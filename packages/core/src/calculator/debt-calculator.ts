/**
 * The debt calculator (docs/decisions/payoff-and-outlook.md): one debt, the 7.6 month loop, in either
 * direction — how long a payment takes, or which payment fits a number of
 * months. All arithmetic is the payoff-plan loop's (`projectSingleDebt`).
 */
import * as E from 'fp-ts/lib/Either.js';
import { validationError, type ValidationError, type ErrorDetail } from '../shared/errors.js';
import { MAX_PAYOFF_MONTHS, monthlyInterest, projectionError, projectSingleDebt } from '../payment-plans/payoff-plan.js';
import { addMonths, type Cents, type IsoDate } from '../shared/primitives.js';

export interface CalculateByPaymentInput {
  readonly balance: Cents;
  /** Percent, e.g. 19.99. */
  readonly apr: number;
  readonly monthlyPayment: Cents;
  readonly today: IsoDate;
}

export interface CalculateByMonthsInput {
  readonly balance: Cents;
  /** Percent, e.g. 19.99. */
  readonly apr: number;
  /** 1 … 600. */
  readonly months: number;
  readonly today: IsoDate;
}

/** Both directions answer the same five keys (docs/decisions/payoff-and-outlook.md). */
export interface DebtCalculation {
  /** The payment given, or the smallest whole-cent payment that pays the balance off within the requested months. */
  readonly monthly_payment: Cents;
  readonly months: number;
  /** Month `months` of the projection: today plus that many calendar months. */
  readonly payoff_date: IsoDate;
  readonly total_interest: Cents;
  readonly total_paid: Cents;
}

/** Kept for callers that named the months direction's result: the same shape as the other direction's. */
export type DebtCalculationByMonths = DebtCalculation;

const checkBalanceAndApr = (balance: number, apr: number): ErrorDetail[] => {
  const details: ErrorDetail[] = [];
  if (!Number.isSafeInteger(balance) || balance <= 0)
    details.push({ path: 'balance', message: 'must be a positive whole number of cents' });
  if (!Number.isFinite(apr) || apr < 0 || apr > 100) details.push({ path: 'apr', message: 'must be between 0 and 100' });
  return details;
};

const invalid = (details: ReadonlyArray<ErrorDetail>): ValidationError => validationError('Invalid debt calculation', details);

/**
 * How long a fixed monthly payment takes to pay a balance off, and what it costs.
 * Left(validation_error) when the payment never pays it off or needs more than 600 months.
 * @example
 * calculateByPayment({ balance: 1_000_000, apr: 20, monthlyPayment: 50_000, today: '2024-01-15' })
 * // Right({ monthly_payment: 50_000, months: 25, payoff_date: '2026-02-15', total_interest: 226_606, total_paid: 1_226_606 })
 */
export const calculateByPayment = (input: CalculateByPaymentInput): E.Either<ValidationError, DebtCalculation> => {
  const { balance, apr, monthlyPayment, today } = input;
  const details = checkBalanceAndApr(balance, apr);
  if (!Number.isSafeInteger(monthlyPayment) || monthlyPayment <= 0)
    details.push({ path: 'monthly_payment', message: 'must be a positive whole number of cents' });
  if (details.length > 0) return E.left(invalid(details));

  const projection = projectSingleDebt(balance, apr, monthlyPayment);
  if (E.isLeft(projection)) return E.left(projectionError(projection.left, 'Paying off this balance'));
  const { months, total_interest, total_paid } = projection.right;
  return E.right({ monthly_payment: monthlyPayment, months, payoff_date: addMonths(today, months), total_interest, total_paid });
};

/**
 * The smallest whole-cent monthly payment that pays a balance off within
 * `months` months (1 … 600), with the resulting projection (`months` is the
 * actual number of months at that payment, which can be fewer).
 *
 * Binary search over the exact month loop: the months needed never grow as
 * the payment grows, every payment below ⌈balance / months⌉ is too small,
 * and balance + one month's interest pays it off in month 1.
 * @example
 * calculateByMonths({ balance: 1_000_000, apr: 20, months: 25, today: '2024-01-15' })
 * // Right({ monthly_payment: …, months: 25, … }) — and monthly_payment − 1 needs 26 months
 */
export const calculateByMonths = (input: CalculateByMonthsInput): E.Either<ValidationError, DebtCalculationByMonths> => {
  const { balance, apr, months, today } = input;
  const details = checkBalanceAndApr(balance, apr);
  if (!Number.isSafeInteger(months) || months < 1 || months > MAX_PAYOFF_MONTHS)
    details.push({ path: 'months', message: `must be a whole number from 1 to ${MAX_PAYOFF_MONTHS}` });
  if (details.length > 0) return E.left(invalid(details));

  let high = balance + monthlyInterest(balance, apr);
  if (!Number.isSafeInteger(high)) return E.left(projectionError('overflow', 'Paying off this balance'));
  let low = Math.max(1, Math.ceil(balance / months));
  // Invariant: `high` pays off within `months`; every payment below `low` does not.
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    const projection = projectSingleDebt(balance, apr, mid as Cents, months);
    if (E.isRight(projection)) high = mid;
    else low = mid + 1;
  }
  const projection = projectSingleDebt(balance, apr, high as Cents, months);
  // Unreachable by the invariant; kept so the function stays total.
  if (E.isLeft(projection)) return E.left(projectionError(projection.left, 'Paying off this balance'));
  const result = projection.right;
  return E.right({
    monthly_payment: high as Cents,
    months: result.months,
    payoff_date: addMonths(today, result.months),
    total_interest: result.total_interest,
    total_paid: result.total_paid,
  });
};
