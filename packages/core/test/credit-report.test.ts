import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { AccountRecord } from '../src/accounts/account.js';
import { deriveCreditReport } from '../src/bureau/credit-report.js';
import { CreditScore, creditScoreFields } from '../src/credit-scores/credit-score.js';
import { anAccountRecord } from '../src/accounts/record-mothers.js';
import { addDays, type IsoDate } from '../src/shared/primitives.js';

const TODAY = '2024-07-01' as IsoDate;

/** An account record, decoded through the real codec so test data is always valid. */
const anAccount = (overrides: Record<string, unknown> = {}): AccountRecord => anAccountRecord(TODAY, overrides);

/** Opened `days` days before TODAY. */
const openedDaysAgo = (days: number) => ({ opened_at: addDays(TODAY, -days) });

describe('deriveCreditReport (docs/decisions/payoff-and-outlook.md)', () => {
  it('derives every factor and the score of a hand-computed example', () => {
    const accounts = [
      anAccount({
        type: 'loan',
        subtype: 'credit_card_loan',
        balance: 150_000,
        limit: 500_000,
        opened_at: '2014-07-01',
        payments_history: ['1', '1', '2', '1', 'E', '0', '*', ''],
      }),
      anAccount({
        type: 'loan',
        subtype: 'auto_loan',
        balance: 1_000_000,
        opened_at: '2020-07-01',
        payments_history: ['1', '1', '1', '1', '1', '6'],
      }),
      anAccount({ type: 'loan', subtype: 'credit_card_loan', status: 'closed', balance: 90_000, limit: 100_000, opened_at: '2024-01-01' }),
      anAccount({ type: 'depository', subtype: 'checking', balance: 5_000, payments_history: ['1'] }),
    ];
    /*
     * payment_history: rated months 1,1,2,1,E (acct 1) + 1,1,1,1,1,6 (acct 2) + 1 (acct 4) = 12,
     *   on time 4 + 5 + 1 = 10 → 100 × 10 / 12 = 83.333… → 83.33 (Poor, < 90)
     * credit_utilization: open cards with a limit: acct 1 only (acct 3 is closed)
     *   → 100 × 150000 / 500000 = 30 (Good, <= 30)
     * derogatory_marks: acct 2 has a 6 → 1 (Poor)
     * credit_age: days to 2024-07-01: 3653 (10 years, 3 leap days), 1461, 182 (Jan..Jun 2024)
     *   → (3653 + 1461 + 182) / 3 / 365.25 = 5296 / 1095.75 = 4.8332… → 4.83 (Poor, not > 5)
     * credit_mix: loan subtypes {credit_card_loan, auto_loan} = 2 (Poor, not > 2); checking is not a loan
     * new_credit: acct 3, 182 days old → 1 (Good)
     * score = 300 + 550 × (0.35 × 0.8333 + 0.30 × (1 − 0.30) + 0.15 × 0.483 + 0.10 × 2/4 + 0.10 × (1 − 1/5)) − 40 × 1
     *       = 300 + 550 × (0.291655 + 0.21 + 0.07245 + 0.05 + 0.08) − 40
     *       = 300 + 550 × 0.704105 − 40 = 300 + 387.25775 − 40 = 647.25775 → 647
     */
    expect(deriveCreditReport(accounts, TODAY)).to.deep.equal({
      score: 647,
      payment_history: { amount: 83.33, factor: 'Poor' },
      credit_utilization: { amount: 30, factor: 'Good' },
      derogatory_marks: { amount: 1, factor: 'Poor' },
      credit_age: { amount: 4.83, factor: 'Poor' },
      credit_mix: { amount: 2, factor: 'Poor' },
      new_credit: { amount: 1, factor: 'Good' },
    });
  });

  it('no accounts: payment history 100, utilization 0, score from the formula', () => {
    /*
     * score = 300 + 550 × (0.35 × 1 + 0.30 × 1 + 0 + 0 + 0.10 × 1) = 300 + 550 × 0.75 = 712.5 → 713
     * (in floating point the sum is 0.7499999999999999; the half must still round up)
     */
    expect(deriveCreditReport([], TODAY)).to.deep.equal({
      score: 713,
      payment_history: { amount: 100, factor: 'Good' },
      credit_utilization: { amount: 0, factor: 'Good' },
      derogatory_marks: { amount: 0, factor: 'Good' },
      credit_age: { amount: 0, factor: 'Poor' },
      credit_mix: { amount: 0, factor: 'Poor' },
      new_credit: { amount: 0, factor: 'Good' },
    });
  });

  describe('payment_history', () => {
    it('is 100 when no month is rated', () => {
      const report = deriveCreditReport([anAccount({ payments_history: ['0', '*', ''] })], TODAY);
      expect(report.payment_history).to.deep.equal({ amount: 100, factor: 'Good' });
    });

    it('pools months over all accounts, closed ones included', () => {
      // 2 on time of 3 rated → 66.666… → 66.67
      const report = deriveCreditReport(
        [anAccount({ payments_history: ['1', '2'] }), anAccount({ status: 'closed', payments_history: ['E', '*'] })],
        TODAY,
      );
      expect(report.payment_history).to.deep.equal({ amount: 66.67, factor: 'Poor' });
    });

    it('is 0 when every rated month is late', () => {
      expect(deriveCreditReport([anAccount({ payments_history: ['2', '5', '0'] })], TODAY).payment_history).to.deep.equal({
        amount: 0,
        factor: 'Poor',
      });
    });
  });

  describe('credit_utilization', () => {
    const card = (overrides: Record<string, unknown>) => anAccount({ type: 'loan', subtype: 'credit_card_loan', ...overrides });

    it('is Σ balance / Σ limit over open cards, rounded', () => {
      // (1000 + 2000) / (7000 + 2000) = 33.333… → 33.33
      const report = deriveCreditReport(
        [card({ balance: 1_000, limit: 7_000 }), card({ status: 'disabled', balance: 2_000, limit: 2_000 })],
        TODAY,
      );
      expect(report.credit_utilization).to.deep.equal({ amount: 33.33, factor: 'Poor' });
    });

    it('ignores closed cards, cards without a positive limit, and non-card accounts', () => {
      const report = deriveCreditReport(
        [
          card({ balance: 3_000, limit: 10_000 }),
          card({ status: 'closed', balance: 10_000, limit: 10_000 }),
          card({ balance: 5_000, limit: 0 }),
          card({ balance: 5_000, limit: null }),
          anAccount({ subtype: 'personal_loan', balance: 10_000, limit: 10_000 }),
        ],
        TODAY,
      );
      expect(report.credit_utilization).to.deep.equal({ amount: 30, factor: 'Good' });
    });

    it('is capped at 100 when balances exceed limits', () => {
      expect(deriveCreditReport([card({ balance: 25_000, limit: 10_000 })], TODAY).credit_utilization).to.deep.equal({
        amount: 100,
        factor: 'Poor',
      });
    });

    it('is 0 when there is no qualifying card', () => {
      expect(deriveCreditReport([card({ status: 'closed', balance: 1, limit: 1 })], TODAY).credit_utilization.amount).to.equal(0);
    });
  });

  describe('derogatory_marks', () => {
    it('counts accounts with any month 6–9, not months', () => {
      const report = deriveCreditReport(
        [
          anAccount({ payments_history: ['6', '7', '8', '9'] }),
          anAccount({ payments_history: ['1', '9'] }),
          anAccount({ payments_history: ['5', '4', '3', '2'] }),
        ],
        TODAY,
      );
      expect(report.derogatory_marks).to.deep.equal({ amount: 2, factor: 'Poor' });
    });
  });

  describe('credit_age', () => {
    it('is the mean age in years (days / 365.25) over accounts with opened_at', () => {
      // (1461 + 0) / 2 / 365.25 = 2; the account without opened_at is not in the mean
      const report = deriveCreditReport([anAccount(openedDaysAgo(1461)), anAccount(openedDaysAgo(0)), anAccount()], TODAY);
      expect(report.credit_age).to.deep.equal({ amount: 2, factor: 'Poor' });
    });

    it('is Good just above 5 years', () => {
      // 1830 / 365.25 = 5.0102… → 5.01
      expect(deriveCreditReport([anAccount(openedDaysAgo(1830))], TODAY).credit_age).to.deep.equal({ amount: 5.01, factor: 'Good' });
    });

    it('counts an opened_at after today as age 0', () => {
      // (731 + 0) / 2 / 365.25 = 1.0007… → 1; the future account pulls the mean down instead of being negative
      const report = deriveCreditReport([anAccount(openedDaysAgo(731)), anAccount({ opened_at: addDays(TODAY, 30) })], TODAY);
      expect(report.credit_age.amount).to.equal(1);
    });

    it('is capped at 100 years', () => {
      expect(deriveCreditReport([anAccount({ opened_at: '1900-01-01' })], TODAY).credit_age).to.deep.equal({ amount: 100, factor: 'Good' });
    });
  });

  describe('credit_mix', () => {
    it('counts distinct subtypes of loan accounts only', () => {
      const report = deriveCreditReport(
        [
          anAccount({ type: 'loan', subtype: 'student_loan' }),
          anAccount({ type: 'loan', subtype: 'student_loan' }),
          anAccount({ type: 'loan', subtype: 'mortgage_loan', status: 'closed' }),
          anAccount({ type: 'loan', subtype: 'auto_loan' }),
          anAccount({ type: 'depository', subtype: 'savings' }),
          anAccount({ type: 'other', subtype: 'medical_loan' }),
        ],
        TODAY,
      );
      expect(report.credit_mix).to.deep.equal({ amount: 3, factor: 'Good' });
    });

    it('is capped at 6 though there are 7 loan subtypes', () => {
      const subtypes = ['student_loan', 'credit_card_loan', 'auto_loan', 'personal_loan', 'mortgage_loan', 'medical_loan', 'other_loan'];
      const report = deriveCreditReport(
        subtypes.map((subtype) => anAccount({ type: 'loan', subtype })),
        TODAY,
      );
      expect(report.credit_mix).to.deep.equal({ amount: 6, factor: 'Good' });
    });
  });

  describe('new_credit', () => {
    it('counts accounts opened today through 364 days ago; 365 days ago is not new', () => {
      const report = deriveCreditReport(
        [anAccount(openedDaysAgo(0)), anAccount(openedDaysAgo(364)), anAccount(openedDaysAgo(365)), anAccount()],
        TODAY,
      );
      expect(report.new_credit).to.deep.equal({ amount: 2, factor: 'Good' });
    });

    it('counts an opened_at after today as new, and is Poor from 3', () => {
      const report = deriveCreditReport(
        [anAccount(openedDaysAgo(10)), anAccount(openedDaysAgo(100)), anAccount({ opened_at: addDays(TODAY, 1) })],
        TODAY,
      );
      expect(report.new_credit).to.deep.equal({ amount: 3, factor: 'Poor' });
    });
  });

  describe('score', () => {
    it('reaches 850 with perfect factors', () => {
      // ph 100, cu 0, age 10 (3653 days / 365.25 = 10.0014 → 10.00), mix 4, new 0 → 300 + 550 × 1 = 850
      const accounts = ['student_loan', 'auto_loan', 'mortgage_loan', 'personal_loan'].map((subtype) =>
        anAccount({ type: 'loan', subtype, opened_at: '2014-07-01', payments_history: ['1'] }),
      );
      const report = deriveCreditReport(accounts, TODAY);
      expect(report.credit_age.amount).to.equal(10);
      expect(report.score).to.equal(850);
    });

    it('is clamped at 300 with many derogatory marks', () => {
      // with 20 derogatory accounts: 300 + 550 × (0 + 0.30 + 0 + 0.025 + 0.10) − 800 < 300
      const accounts = Array.from({ length: 20 }, () => anAccount({ payments_history: ['9'] }));
      const report = deriveCreditReport(accounts, TODAY);
      expect(report.derogatory_marks.amount).to.equal(20);
      expect(report.score).to.equal(300);
    });

    it('loses 40 points per derogatory mark', () => {
      // one 7 among on-time months: ph 2/3 → 66.67
      // 300 + 550 × (0.35 × 0.6667 + 0.30 + 0 + 0.10 × 1/4 + 0.10) = 300 + 550 × 0.658345 = 662.08975; − 40 → 622
      const report = deriveCreditReport([anAccount({ payments_history: ['1', '1', '7'] })], TODAY);
      expect(report.score).to.equal(622);
    });
  });

  it('is deterministic and does not touch its input', () => {
    const accounts = [
      anAccount({ subtype: 'credit_card_loan', balance: 2_345, limit: 9_999, opened_at: '2019-03-15', payments_history: ['1', '3', 'E'] }),
      anAccount({ subtype: 'student_loan', balance: 1_000_000, opened_at: '2023-09-01', payments_history: ['1', '8'] }),
    ];
    const before = JSON.stringify(accounts);
    const first = deriveCreditReport(accounts, TODAY);
    expect(deriveCreditReport([...accounts], TODAY)).to.deep.equal(first);
    expect(JSON.stringify(accounts)).to.equal(before);
  });

  it('always yields a report the strict CreditScore codec accepts', () => {
    const cases = [
      [],
      [anAccount({ subtype: 'credit_card_loan', balance: 99_999, limit: 1, opened_at: '1900-01-01', payments_history: ['9', '9'] })],
      Array.from({ length: 150 }, (_, i) =>
        anAccount({ subtype: 'other_loan', opened_at: addDays(TODAY, -i), payments_history: [i % 2 === 0 ? '1' : '6'] }),
      ),
    ];
    for (const accounts of cases) {
      const report = deriveCreditReport(accounts, TODAY);
      const decoded = CreditScore.decode({ id: 1, ...creditScoreFields(report, TODAY, 'Doe', null) });
      expect(E.isRight(decoded), JSON.stringify(report)).to.equal(true);
    }
  });
});
