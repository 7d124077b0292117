/**
 * The plain-value constructors an embedding service uses to call the use
 * cases with numbers and strings (issue 24): each brands a valid value as it
 * is and throws a RangeError naming the type and the value otherwise.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { Cents, Id, IsoDate, LinkAccountBody, cents, decode, id, isoDate, timestamp } from '../src/index.js';

describe('plain-value constructors', () => {
  it('brand valid values unchanged', () => {
    expect(cents(0)).to.equal(0);
    expect(cents(1234)).to.equal(1234);
    expect(Cents.is(cents(1234))).to.equal(true);
    expect(id(7)).to.equal(7);
    expect(Id.is(id(7))).to.equal(true);
    expect(isoDate('2024-02-29')).to.equal('2024-02-29');
    expect(IsoDate.is(isoDate('2024-02-29'))).to.equal(true);
    expect(timestamp('2026-03-15T12:00:00.000Z')).to.equal('2026-03-15T12:00:00.000Z');
  });

  it('throw a RangeError saying what was expected and what was given', () => {
    expect(() => cents(12.5)).to.throw(RangeError, 'Cents: expected a whole number of cents (0 or more), got 12.5');
    expect(() => cents(-1)).to.throw(RangeError, /got -1/);
    expect(() => cents(Number.NaN)).to.throw(RangeError, /got NaN/);
    expect(() => id(0)).to.throw(RangeError, 'Id: expected a positive integer id, got 0');
    expect(() => isoDate('2023-02-29')).to.throw(RangeError, 'IsoDate: expected a YYYY-MM-DD date that exists, got "2023-02-29"');
    expect(() => timestamp('yesterday')).to.throw(RangeError, /Timestamp/);
  });

  it('a whole body decodes in one go, listing every problem', () => {
    const ok = decode(LinkAccountBody)({ name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 120_000 });
    expect(E.isRight(ok)).to.equal(true);
    const bad = decode(LinkAccountBody)({
      name: 'Card',
      type: 'loan',
      subtype: 'credit_card_loan',
      balance: 12.5,
      opened_at: '2023-02-30',
    });
    expect(E.isLeft(bad) && bad.left._tag === 'validation_error' ? bad.left.details?.map((d) => d.path) : []).to.deep.equal([
      'balance',
      'opened_at',
    ]);
  });
});
