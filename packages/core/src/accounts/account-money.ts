/**
 * What an account's statement says about paying it off
 * (docs/decisions/payoff-and-outlook.md "The Minimum Payment Warning" and
 * "Payoff quotes"): the answers' codecs, and the account's terms as the pure
 * computations in `shared/money/` take them.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { AccountId, Cents, IsoDate, addDays, addMonths, nullable } from '../shared/primitives.js';
import { boundedInt, strictObject } from '../shared/codec.js';
import { conflict, validationError, type Conflict, type ValidationError } from '../shared/errors.js';
import { repaymentDisclosure } from '../shared/money/disclosure.js';
import { payoffQuote, type QuoteSegment } from '../shared/money/payoff-quote.js';
import { debtTermsOf, isCard } from './statement-terms.js';
import type { AccountRecord } from './account.js';

/** A whole number of months or years, 0 or more. */
const Count = boundedInt(0, Number.MAX_SAFE_INTEGER, 'integer(≥0)');
/** Cents that may be negative (a saving that is a cost). */
const SignedCents = boundedInt(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'integer cents');

/**
 * How the disclosure's amounts are rounded (comment 7(b)(12)-1 of Regulation Z:
 * all to the whole dollar, or all to the cent, at the issuer's option). debtkit
 * discloses to the dollar, as Appendix M2's program does; both values are listed
 * so that the set is complete.
 */
export const DisclosureRounding = t.keyof({ nearest_dollar: null, nearest_cent: null }, 'DisclosureRounding');
export type DisclosureRounding = t.TypeOf<typeof DisclosureRounding>;

/**
 * `GET …/accounts/{account_id}/repayment_disclosure`: the Minimum Payment Warning
 * of a card's periodic statement (Regulation Z §1026.7(b)(12), computed as
 * Appendix M1 says). Amounts are cents rounded to the dollar.
 */
export const RepaymentDisclosure = t.type(
  {
    /** The user's today: the statement date the estimate is made on. */
    as_of: IsoDate,
    /** Paying only the minimum: `null` when the minimum never repays the balance. */
    minimum_payments_only: nullable(
      t.type(
        {
          /** The minimum payment repayment estimate, in months, before rounding (M1 (b)). */
          months: Count,
          /** The estimate as the statement states it, in whole years (§1026.7(b)(12)(i)(B)); `null` under 2 years, when it is stated in months. */
          years: nullable(Count),
          /** The minimum payment total cost estimate (M1 (c)): every payment, principal and interest. */
          total_cost: Cents,
        },
        'MinimumPaymentsOnly',
      ),
    ),
    /**
     * Paying it off in 36 months (M1 (d), M2's weighted-rate annuity): `null` when the
     * statement leaves it out (the estimate, rounded, is 3 years or less: §1026.7(b)(12)(i)(F)(2)(i)).
     */
    three_year: nullable(
      t.type(
        {
          monthly_payment: Cents,
          total_cost: Cents,
          /** Minimum-only total cost less the 36-month total cost (M1 (e)); `null` when the minimum never repays (§1026.7(b)(12)(ii)). */
          savings: nullable(SignedCents),
        },
        'ThreeYearRepayment',
      ),
    ),
    /** The minimum payment never repays the balance (negative or no amortization, §1026.7(b)(12)(ii)). */
    never_pays_off: t.boolean,
    rounding: DisclosureRounding,
  },
  'RepaymentDisclosure',
);
export type RepaymentDisclosure = t.TypeOf<typeof RepaymentDisclosure>;

/** `GET …/accounts/{account_id}/payoff_quote`: what paying the account off in full on `good_through` costs. */
export const PayoffQuote = t.type(
  {
    account_id: AccountId,
    /** The user's today. */
    as_of: IsoDate,
    /** The last day a payment of `payoff_amount` pays the account off. */
    good_through: IsoDate,
    /** Balance + `interest_due` (+ a deferred-interest charge once its promotion has ended with a balance). */
    payoff_amount: Cents,
    /** One more day of interest: what each day after `good_through` adds. */
    per_diem: Cents,
    /** Accrued interest plus the interest from the last payment (or the start of the cycle) to `good_through`. */
    interest_due: Cents,
    /** A card may still post interest after it is paid off (trailing interest): ask the issuer for the final amount. */
    trailing_interest_note: t.boolean,
  },
  'PayoffQuote',
);
export type PayoffQuote = t.TypeOf<typeof PayoffQuote>;

/** A payoff quote's query: `date` (default the user's today; from today to 30 days after it). */
export const PayoffQuoteQuery = strictObject('PayoffQuoteQuery', {}, { date: IsoDate });
export type PayoffQuoteQuery = t.TypeOf<typeof PayoffQuoteQuery>;

