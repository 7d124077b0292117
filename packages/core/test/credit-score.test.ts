import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import {
  CreditScore,
  CreditScoreRecord,
  creditScoreFields,
  factorObjectCodec,
  toCreditScoreView,
} from '../src/credit-scores/credit-score.js';
import type { CreditReport } from '../src/bureau/credit-report.js';
import { toDetails } from '../src/shared/codec.js';
import type { IsoDate } from '../src/shared/primitives.js';

/** A valid CreditScore as JSON, to be broken one field at a time. */
const aScore = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 1,
  date: '2024-07-01',
  last_name: 'Doe',
  score: 712,
  increase: 0,
  payment_history: { amount: 90, factor: 'Good' },
  credit_utilization: { amount: 30, factor: 'Good' },
  derogatory_marks: { amount: 0, factor: 'Good' },
  credit_age: { amount: 5, factor: 'Poor' },
  credit_mix: { amount: 3, factor: 'Good' },
  new_credit: { amount: 3, factor: 'Poor' },
  ...overrides,
});

/** The validation details of a rejected input (fails the test if it was accepted). */
const rejection = (input: unknown): Array<{ path: string; message: string }> => {
  const result = CreditScore.decode(input);
  if (E.isRight(result)) expect.fail(`expected a rejection of ${JSON.stringify(input)}`);
  return toDetails(result.left);
};

describe('CreditScore codec (docs/api/reference.md)', () => {
  it('accepts a valid score and agrees with is()', () => {
    const input = aScore();
    expect(CreditScore.decode(input)).to.deep.equal(E.right(input));
    expect(CreditScore.is(input)).to.equal(true);
  });

  it('accepts null for the optional fields, not for credit_mix and new_credit', () => {
    const nulls = {
      last_name: null,
      score: null,
      increase: null,
      payment_history: null,
      credit_utilization: null,
      derogatory_marks: null,
      credit_age: null,
    };
    expect(E.isRight(CreditScore.decode(aScore(nulls)))).to.equal(true);
    expect(rejection(aScore({ credit_mix: null })).map((d) => d.path)).to.deep.equal(['credit_mix']);
    expect(rejection(aScore({ new_credit: null })).map((d) => d.path)).to.deep.equal(['new_credit']);
  });

  it('accepts both ends of score and increase', () => {
    for (const score of [300, 850]) expect(E.isRight(CreditScore.decode(aScore({ score })))).to.equal(true);
    for (const increase of [-850, 850]) expect(E.isRight(CreditScore.decode(aScore({ increase })))).to.equal(true);
  });

  it('rejects a score outside 300..850 or not an integer, at its own path', () => {
    for (const score of [299, 851, 700.5, '700', Number.NaN]) {
      expect(rejection(aScore({ score }))).to.deep.equal([{ path: 'score', message: 'must be an integer from 300 to 850' }]);
    }
  });

  it('rejects an increase outside -850..850 or not an integer', () => {
    for (const increase of [-851, 851, 1.5]) {
      expect(rejection(aScore({ increase }))).to.deep.equal([{ path: 'increase', message: 'must be an integer from -850 to 850' }]);
    }
  });

  it('rejects a factor that disagrees with its amount, saying which it must be', () => {
    expect(rejection(aScore({ payment_history: { amount: 89.99, factor: 'Good' } }))).to.deep.equal([
      { path: 'payment_history.factor', message: 'must be Poor for amount 89.99 (payment_history is Good when amount >= 90)' },
    ]);
    expect(rejection(aScore({ credit_utilization: { amount: 30.01, factor: 'Good' } }))[0]?.path).to.equal('credit_utilization.factor');
    expect(rejection(aScore({ derogatory_marks: { amount: 0, factor: 'Poor' } }))[0]?.path).to.equal('derogatory_marks.factor');
    expect(rejection(aScore({ credit_age: { amount: 5, factor: 'Good' } }))[0]?.path).to.equal('credit_age.factor');
    expect(rejection(aScore({ credit_mix: { amount: 2, factor: 'Good' } }))[0]?.path).to.equal('credit_mix.factor');
    expect(rejection(aScore({ new_credit: { amount: 2, factor: 'Poor' } }))[0]?.path).to.equal('new_credit.factor');
  });

  it('classifies the amount as rounded: 89.995 is Good for payment_history', () => {
    expect(E.isRight(CreditScore.decode(aScore({ payment_history: { amount: 89.995, factor: 'Good' } })))).to.equal(true);
  });

  it('rejects amounts out of range, at the amount path', () => {
    expect(rejection(aScore({ payment_history: { amount: 100.01, factor: 'Good' } }))).to.deep.equal([
      { path: 'payment_history.amount', message: 'must be a number from 0 to 100' },
    ]);
    expect(rejection(aScore({ credit_utilization: { amount: -0.01, factor: 'Good' } }))[0]?.path).to.equal('credit_utilization.amount');
    expect(rejection(aScore({ credit_age: { amount: 100.5, factor: 'Good' } }))[0]?.path).to.equal('credit_age.amount');
    expect(rejection(aScore({ derogatory_marks: { amount: 101, factor: 'Poor' } }))[0]?.path).to.equal('derogatory_marks.amount');
    expect(rejection(aScore({ credit_mix: { amount: 7, factor: 'Good' } }))).to.deep.equal([
      { path: 'credit_mix.amount', message: 'must be an integer from 0 to 6' },
    ]);
    expect(rejection(aScore({ new_credit: { amount: -1, factor: 'Good' } }))[0]?.path).to.equal('new_credit.amount');
  });

  it('rejects a fractional amount for the integer factors', () => {
    for (const field of ['derogatory_marks', 'credit_mix', 'new_credit']) {
      expect(rejection(aScore({ [field]: { amount: 1.5, factor: 'Poor' } }))).to.deep.equal([
        { path: `${field}.amount`, message: `must be an integer from 0 to ${field === 'credit_mix' ? 6 : 100}` },
      ]);
    }
  });

  it('rejects a malformed factor object', () => {
    expect(rejection(aScore({ credit_mix: { amount: 3, factor: 'Excellent' } }))[0]?.path).to.equal('credit_mix.factor');
    expect(rejection(aScore({ credit_mix: { amount: '3', factor: 'Good' } }))[0]?.path).to.equal('credit_mix.amount');
    expect(rejection(aScore({ credit_mix: { amount: 3 } }))[0]?.path).to.equal('credit_mix.factor');
    expect(rejection(aScore({ credit_mix: 3 }))[0]?.path).to.equal('credit_mix');
  });

  it('is() rejects what decode rejects', () => {
    expect(CreditScore.is(aScore({ payment_history: { amount: 89.99, factor: 'Good' } }))).to.equal(false);
    expect(CreditScore.is(aScore({ credit_mix: { amount: 7, factor: 'Good' } }))).to.equal(false);
    expect(CreditScore.is(aScore({ score: 851 }))).to.equal(false);
    expect(factorObjectCodec('derogatory_marks').is({ amount: 1.5, factor: 'Poor' })).to.equal(false);
  });

  it('CreditScoreRecord is just as strict, and its view drops the record fields', () => {
    const record = { ...aScore(), user_id: 7, created_at: '2024-07-01T12:00:00.000Z' };
    const decoded = CreditScoreRecord.decode(record);
    if (E.isLeft(decoded)) expect.fail('a valid record was rejected');
    expect(toCreditScoreView(decoded.right)).to.deep.equal(aScore());
    expect(E.isLeft(CreditScoreRecord.decode({ ...record, new_credit: { amount: 3, factor: 'Good' } }))).to.equal(true);
  });
});

