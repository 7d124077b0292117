/**
 * The CreditScore resource (spec 2.1).
 * NOTE(owner: credit-factors work): refine this codec so it rejects out-of-range amounts and a
 * `factor` that disagrees with its amount, using the rules table in credit-factors.ts.
 */
import * as t from 'io-ts';
import { Id, IsoDate, Timestamp, nullable } from './primitives.js';

export const FactorRating = t.keyof({ Good: null, Poor: null }, 'FactorRating');
export type FactorRating = t.TypeOf<typeof FactorRating>;

export const FactorObject = t.type({ amount: t.number, factor: FactorRating }, 'FactorObject');
export type FactorObject = t.TypeOf<typeof FactorObject>;

export const CreditScore = t.type(
  {
    id: Id,
    date: IsoDate,
    last_name: nullable(t.string),
    score: nullable(t.number),
    increase: nullable(t.number),
    payment_history: nullable(FactorObject),
    credit_utilization: nullable(FactorObject),
    derogatory_marks: nullable(FactorObject),
    credit_age: nullable(FactorObject),
    credit_mix: FactorObject,
    new_credit: FactorObject,
  },
  'CreditScore',
);
export type CreditScore = t.TypeOf<typeof CreditScore>;

export const CreditScoreRecord = t.intersection([CreditScore, t.type({ user_id: Id, created_at: Timestamp })], 'CreditScoreRecord');
export type CreditScoreRecord = t.TypeOf<typeof CreditScoreRecord>;

export const toCreditScoreView = (r: CreditScoreRecord): CreditScore => ({
  id: r.id,
  date: r.date,
  last_name: r.last_name,
  score: r.score,
  increase: r.increase,
  payment_history: r.payment_history,
  credit_utilization: r.credit_utilization,
  derogatory_marks: r.derogatory_marks,
  credit_age: r.credit_age,
  credit_mix: r.credit_mix,
  new_credit: r.new_credit,
});
