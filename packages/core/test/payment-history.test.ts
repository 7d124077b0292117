import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import {
  MAX_PAYMENTS_HISTORY_LENGTH,
  PAYMENT_CODE_MEANINGS,
  PaymentCode,
  hasDerogatory,
  isDerogatory,
  isLate,
  isOnTime,
  isRated,
  isValidHistoryLength,
  onTimeCount,
  onTimePercentage,
  ratedCount,
} from '../src/accounts/payment-history.js';

describe('payment history codes (docs/api/reference.md)', () => {
  // Every code of the spec with what docs/decisions/payoff-and-outlook.md says about it.
  const table: ReadonlyArray<{ code: PaymentCode; rated: boolean; onTime: boolean; late: boolean; derogatory: boolean }> = [
    { code: '0', rated: false, onTime: false, late: false, derogatory: false },
    { code: '1', rated: true, onTime: true, late: false, derogatory: false },
    { code: '2', rated: true, onTime: false, late: true, derogatory: false },
    { code: '3', rated: true, onTime: false, late: true, derogatory: false },
    { code: '4', rated: true, onTime: false, late: true, derogatory: false },
    { code: '5', rated: true, onTime: false, late: true, derogatory: false },
    { code: '6', rated: true, onTime: false, late: true, derogatory: true },
    { code: '7', rated: true, onTime: false, late: true, derogatory: true },
    { code: '8', rated: true, onTime: false, late: true, derogatory: true },
    { code: '9', rated: true, onTime: false, late: true, derogatory: true },
    { code: 'E', rated: true, onTime: true, late: false, derogatory: false },
    { code: '*', rated: false, onTime: false, late: false, derogatory: false },
    { code: '', rated: false, onTime: false, late: false, derogatory: false },
  ];

  it('the table above covers exactly the 13 codes of the codec', () => {
    expect(table.map((r) => r.code)).to.have.members(Object.keys(PaymentCode.keys));
    expect(table).to.have.length(13);
  });

  for (const { code, rated, onTime, late, derogatory } of table) {
    it(`code ${JSON.stringify(code)}: rated ${rated}, on time ${onTime}, late ${late}, derogatory ${derogatory}`, () => {
      expect(E.isRight(PaymentCode.decode(code))).to.equal(true);
      expect(isRated(code)).to.equal(rated);
      expect(isOnTime(code)).to.equal(onTime);
      expect(isLate(code)).to.equal(late);
      expect(isDerogatory(code)).to.equal(derogatory);
      // A rated month is either on time or late, never both.
      expect(rated).to.equal(onTime !== late);
    });
  }

  it('rejects codes outside the spec', () => {
    for (const bad of ['10', 'e', 'X', ' ', '-1', 1]) expect(E.isLeft(PaymentCode.decode(bad))).to.equal(true);
  });

  it('has the meaning of every code, from the spec', () => {
    expect(Object.keys(PAYMENT_CODE_MEANINGS)).to.have.members(Object.keys(PaymentCode.keys));
    for (const meaning of Object.values(PAYMENT_CODE_MEANINGS)) expect(meaning).to.be.a('string').and.not.equal('');
    expect(PAYMENT_CODE_MEANINGS['1']).to.equal('Payments made on time');
    expect(PAYMENT_CODE_MEANINGS['9']).to.equal('Charge-off');
    expect(PAYMENT_CODE_MEANINGS.E).to.equal('Zero balance or current');
    expect(PAYMENT_CODE_MEANINGS['']).to.equal('Not reported');
  });

  describe('aggregates', () => {
    const history: PaymentCode[] = ['1', 'E', '2', '0', '*', '', '1', '6'];

    it('counts rated and on-time months', () => {
      // rated: 1, E, 2, 1, 6 → 5; on time: 1, E, 1 → 3
      expect(ratedCount(history)).to.equal(5);
      expect(onTimeCount(history)).to.equal(3);
    });

    it('onTimePercentage is 100 × on-time / rated, unrounded', () => {
      expect(onTimePercentage(history)).to.equal(60);
      expect(onTimePercentage(['1', '2', '*', 'E'])).to.equal(200 / 3);
      expect(onTimePercentage(['1', 'E'])).to.equal(100);
      expect(onTimePercentage(['9'])).to.equal(0);
    });

    it('onTimePercentage is null when nothing is rated', () => {
      expect(onTimePercentage([])).to.equal(null);
      expect(onTimePercentage(['0', '*', ''])).to.equal(null);
    });

    it('hasDerogatory finds any month 6–9', () => {
      expect(hasDerogatory(history)).to.equal(true);
      expect(hasDerogatory(['5', '4', '3', '2', '1', 'E', '0', '*', ''])).to.equal(false);
      expect(hasDerogatory([])).to.equal(false);
      for (const code of ['6', '7', '8', '9'] as const) expect(hasDerogatory(['1', code])).to.equal(true);
    });
  });

  it('a history holds at most 24 months', () => {
    expect(MAX_PAYMENTS_HISTORY_LENGTH).to.equal(24);
    expect(isValidHistoryLength([])).to.equal(true);
    expect(isValidHistoryLength(Array<PaymentCode>(24).fill('1'))).to.equal(true);
    expect(isValidHistoryLength(Array<PaymentCode>(25).fill('1'))).to.equal(false);
  });
});
