/**
 * The plain terms of a debt as the money engine takes them (docs/decisions/payoff-and-outlook.md): no
 * account record, no feature type, so accounts, plans, the calculator, the
 * disclosure and the sandbox stand on the engine one way.
 */
import type { IsoDate } from '../primitives.js';

/** How interest accrues (docs/decisions/payoff-and-outlook.md): `monthly` (APR/12, the default), `daily_compound` (cards), `daily_simple` (loans). */
export type InterestMethod = 'monthly' | 'daily_compound' | 'daily_simple';

/** What a card's balance is made of (docs/decisions/payoff-and-outlook.md; Regulation Z §1026.53 allocates across them). */
export type SegmentKind = 'purchase' | 'balance_transfer' | 'cash_advance' | 'promotional' | 'penalty';

/** One term of a minimum payment formula: a percent of the balance the month starts with, plus that month's interest, plus an amount. */
export interface MinimumFormulaTerm {
  readonly percent_of_balance: number;
  readonly plus_interest: boolean;
  /** Cents. */
  readonly plus_amount: number;
}

/**
 * An issuer's minimum payment formula (docs/decisions/payoff-and-outlook.md): the month's minimum is the
 * greatest of `floor` and every term, never more than what is owed. The usual
 * "1% of the balance plus interest, $25 floor" is
 * `{ floor: 2500, terms: [{ percent_of_balance: 1, plus_interest: true, plus_amount: 0 }] }`.
 */
export interface MinimumFormula {
  /** Cents. */
  readonly floor: number;
  readonly terms: ReadonlyArray<MinimumFormulaTerm>;
}

/** A part of a card's balance at one rate (docs/decisions/payoff-and-outlook.md). */
export interface RateSegment {
  readonly kind: SegmentKind;
  /** Cents. */
  readonly balance: number;
  /** Percent, the rate now (a promotion's rate while it runs). */
  readonly apr: number;
  /** The promotion applies to the months dated before this date; from then on the segment is at `go_to_apr`. */
  readonly promo_ends_on?: IsoDate | null | undefined;
  readonly go_to_apr?: number | null | undefined;
  /** A deferred-interest promotion: interest accrues at `go_to_apr` in the background and is charged if a balance is left at its end. */
  readonly deferred_interest?: boolean | null | undefined;
  /** Cents accrued so far in the background (0 when absent). */
  readonly accrued_deferred_interest?: number | null | undefined;
}

/**
 * A debt for the engine. `balance` is the principal (the segments' sum when
 * there are segments); `accruedInterest` (loans) is owed on top of it and paid
 * first. `minimumPayment` includes `escrow`, which never reduces the debt.
 */
export interface DebtTerms {
  readonly id: number;
  /** Cents. */
  readonly balance: number;
  /** Percent: the debt's one rate when it has no segments. */
  readonly apr: number;
  /** Cents: the fixed minimum (escrow included); used when there is no formula. */
  readonly minimumPayment: number;
  readonly interestMethod?: InterestMethod | null | undefined;
  readonly minimumFormula?: MinimumFormula | null | undefined;
  /** Cards only: the balance by rate. Absent: one segment of `balance` at `apr`. */
  readonly segments?: ReadonlyArray<RateSegment> | null | undefined;
  /** Cents of `minimumPayment` that go to escrow (mortgages). */
  readonly escrow?: number | null | undefined;
  /** Cents of unpaid interest (loans), paid before principal. */
  readonly accruedInterest?: number | null | undefined;
}

/** Whether a debt uses anything beyond the plain terms (one rate, monthly interest, a fixed minimum): the engine's fast path is for plain debts. */
export const hasStatementTerms = (d: DebtTerms): boolean =>
  (d.interestMethod !== undefined && d.interestMethod !== null && d.interestMethod !== 'monthly') ||
  (d.minimumFormula !== undefined && d.minimumFormula !== null) ||
  (d.segments !== undefined && d.segments !== null) ||
  (d.escrow !== undefined && d.escrow !== null && d.escrow > 0) ||
  (d.accruedInterest !== undefined && d.accruedInterest !== null && d.accruedInterest > 0);