/** How far ahead a payoff quote may be good through (docs/decisions/payoff-and-outlook.md "Payoff quotes"). */
export const MAX_PAYOFF_QUOTE_DAYS = 30;

/**
 * The rate segments of an account as the payoff quote reads them: the user's one
 * rate for the whole balance when `user_apr` is set (its segments then ignored,
 * docs/decisions/payoff-and-outlook.md), else its segments, else its whole balance at the institution's
 * APR; `null` when it has no rate at all.
 */
const rateSegmentsOf = (a: AccountRecord): ReadonlyArray<QuoteSegment> | null => {
  if (a.user_apr !== null) return [{ balance: a.balance, apr: a.user_apr }];
  if (a.apr_segments != null && a.apr_segments.length > 0) return a.apr_segments;
  if (a.apr !== null) return [{ balance: a.balance, apr: a.apr }];
  return null;
};

/**
 * The Minimum Payment Warning of a card on `today` (docs/decisions/payoff-and-outlook.md),
 * on the account's terms as the engine takes them (`debtTermsOf`).
 * `conflict` naming `subtype` for an account that is not a card; naming the missing
 * field when it has no rate (`apr`) or no minimum can be derived (`minimum_payment_formula`).
 */
export const repaymentDisclosureOf = (a: AccountRecord, today: IsoDate): E.Either<Conflict, RepaymentDisclosure> => {
  if (!isCard(a.subtype))
    return E.left(
      conflict(`subtype: a repayment disclosure is for cards (credit_card_loan, medical_loan); this account is a ${a.subtype}`),
    );
  const debt = debtTermsOf(a, today);
  if (debt === null && a.balance > 0) {
    return E.left(
      rateSegmentsOf(a) === null
        ? conflict('apr: the account has no APR (apr, user_apr or apr_segments), so no repayment can be estimated')
        : conflict(
            'minimum_payment_formula: the account has no minimum_payment_formula, minimum_payment or user_minimum_payment, so no minimum payment can be derived',
          ),
    );
  }
  const figures = repaymentDisclosure(debt ?? { id: a.id, balance: 0, apr: 0, minimumPayment: 0 }, today);
  return E.right({ as_of: today, ...figures });
};

/**
 * The payoff quote of an account on `today`, good through `date` (default today;
 * from today to `MAX_PAYOFF_QUOTE_DAYS` after it, else `validation_error` naming
 * `date`). `conflict` naming `type` for an account that is not a debt, naming
 * `last_payment_date` and `next_payment_due_date` when interest has no start,
 * naming `apr` when a balance has no rate.
 */
export const payoffQuoteOf = (
  a: AccountRecord,
  today: IsoDate,
  date: IsoDate | undefined,
): E.Either<ValidationError | Conflict, PayoffQuote> => {
  const goodThrough = date ?? today;
  if (goodThrough < today)
    return E.left(validationError(`date must not be before today (${today})`, [{ path: 'date', message: `must be ${today} or later` }]));
  const latest = addDays(today, MAX_PAYOFF_QUOTE_DAYS);
  if (goodThrough > latest) {
    return E.left(
      validationError(`date must be at most ${MAX_PAYOFF_QUOTE_DAYS} days after today (${latest})`, [
        { path: 'date', message: `must be ${latest} or earlier` },
      ]),
    );
  }
  if (a.type !== 'loan') return E.left(conflict(`type: a payoff quote is for debts (type loan); this account is ${a.type}`));
  const interestFrom = a.last_payment_date ?? (a.next_payment_due_date === null ? null : addMonths(a.next_payment_due_date, -1));
  if (interestFrom === null) {
    return E.left(conflict('last_payment_date, next_payment_due_date: the account has neither, so the day interest runs from is unknown'));
  }
  const segments = rateSegmentsOf(a);
  if (segments === null && a.balance > 0)
    return E.left(conflict('apr: the account has no APR (apr, user_apr or apr_segments), so its interest cannot be computed'));
  const figures = payoffQuote({
    balance: a.balance,
    segments: segments ?? [],
    method: a.interest_method ?? 'monthly',
    accruedInterest: a.accrued_interest ?? 0,
    interestFrom,
    goodThrough,
    isCard: isCard(a.subtype),
  });
  return E.right({
    account_id: a.id,
    as_of: today,
    good_through: goodThrough,
    payoff_amount: figures.payoff_amount,
    per_diem: figures.per_diem,
    interest_due: figures.interest_due,
    trailing_interest_note: figures.trailing_interest_note,
  });
};
