/**
 * The Minimum Payment Warning (shared/money/disclosure.ts, docs/decisions/payoff-and-outlook.md):
 * Regulation Z Appendix M2's worked example, its program run as an independent
 * oracle on variants, M1 (b)(2)'s rule for deferred interest, and
 * §1026.7(b)(12)'s rounding of years and of the 36-month line.
 */
import { expect } from 'chai';
import { disclosedYears, repaymentDisclosure, threeYearPayment, toDollar, wholeMonthsBetween } from '../src/shared/money/disclosure.js';
import type { DebtTerms, RateSegment } from '../src/shared/money/terms.js';
import { addDays, addMonths, type IsoDate } from '../src/shared/primitives.js';

const AS_OF = '2026-03-15' as IsoDate;

/** "2% of the balance or $20, whichever is greater" (M2's `pmin`, `dmin`). */
const M2_FORMULA = { floor: 2000, terms: [{ percent_of_balance: 2, plus_interest: false, plus_amount: 0 }] };

/** Appendix M2's account: $500 at 0% until `promoEnds` then 17%, $250 at 17%, $250 at 21%. */
const m2Account = (promoEnds: IsoDate): DebtTerms => ({
  id: 1,
  balance: 100_000,
  apr: 0,
  minimumPayment: 0,
  minimumFormula: M2_FORMULA,
  segments: [
    { kind: 'promotional', balance: 50_000, apr: 0, promo_ends_on: promoEnds, go_to_apr: 17 },
    { kind: 'purchase', balance: 25_000, apr: 17 },
    { kind: 'cash_advance', balance: 25_000, apr: 21 },
  ],
});

/**
 * Appendix M2's SAS program, transcribed line for line (dollars as doubles,
 * `round(x, 0.01)`), for three balances in ascending order of rate, the first
 * promotional until month `expm`. One repair: M2 moves a payment past the second
 * balance with `if pmt gt xxxbal2` where it means `xxxbal1 + xxxbal2`; the
 * transcription allocates to the lowest rate first, as M1 says, which is what the
 * program does whenever its condition and the intended one agree (the worked example).
 */
const m2Program = (
  apr: [number, number, number],
  cbal: [number, number, number],
  pmin: number,
  dmin: number,
  expm: number,
  rrate: number,
) => {
  const round2 = (x: number) => Math.round(x * 100 + Number.EPSILON * 100) / 100;
  const days = 365 / 12;
  const xperrate = apr.map((a) => (a / 365) * days);
  const xperrate1a = expm > 0 ? (expm / 36) * xperrate[0]! + (1 - expm / 36) * (rrate / 365) * days : xperrate[0]!;
  let tbal = cbal[0] + cbal[1] + cbal[2];
  const perrate36 = (cbal[0] * xperrate1a + cbal[1] * xperrate[1]! + cbal[2] * xperrate[2]!) / tbal;
  const pvaf = (1 - (1 + perrate36) ** -36) / perrate36;
  const pmt01 = round2(tbal / pvaf);
  const sumpmts36 = pmt01 * 36;
  const bal = [...cbal];
  const perrate = apr.map((a) => (a / 365) * days);
  let month = 0;
  let sumpmts = 0;
  while (tbal > 0 && month < 1000) {
    month += 1;
    let pmt = round2(pmin * tbal);
    if (month >= expm && expm !== 0) perrate[0] = (rrate / 365) * days;
    if (pmt < dmin) pmt = dmin;
    const xxxbal = bal.map((b, i) => round2(b * (1 + perrate[i]!)));
    const owed = round2(xxxbal[0]! + xxxbal[1]! + xxxbal[2]!);
    if (pmt > owed) pmt = owed;
    let left = pmt;
    for (let i = 0; i < 3; i++) {
      const part = Math.min(left, xxxbal[i]!);
      bal[i] = round2(xxxbal[i]! - part);
      left = round2(left - part);
    }
    sumpmts = round2(sumpmts + pmt);
    tbal = round2(bal[0]! + bal[1]! + bal[2]!);
  }
  return { month, sumpmts, pmt01, sumpmts36, savtot: Math.round(sumpmts) - Math.round(sumpmts36) };
};