describe('creditScoreFields', () => {
  const report: CreditReport = {
    score: 647,
    payment_history: { amount: 83.33, factor: 'Poor' },
    credit_utilization: { amount: 30, factor: 'Good' },
    derogatory_marks: { amount: 1, factor: 'Poor' },
    credit_age: { amount: 4.83, factor: 'Poor' },
    credit_mix: { amount: 2, factor: 'Poor' },
    new_credit: { amount: 1, factor: 'Good' },
  };
  const today = '2024-07-01' as IsoDate;

  it('the first score has increase 0', () => {
    const fields = creditScoreFields(report, today, 'Doe', null);
    expect(fields).to.deep.equal({
      date: '2024-07-01',
      last_name: 'Doe',
      score: 647,
      increase: 0,
      payment_history: report.payment_history,
      credit_utilization: report.credit_utilization,
      derogatory_marks: report.derogatory_marks,
      credit_age: report.credit_age,
      credit_mix: report.credit_mix,
      new_credit: report.new_credit,
    });
  });

  it('a later score has increase = score − previous score, either sign', () => {
    expect(creditScoreFields(report, today, 'Doe', 600).increase).to.equal(47);
    expect(creditScoreFields(report, today, 'Doe', 700).increase).to.equal(-53);
    expect(creditScoreFields(report, today, 'Doe', 647).increase).to.equal(0);
  });

  it('keeps a null last name and does not share factor objects with the report', () => {
    const fields = creditScoreFields(report, today, null, null);
    expect(fields.last_name).to.equal(null);
    expect(fields.credit_mix).to.not.equal(report.credit_mix);
  });

  it('with an id, decodes as a CreditScore', () => {
    const decoded = CreditScore.decode({ id: 3, ...creditScoreFields(report, today, 'Doe', 850) });
    expect(E.isRight(decoded)).to.equal(true);
  });
});
