/**
 * `today` (application/deps.ts) keeps the last day it rendered (every request
 * asks for today; the pure domain's `utcDate` keeps nothing): the answer must
 * still follow the instant across midnight, backwards and at the edges of a
 * day, and an invalid instant must still throw.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { utcDate as pureUtcDate } from '../src/shared/primitives.js';
import { today } from '../src/shared/deps.js';

/** The memoised path under test, cross-checked with the pure one. */
const utcDate = (instant: Date): string => {
  const answer = today({ now: () => instant });
  expect(answer).to.equal(pureUtcDate(instant));
  return answer;
};

describe('utcDate', () => {
  it('is the UTC calendar date of the instant, across midnight both ways', () => {
    expect(utcDate(new Date('2026-11-24T23:59:59.999Z'))).to.equal('2026-11-24');
    expect(utcDate(new Date('2026-11-25T00:00:00.000Z'))).to.equal('2026-11-25');
    expect(utcDate(new Date('2026-11-24T00:00:00.000Z'))).to.equal('2026-11-24');
    expect(utcDate(new Date('1969-12-31T23:59:59.999Z'))).to.equal('1969-12-31');
    expect(utcDate(new Date('1970-01-01T00:00:00.000Z'))).to.equal('1970-01-01');
  });

  it('agrees with toISOString for any sequence of instants', () => {
    fc.assert(
      fc.property(
        fc.array(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }), {
          minLength: 1,
          maxLength: 20,
        }),
        (dates) => {
          for (const d of dates) expect(utcDate(d)).to.equal(d.toISOString().slice(0, 10));
        },
      ),
    );
  });

  it('throws for an invalid instant, like toISOString', () => {
    utcDate(new Date('2026-11-24T12:00:00Z'));
    expect(() => utcDate(new Date(Number.NaN))).to.throw(RangeError);
  });
});