describe('the Minimum Payment Warning (Regulation Z Appendix M1, M2)', () => {
  it("answers Appendix M2's worked example as an account whose promotion ends as_of + 6 months: 94 months, 8 years, $1,872; $35 a month, $1,276, $596 saved", () => {
    expect(repaymentDisclosure(m2Account(addMonths(AS_OF, 6)), AS_OF)).to.deep.equal({
      minimum_payments_only: { months: 94, years: 8, total_cost: 187_200 },
      three_year: { monthly_payment: 3_500, total_cost: 127_600, savings: 59_600 },
      never_pays_off: false,
      rounding: 'nearest_dollar',
    });
  });

  it('moves with promo_ends_on as the rule says: a day earlier, the same 5 promotional months (94) and expm 5 ($36); a day later, 6 promotional months (93)', () => {
    const end = addMonths(AS_OF, 6);
    // Month 6 is dated as_of + 6 months: before a promotion ending a day later, not before one ending that day or a day earlier.
    const earlier = repaymentDisclosure(m2Account(addDays(end, -1)), AS_OF);
    expect(earlier.minimum_payments_only).to.deep.equal({ months: 94, years: 8, total_cost: 187_200 });
    expect(earlier.three_year).to.deep.equal({ monthly_payment: 3_600, total_cost: 128_000, savings: 59_200 });
    const later = repaymentDisclosure(m2Account(addDays(end, 1)), AS_OF);
    expect(later.minimum_payments_only).to.deep.equal({ months: 93, years: 8, total_cost: 185_000 });
    expect(later.three_year).to.deep.equal({ monthly_payment: 3_500, total_cost: 127_600, savings: 57_400 });
    // M2's own program agrees: promotional months 1..5 (its expm 6) and 1..6 (expm 7, the month the rate changes); its
    // 36-month payment with 5 whole months of promotion (expm 5) is $35.56.
    expect(m2Program([0, 0.17, 0.21], [500, 250, 250], 0.02, 20, 6, 0.17)).to.include({ month: 94, sumpmts: 1872.38, pmt01: 35.45 });
    expect(m2Program([0, 0.17, 0.21], [500, 250, 250], 0.02, 20, 5, 0.17).pmt01).to.equal(35.56);
    expect(m2Program([0, 0.17, 0.21], [500, 250, 250], 0.02, 20, 7, 0.17)).to.include({ month: 93, sumpmts: 1850.02 });
  });

  it("agrees with M2's program on variants of its account (balances, rates, promotion lengths, percents)", () => {
    const cases: Array<{
      apr: [number, number, number];
      cbal: [number, number, number];
      pmin: number;
      dmin: number;
      expm: number;
      rrate: number;
    }> = [
      { apr: [0, 0.17, 0.21], cbal: [500, 250, 250], pmin: 0.02, dmin: 20, expm: 6, rrate: 0.17 },
      { apr: [0, 0.1999, 0.2499], cbal: [1200, 800, 450], pmin: 0.025, dmin: 25, expm: 12, rrate: 0.1999 },
      { apr: [0.049, 0.1549, 0.2899], cbal: [3000, 1500, 700], pmin: 0.03, dmin: 35, expm: 9, rrate: 0.1549 },
      { apr: [0, 0.22, 0.27], cbal: [2000, 1000, 1000], pmin: 0.04, dmin: 40, expm: 18, rrate: 0.22 },
      { apr: [0.1299, 0.1799, 0.2399], cbal: [900, 600, 300], pmin: 0.03, dmin: 15, expm: 0, rrate: 0 },
    ];
    for (const c of cases) {
      const oracle = m2Program(c.apr, c.cbal, c.pmin, c.dmin, c.expm, c.rrate);
      const cents = (d: number) => Math.round(d * 100);
      // A promotion M2 ends at month expm is dated before promo_ends_on in months 1..expm−1 only: it ends on as_of + expm months.
      const segments: RateSegment[] = [
        c.expm > 0
          ? {
              kind: 'promotional',
              balance: cents(c.cbal[0]),
              apr: c.apr[0] * 100,
              promo_ends_on: addMonths(AS_OF, c.expm),
              go_to_apr: c.rrate * 100,
            }
          : { kind: 'purchase', balance: cents(c.cbal[0]), apr: c.apr[0] * 100 },
        { kind: 'purchase', balance: cents(c.cbal[1]), apr: c.apr[1] * 100 },
        { kind: 'cash_advance', balance: cents(c.cbal[2]), apr: c.apr[2] * 100 },
      ];
      const debt: DebtTerms = {
        id: 1,
        balance: segments.reduce((s, x) => s + x.balance, 0),
        apr: 0,
        minimumPayment: 0,
        minimumFormula: { floor: cents(c.dmin), terms: [{ percent_of_balance: c.pmin * 100, plus_interest: false, plus_amount: 0 }] },
        segments,
      };
      const answer = repaymentDisclosure(debt, AS_OF);
      const label = JSON.stringify(c);
      expect(answer.minimum_payments_only, label).to.deep.equal({
        months: oracle.month,
        years: disclosedYears(oracle.month),
        total_cost: cents(Math.round(oracle.sumpmts)),
      });
      expect(answer.three_year, label).to.deep.equal({
        monthly_payment: cents(Math.round(oracle.pmt01)),
        total_cost: cents(Math.round(oracle.sumpmts36)),
        savings: cents(oracle.savtot),
      });
    }
  });

  it('a "1% + interest, $25 floor" card: $5,000 at 24% takes 234 months (about 20 years) and $13,887; a fixed $150 minimum, 56 months', () => {
    const card = (terms: Partial<DebtTerms>): DebtTerms => ({ id: 1, balance: 500_000, apr: 24, minimumPayment: 0, ...terms });
    const formula = repaymentDisclosure(
      card({ minimumFormula: { floor: 2_500, terms: [{ percent_of_balance: 1, plus_interest: true, plus_amount: 0 }] } }),
      AS_OF,
    );
    expect(formula.minimum_payments_only).to.deep.equal({ months: 234, years: 20, total_cost: 1_388_700 });
    // 36 payments of $196.14 (the annuity at 2% a month): $7,061.
    expect(formula.three_year).to.deep.equal({ monthly_payment: 19_600, total_cost: 706_100 + 100, savings: 1_388_700 - 706_200 });
    expect(threeYearPayment([{ kind: 'purchase', balance: 500_000, apr: 24 }], AS_OF, new Set())).to.equal(19_616);
    const fixed = repaymentDisclosure(card({ minimumPayment: 15_000 }), AS_OF);
    expect(fixed.minimum_payments_only).to.deep.equal({ months: 56, years: 5, total_cost: 832_200 });
  });

  it('a minimum that never repays answers never_pays_off, no minimum-only figures, and the 36-month payment alone (§1026.7(b)(12)(ii))', () => {
    const answer = repaymentDisclosure(
      {
        id: 1,
        balance: 500_000,
        apr: 24,
        minimumPayment: 0,
        minimumFormula: { floor: 1_000, terms: [{ percent_of_balance: 1, plus_interest: false, plus_amount: 0 }] },
      },
      AS_OF,
    );
    expect(answer).to.deep.equal({
      minimum_payments_only: null,
      three_year: { monthly_payment: 19_600, total_cost: 706_200, savings: null },
      never_pays_off: true,
      rounding: 'nearest_dollar',
    });
    // A fixed minimum at or below the month's interest never repays either.
    expect(repaymentDisclosure({ id: 1, balance: 500_000, apr: 24, minimumPayment: 10_000 }, AS_OF).never_pays_off).to.equal(true);
  });

  describe('deferred interest (M1 (b)(2), (d)(2))', () => {
    /** A medical card: `balance` at 0%, deferred at 26.99% until as_of + 12 months, with `formula`. */
    const medical = (balance: number, floor: number, plusInterest = false): DebtTerms => ({
      id: 1,
      balance,
      apr: 0,
      minimumPayment: 0,
      minimumFormula: { floor, terms: [{ percent_of_balance: 1, plus_interest: plusInterest, plus_amount: 0 }] },
      segments: [
        {
          kind: 'promotional',
          balance,
          apr: 0,
          promo_ends_on: addMonths(AS_OF, 12),
          go_to_apr: 26.99,
          deferred_interest: true,
          accrued_deferred_interest: 1_234,
        },
      ],
    });

    it('is at 0% when the minimums repay the balance before the promotion ends (months dated before promo_ends_on: 1 to 11)', () => {
      // $550 at $50 a month: paid off in month 11, dated before the promotion's end.
      const answer = repaymentDisclosure(medical(55_000, 5_000), AS_OF);
      expect(answer.minimum_payments_only).to.deep.equal({ months: 11, years: null, total_cost: 55_000 });
      expect(answer.three_year).to.equal(null);
    });

    it('is at its accruing rate from the start when they do not, with no lump charge', () => {
      // $600 at $50 a month would end in month 12, the month dated on promo_ends_on: not repaid in time.
      const late = repaymentDisclosure(medical(60_000, 5_000), AS_OF);
      const atRate = repaymentDisclosure(
        {
          id: 1,
          balance: 60_000,
          apr: 26.99,
          minimumPayment: 0,
          minimumFormula: { floor: 5_000, terms: [{ percent_of_balance: 1, plus_interest: false, plus_amount: 0 }] },
        },
        AS_OF,
      );
      expect(late).to.deep.equal(atRate);
      expect(late.minimum_payments_only!.months).to.equal(15);
      // A larger balance on "1% + interest, $25": not repaid in 12 months, so 26.99% throughout, and the 36-month payment at 26.99% too.
      const big = repaymentDisclosure(medical(240_000, 2_500, true), AS_OF);
      const plain = repaymentDisclosure(
        {
          id: 1,
          balance: 240_000,
          apr: 26.99,
          minimumPayment: 0,
          minimumFormula: { floor: 2_500, terms: [{ percent_of_balance: 1, plus_interest: true, plus_amount: 0 }] },
        },
        AS_OF,
      );
      expect(big).to.deep.equal(plain);
      expect(big.three_year!.monthly_payment).to.equal(
        toDollar(threeYearPayment([{ kind: 'purchase', balance: 240_000, apr: 26.99 }], AS_OF, new Set())),
      );
    });
  });

  it('rounds years as §1026.7(b)(12)(i)(B) and comment 7(b)(12)(i)(F)-1 say, and leaves the 36-month line out at 3 years or less', () => {
    expect([1, 23, 24, 29, 30, 41, 42, 94, 234].map(disclosedYears)).to.deep.equal([null, null, 2, 2, 3, 3, 4, 8, 20]);
    // A fixed minimum that repays in 41 months (3 years 5 months): disclosed as 3 years, so no 36-month line; 42 months: 4 years, with it.
    const months = (minimum: number) => repaymentDisclosure({ id: 1, balance: 100_000, apr: 0, minimumPayment: minimum }, AS_OF);
    expect(months(2_440).minimum_payments_only).to.deep.equal({ months: 41, years: 3, total_cost: 100_000 });
    expect(months(2_440).three_year).to.equal(null);
    expect(months(2_390).minimum_payments_only).to.deep.equal({ months: 42, years: 4, total_cost: 100_000 });
    expect(months(2_390).three_year).to.deep.equal({ monthly_payment: 2_800, total_cost: 100_000, savings: 0 });
  });

  it('counts the whole months to a promotion (M2 expm) by calendar months as docs/decisions/api-conventions.md dates them, and rounds cents to the dollar half up', () => {
    expect(wholeMonthsBetween(AS_OF, '2026-09-15' as IsoDate)).to.equal(6);
    expect(wholeMonthsBetween(AS_OF, '2026-09-14' as IsoDate)).to.equal(5);
    expect(wholeMonthsBetween(AS_OF, AS_OF)).to.equal(0);
    expect(wholeMonthsBetween('2026-01-31' as IsoDate, '2026-02-28' as IsoDate)).to.equal(1);
    expect([0, 49, 50, 149, 150, 187_238].map(toDollar)).to.deep.equal([0, 0, 100, 100, 200, 187_200]);
  });

  it('a zero balance repays at once', () => {
    expect(repaymentDisclosure({ id: 1, balance: 0, apr: 24, minimumPayment: 2_500 }, AS_OF)).to.deep.equal({
      minimum_payments_only: { months: 0, years: null, total_cost: 0 },
      three_year: null,
      never_pays_off: false,
      rounding: 'nearest_dollar',
    });
  });
});
