/**
 * The CreditScore resource (docs/api/reference.md). The codec is strict: it rejects a score or
 * increase out of range, a factor amount of the wrong kind or out of range, and a
 * `factor` that disagrees with its amount (the rules live in credit-factors.ts).
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { CreditScoreId, IsoDate, Timestamp, UserId } from '../shared/primitives.js';
import { FACTOR_RULES, FactorName, FactorObject, FactorRating, classify, describeGoodCondition, isAmountOfKind } from './credit-factors.js';

export { FactorRating, FactorObject };

const identity = <A>(a: A): A => a;

const at = (c: t.Context, key: string, type: t.Decoder<unknown, unknown>, actual: unknown): t.Context => [...c, { key, type, actual }];

/**
 * The codec of one named factor's object: the shape, then the amount's kind and
 * range, then `factor` equal to the rating of the amount.
 * @example factorObjectCodec('payment_history').decode({ amount: 89.99, factor: 'Good' }) // Left: must be Poor
 */
export const factorObjectCodec = (name: FactorName): t.Type<FactorObject, FactorObject, unknown> => {
  const { kind, min, max } = FACTOR_RULES[name];
  const amountOk = (n: number): boolean => isAmountOfKind(name, n) && n >= min && n <= max;
  return new t.Type<FactorObject, FactorObject, unknown>(
    `FactorObject<${name}>`,
    (u): u is FactorObject => FactorObject.is(u) && amountOk(u.amount) && u.factor === classify(name, u.amount),
    (u, c) => {
      const shaped = FactorObject.validate(u, c);
      if (E.isLeft(shaped)) return shaped;
      const { amount, factor } = shaped.right;
      if (!amountOk(amount)) {
        return t.failure(
          amount,
          at(c, 'amount', t.number, amount),
          `must be ${kind === 'integer' ? 'an integer' : 'a number'} from ${min} to ${max}`,
        );
      }
      const expected = classify(name, amount);
      if (factor !== expected) {
        return t.failure(
          factor,
          at(c, 'factor', FactorRating, factor),
          `must be ${expected} for amount ${amount} (${name} is Good when ${describeGoodCondition(name)})`,
        );
      }
      return t.success({ amount, factor });
    },
    identity,
  );
};

/*
 * `nullable` (a t.union) reports one error per union member ("score.0", "score.1"),
 * which makes poor validation details; these accept null first and otherwise give
 * the inner codec's error at the field's own path.
 */
const orNull = <A>(codec: t.Type<A, A, unknown>): t.Type<A | null, A | null, unknown> =>
  new t.Type<A | null, A | null, unknown>(
    `${codec.name} | null`,
    (u): u is A | null => u === null || codec.is(u),
    (u, c) => (u === null ? t.success(null) : codec.validate(u, c)),
    identity,
  );

const integerFrom = (min: number, max: number): t.Type<number, number, unknown> =>
  new t.Type<number, number, unknown>(
    `integer(${min}..${max})`,
    (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= min && u <= max,
    (u, c) =>
      typeof u === 'number' && Number.isSafeInteger(u) && u >= min && u <= max
        ? t.success(u)
        : t.failure(u, c, `must be an integer from ${min} to ${max}`),
    identity,
  );

/** A credit score: an integer from 300 to 850 (docs/api/reference.md). */
export const Score = integerFrom(300, 850);
/** The change since the previous score: an integer from -850 to 850 (docs/api/reference.md). */
export const ScoreIncrease = integerFrom(-850, 850);

export const CreditScore = t.type(
  {
    id: CreditScoreId,
    date: IsoDate,
    last_name: orNull(t.string),
    score: orNull(Score),
    increase: orNull(ScoreIncrease),
    payment_history: orNull(factorObjectCodec('payment_history')),
    credit_utilization: orNull(factorObjectCodec('credit_utilization')),
    derogatory_marks: orNull(factorObjectCodec('derogatory_marks')),
    credit_age: orNull(factorObjectCodec('credit_age')),
    credit_mix: factorObjectCodec('credit_mix'),
    new_credit: factorObjectCodec('new_credit'),
  },
  'CreditScore',
);
export type CreditScore = t.TypeOf<typeof CreditScore>;

export const CreditScoreRecord = t.intersection([CreditScore, t.type({ user_id: UserId, created_at: Timestamp })], 'CreditScoreRecord');
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

/** What a bureau reports (bureau/credit-report.ts derives one from accounts): the score and the six factors, amounts rounded and classified. */
export interface CreditReport {
  readonly score: number;
  readonly payment_history: FactorObject;
  readonly credit_utilization: FactorObject;
  readonly derogatory_marks: FactorObject;
  readonly credit_age: FactorObject;
  readonly credit_mix: FactorObject;
  readonly new_credit: FactorObject;
}

/**
 * The fields of a new credit score built from a bureau report (docs/decisions/payoff-and-outlook.md):
 * `increase` is the change from the previous score, 0 for the user's first one.
 * The id is the repository's to allocate; `date` is today, from the caller's clock.
 * @example creditScoreFields(report, '2024-07-01', 'Doe', 700) // { date: '2024-07-01', score: report.score, increase: report.score - 700, ... }
 */
export const creditScoreFields = (
  report: CreditReport,
  date: IsoDate,
  lastName: string | null,
  previousScore: number | null,
): Omit<CreditScore, 'id'> => ({
  date,
  last_name: lastName,
  score: report.score,
  increase: previousScore === null ? 0 : report.score - previousScore,
  payment_history: { ...report.payment_history },
  credit_utilization: { ...report.credit_utilization },
  derogatory_marks: { ...report.derogatory_marks },
  credit_age: { ...report.credit_age },
  credit_mix: { ...report.credit_mix },
  new_credit: { ...report.new_credit },
});
