import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import {
  FACTOR_NAMES,
  FACTOR_RULES,
  FactorName,
  classify,
  describeGoodCondition,
  factorObject,
  isValidAmount,
} from '../src/credit-scores/credit-factors.js';

describe('credit factors (docs/api/reference.md)', () => {
  it('the rules table is the spec table, verbatim', () => {
    // A guard against an accidental edit of a threshold or a range: the spec is the law.
    expect(FACTOR_RULES).to.deep.equal({
      payment_history: { kind: 'number', min: 0, max: 100, good: { op: '>=', threshold: 90 } },
      credit_utilization: { kind: 'number', min: 0, max: 100, good: { op: '<=', threshold: 30 } },
      derogatory_marks: { kind: 'integer', min: 0, max: 100, good: { op: '=', threshold: 0 } },
      credit_age: { kind: 'number', min: 0, max: 100, good: { op: '>', threshold: 5 } },
      credit_mix: { kind: 'integer', min: 0, max: 6, good: { op: '>', threshold: 2 } },
      new_credit: { kind: 'integer', min: 0, max: 100, good: { op: '<=', threshold: 2 } },
    });
    expect(FACTOR_NAMES).to.deep.equal([
      'payment_history',
      'credit_utilization',
      'derogatory_marks',
      'credit_age',
      'credit_mix',
      'new_credit',
    ]);
  });

  it('FactorName decodes the six names and nothing else', () => {
    for (const name of FACTOR_NAMES) expect(E.isRight(FactorName.decode(name))).to.equal(true);
    expect(E.isLeft(FactorName.decode('score'))).to.equal(true);
    expect(E.isLeft(FactorName.decode('Payment_History'))).to.equal(true);
  });

  it('describes each Good condition for messages', () => {
    expect(describeGoodCondition('payment_history')).to.equal('amount >= 90');
    expect(describeGoodCondition('derogatory_marks')).to.equal('amount = 0');
    expect(describeGoodCondition('credit_age')).to.equal('amount > 5');
  });

  describe('classify: both sides of every threshold, both ends of every range', () => {
    const cases: ReadonlyArray<readonly [FactorName, number, 'Good' | 'Poor']> = [
      // payment_history: Good when >= 90
      ['payment_history', 90, 'Good'],
      ['payment_history', 89.99, 'Poor'],
      ['payment_history', 0, 'Poor'],
      ['payment_history', 100, 'Good'],
      // credit_utilization: Good when <= 30
      ['credit_utilization', 30, 'Good'],
      ['credit_utilization', 30.01, 'Poor'],
      ['credit_utilization', 0, 'Good'],
      ['credit_utilization', 100, 'Poor'],
      // derogatory_marks: Good when = 0
      ['derogatory_marks', 0, 'Good'],
      ['derogatory_marks', 1, 'Poor'],
      ['derogatory_marks', 100, 'Poor'],
      // credit_age: Good when > 5
      ['credit_age', 5, 'Poor'],
      ['credit_age', 5.01, 'Good'],
      ['credit_age', 0, 'Poor'],
      ['credit_age', 100, 'Good'],
      // credit_mix: Good when > 2
      ['credit_mix', 2, 'Poor'],
      ['credit_mix', 3, 'Good'],
      ['credit_mix', 0, 'Poor'],
      ['credit_mix', 6, 'Good'],
      // new_credit: Good when <= 2
      ['new_credit', 2, 'Good'],
      ['new_credit', 3, 'Poor'],
      ['new_credit', 0, 'Good'],
      ['new_credit', 100, 'Poor'],
    ];
    for (const [name, amount, rating] of cases) {
      it(`${name} ${amount} is ${rating}`, () => {
        expect(classify(name, amount)).to.equal(rating);
      });
    }
  });

  describe('classify rounds to 2 decimals (half away from zero) before comparing', () => {
    const cases: ReadonlyArray<readonly [FactorName, number, 'Good' | 'Poor', string]> = [
      ['payment_history', 89.995, 'Good', '89.995 → 90'],
      ['payment_history', 89.994, 'Poor', '89.994 → 89.99'],
      ['credit_utilization', 30.004, 'Good', '30.004 → 30'],
      ['credit_utilization', 30.005, 'Poor', '30.005 → 30.01'],
      ['credit_age', 5.004, 'Poor', '5.004 → 5'],
      ['credit_age', 5.005, 'Good', '5.005 → 5.01'],
      ['derogatory_marks', 0.004, 'Good', '0.004 → 0'],
      ['derogatory_marks', 0.005, 'Poor', '0.005 → 0.01'],
      ['new_credit', 2.004, 'Good', '2.004 → 2'],
      ['credit_mix', 2.005, 'Good', '2.005 → 2.01'],
    ];
    for (const [name, amount, rating, why] of cases) {
      it(`${name} ${amount} is ${rating} (${why})`, () => {
        expect(classify(name, amount)).to.equal(rating);
      });
    }
  });

  it('classify is total: a non-finite amount is Poor', () => {
    expect(classify('payment_history', Number.NaN)).to.equal('Poor');
    expect(classify('credit_utilization', Number.NaN)).to.equal('Poor');
    expect(classify('new_credit', Number.POSITIVE_INFINITY)).to.equal('Poor');
  });

  it('factorObject reports the rounded amount with its rating', () => {
    expect(factorObject('payment_history', 89.995)).to.deep.equal({ amount: 90, factor: 'Good' });
    expect(factorObject('credit_utilization', 30.004)).to.deep.equal({ amount: 30, factor: 'Good' });
    expect(factorObject('credit_utilization', 30.005)).to.deep.equal({ amount: 30.01, factor: 'Poor' });
    expect(factorObject('payment_history', 200 / 3)).to.deep.equal({ amount: 66.67, factor: 'Poor' });
    expect(factorObject('credit_age', 1.005)).to.deep.equal({ amount: 1.01, factor: 'Poor' });
    expect(factorObject('credit_mix', 4)).to.deep.equal({ amount: 4, factor: 'Good' });
  });

  it('factorObject never reports -0', () => {
    // JSON hides the sign, but Object.is and deep-equal checks downstream would not.
    expect(Object.is(factorObject('derogatory_marks', -0).amount, 0)).to.equal(true);
    expect(Object.is(factorObject('credit_age', -0.001).amount, 0)).to.equal(true);
  });

  describe('isValidAmount', () => {
    for (const name of FACTOR_NAMES) {
      const { kind, min, max } = FACTOR_RULES[name];
      const step = kind === 'integer' ? 1 : 0.01;
      it(`${name}: ${min} and ${max} are valid, ${min - step} and ${max + step} are not`, () => {
        expect(isValidAmount(name, min)).to.equal(true);
        expect(isValidAmount(name, max)).to.equal(true);
        expect(isValidAmount(name, min - step)).to.equal(false);
        expect(isValidAmount(name, max + step)).to.equal(false);
      });
      it(`${name}: rejects non-finite amounts`, () => {
        expect(isValidAmount(name, Number.NaN)).to.equal(false);
        expect(isValidAmount(name, Number.POSITIVE_INFINITY)).to.equal(false);
      });
    }

    it('integer kinds reject 1.5, number kinds accept it', () => {
      expect(isValidAmount('derogatory_marks', 1.5)).to.equal(false);
      expect(isValidAmount('credit_mix', 1.5)).to.equal(false);
      expect(isValidAmount('new_credit', 1.5)).to.equal(false);
      expect(isValidAmount('payment_history', 1.5)).to.equal(true);
      expect(isValidAmount('credit_utilization', 1.5)).to.equal(true);
      expect(isValidAmount('credit_age', 1.5)).to.equal(true);
    });

    it('checks the range on the amount as given, not after rounding', () => {
      expect(isValidAmount('payment_history', 100.004)).to.equal(false);
      expect(isValidAmount('credit_utilization', -0.001)).to.equal(false);
    });
  });
});
