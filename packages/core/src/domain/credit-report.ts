/**
 * The sandbox credit report (DESIGN 7.5), derived deterministically from a
 * user's accounts and a date.
 * NOTE(owner: credit-factors work): implement `deriveCreditReport`.
 */
import type { FactorObject } from './credit-score.js';

/** What a bureau reports: the score and the six factors, amounts rounded and classified. */
export interface CreditReport {
  readonly score: number;
  readonly payment_history: FactorObject;
  readonly credit_utilization: FactorObject;
  readonly derogatory_marks: FactorObject;
  readonly credit_age: FactorObject;
  readonly credit_mix: FactorObject;
  readonly new_credit: FactorObject;
}
