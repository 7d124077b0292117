/**
 * The fast paths of `round2`, `dateParts` and `makeDate` (shared/primitives.ts, docs/performance.md):
 * each answers exactly what the plain version it replaced answers, for every input.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { addMonths, dateParts, daysBetween, makeDate, round2, type IsoDate } from '../src/shared/primitives.js';

/** The round2 every earlier release shipped: the binary representation corrected for every value. */
const round2Exact = (x: number): number => {
  const sign = x < 0 ? -1 : 1;
  const scaled = Number((Math.abs(x) * 100).toPrecision(15));
  return (sign * Math.round(scaled)) / 100 || 0;
};

/** The dateParts and makeDate every earlier release shipped. */
const datePartsSplit = (date: string): { year: number; month: number; day: number } => {
  const [y, m, d] = date.split('-');
  return { year: Number(y), month: Number(m), day: Number(d) };
};
const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const makeDatePadded = (year: number, month: number, day: number): string => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;

const same = (a: number, b: number): boolean => Object.is(a, b);

describe('primitives: fast paths answer what the plain versions answer', () => {
  it('round2: the documented cases (half away from zero, robust to the binary representation)', () => {
    expect(round2(2.675)).to.equal(2.68);
    expect(round2(-1.005)).to.equal(-1.01);
    expect(round2(1.005)).to.equal(1.01);
    expect(round2(0.125)).to.equal(0.13);
    expect(round2(-0)).to.equal(0);
    expect(Object.is(round2(-0.001), 0)).to.equal(true);
    expect(round2(Number.NaN)).to.equal(0);
  });

  it('round2: equal to the fully corrected rounding for any double', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), (x) => same(round2(x), round2Exact(x))),
      { numRuns: 20_000 },
    );
  });

  it('round2: equal near every half, where the correction matters (k + 0.5 hundredths, a few ulps and a micro away)', () => {
    const nearHalf = fc
      .tuple(
        fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
        fc.constantFrom(0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-9, -1e-9, 9e-7, -9e-7, 1.1e-6, -1.1e-6, 1e-5, -1e-5),
        fc.integer({ min: -4, max: 4 }),
      )
      .map(([k, offset, ulps]) => {
        const x = (k + 0.5 + offset) / 100;
        // A few representable neighbours of x.
        const buffer = new Float64Array([x]);
        const bits = new BigInt64Array(buffer.buffer);
        bits[0] = bits[0]! + BigInt(ulps);
        return buffer[0]!;
      });
    fc.assert(
      fc.property(nearHalf, (x) => same(round2(x), round2Exact(x))),
      { numRuns: 50_000 },
    );
  });

  it('round2: equal on every cent fraction of every amount up to $100,000 in steps (the money the factors see)', () => {
    for (let cents = 0; cents < 10_000_000; cents += 997) {
      for (const third of [cents / 3, cents / 7, cents / 100, (cents * 100) / 3, cents / 12]) {
        expect(round2(third), String(third)).to.equal(round2Exact(third));
        expect(round2(-third), String(-third)).to.equal(round2Exact(-third));
      }
    }
  });

  const isoDate = fc
    .tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
    .map(([y, m, d]) => makeDatePadded(y, m, d) as IsoDate);

  it('dateParts and makeDate: equal to split and pad for every valid date, and for a year past 9999', () => {
    fc.assert(
      fc.property(isoDate, (date) => {
        expect(dateParts(date)).to.deep.equal(datePartsSplit(date));
        const { year, month, day } = datePartsSplit(date);
        expect(makeDate(year, month, day)).to.equal(date);
      }),
      { numRuns: 20_000 },
    );
    expect(dateParts('10001-03-31' as IsoDate)).to.deep.equal({ year: 10001, month: 3, day: 31 });
    expect(makeDate(10001, 3, 31)).to.equal('10001-03-31');
    expect(makeDate(7, 1, 9)).to.equal('0007-01-09');
  });

  it('addMonths and daysBetween: as before (month ends clamped, leap days, years past 9999)', () => {
    expect(addMonths('2024-01-31' as IsoDate, 1)).to.equal('2024-02-29');
    expect(addMonths('2023-01-31' as IsoDate, 1)).to.equal('2023-02-28');
    expect(addMonths('2024-03-31' as IsoDate, -1)).to.equal('2024-02-29');
    expect(addMonths('9999-06-15' as IsoDate, 12)).to.equal('10000-06-15');
    expect(daysBetween('2024-01-01' as IsoDate, '2025-01-01' as IsoDate)).to.equal(366);
    fc.assert(
      fc.property(isoDate, fc.integer({ min: -1200, max: 1200 }), (date, n) => {
        const { year, month, day } = datePartsSplit(date);
        const index = year * 12 + (month - 1) + n;
        const y = Math.floor(index / 12);
        const m = (index % 12) + 1;
        if (y < 1) return;
        const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
        expect(addMonths(date, n)).to.equal(makeDatePadded(y, m, Math.min(day, last)));
      }),
      { numRuns: 5_000 },
    );
  });
});
