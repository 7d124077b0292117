/**
 * The six credit score factors (docs/api/reference.md): one rules table says what kind of
 * number each amount is, its range, and when the factor is `Good`. Everything
 * else (classification, the strict CreditScore codec, the sandbox report) reads
 * this table, so a threshold lives in exactly one place.
 */
import * as t from 'io-ts';
import { round2 } from '../shared/primitives.js';

/** A factor's rating (kept here, with the rules that give it, so credit-score.ts imports this file one way). */
export const FactorRating = t.keyof({ Good: null, Poor: null }, 'FactorRating');
export type FactorRating = t.TypeOf<typeof FactorRating>;

/** The shape of a factor object, whatever the factor: `{ amount, factor }`. */
export const FactorObject = t.type({ amount: t.number, factor: FactorRating }, 'FactorObject');
export type FactorObject = t.TypeOf<typeof FactorObject>;

export const FactorName = t.keyof(
  {
    payment_history: null,
    credit_utilization: null,
    derogatory_marks: null,
    credit_age: null,
    credit_mix: null,
    new_credit: null,
  },
  'FactorName',
);
export type FactorName = t.TypeOf<typeof FactorName>;

/** `integer`: a count; `number`: any finite number (a percentage, years). */
export type AmountKind = 'integer' | 'number';

/** A comparison of the (rounded) amount against a threshold. */
export interface GoodCondition {
  readonly op: '>=' | '<=' | '=' | '>';
  readonly threshold: number;
}

export interface FactorRule {
  readonly kind: AmountKind;
  readonly min: number;
  readonly max: number;
  /** The factor is `Good` when `amount op threshold` holds, else `Poor`. */
  readonly good: GoodCondition;
}

/**
 * docs/api/reference.md, the factor table, verbatim: amount kind, amount range, `Good` condition.
 * @example FACTOR_RULES.payment_history // { kind: 'number', min: 0, max: 100, good: { op: '>=', threshold: 90 } }
 */
export const FACTOR_RULES: Readonly<Record<FactorName, FactorRule>> = {
  payment_history: { kind: 'number', min: 0, max: 100, good: { op: '>=', threshold: 90 } },
  credit_utilization: { kind: 'number', min: 0, max: 100, good: { op: '<=', threshold: 30 } },
  derogatory_marks: { kind: 'integer', min: 0, max: 100, good: { op: '=', threshold: 0 } },
  credit_age: { kind: 'number', min: 0, max: 100, good: { op: '>', threshold: 5 } },
  credit_mix: { kind: 'integer', min: 0, max: 6, good: { op: '>', threshold: 2 } },
  new_credit: { kind: 'integer', min: 0, max: 100, good: { op: '<=', threshold: 2 } },
};

/** Every factor name, in the spec's order. */
export const FACTOR_NAMES: ReadonlyArray<FactorName> = Object.keys(FACTOR_RULES) as FactorName[];

const holds = (amount: number, { op, threshold }: GoodCondition): boolean => {
  switch (op) {
    case '>=':
      return amount >= threshold;
    case '<=':
      return amount <= threshold;
    case '=':
      return amount === threshold;
    case '>':
      return amount > threshold;
  }
};

/** A readable form of a factor's `Good` condition, for messages: `amount >= 90`. */
export const describeGoodCondition = (name: FactorName): string => {
  const { op, threshold } = FACTOR_RULES[name].good;
  return `amount ${op} ${threshold}`;
};

/**
 * The rating of an amount. The amount is first rounded to 2 decimals, half away
 * from zero (docs/decisions/payoff-and-outlook.md), because the rounded amount is what clients see and the
 * rating must agree with it. Total: a non-finite amount is `Poor`.
 * @example classify('payment_history', 89.995) === 'Good' // rounds to 90
 * @example classify('credit_utilization', 30.005) === 'Poor' // rounds to 30.01
 */
export const classify = (name: FactorName, amount: number): FactorRating =>
  // The finiteness check matters: round2 maps NaN to 0, which would be Good for a "low is good" factor.
  Number.isFinite(amount) && holds(round2(amount), FACTOR_RULES[name].good) ? 'Good' : 'Poor';

/**
 * The factor object clients see: the amount rounded to 2 decimals and its rating.
 * Meant for finite amounts (a NaN would be reported as amount 0, rated Poor).
 * @example factorObject('credit_age', 5.004) // { amount: 5, factor: 'Poor' }
 */
export const factorObject = (name: FactorName, amount: number): FactorObject => ({
  amount: round2(amount),
  factor: classify(name, amount),
});

/** Whether an amount is of the factor's kind (an integer for counts) and within its range. */
export const isAmountOfKind = (name: FactorName, amount: number): boolean =>
  FACTOR_RULES[name].kind === 'integer' ? Number.isSafeInteger(amount) : Number.isFinite(amount);

/**
 * Whether `amount` is a valid amount for the factor: the right kind and within
 * [min, max] as given (not after rounding: 100.004 is out of range).
 * @example isValidAmount('credit_mix', 7) === false // range is 0..6
 * @example isValidAmount('derogatory_marks', 1.5) === false // a count
 */
export const isValidAmount = (name: FactorName, amount: number): boolean => {
  const { min, max } = FACTOR_RULES[name];
  return isAmountOfKind(name, amount) && amount >= min && amount <= max;
};
