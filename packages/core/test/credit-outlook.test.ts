import { expect } from 'chai';
import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { AccountRecord, effectiveApr, effectiveMinimumPayment } from '../src/accounts/account.js';
import { deriveCreditReport } from '../src/bureau/credit-report.js';
import type { FactorObject } from '../src/credit-scores/credit-score.js';
import {
  CreditOutlook,
  creditMilestones,
  creditOutlook,
  extendHistory,
  getsMonthlyCode,
  type CreditFactors,
  type CreditOutlookInput,
} from '../src/payment-plans/credit-outlook.js';
import { comparePayoffStrategies } from '../src/payment-plans/payoff-comparison.js';
import { monthlyInterest, traceBalances } from '../src/payment-plans/payoff-plan.js';
import { forecastBasis, planProgress, type ForecastPlan } from '../src/payment-plans/payoff-progress.js';
import { isDerogatory, isOnTime, isRated, type PaymentCode } from '../src/accounts/payment-history.js';
import type { Strategy } from '../src/payment-plans/payment-plan.js';
import { anAccountRecord } from '../src/accounts/record-mothers.js';
import { addDays, addMonths, type Cents, type IsoDate } from '../src/shared/primitives.js';

const TODAY = '2026-06-15' as IsoDate;

/** An account record, decoded through the real codec so test data is always valid. */
const anAccount = (overrides: Record<string, unknown> = {}): AccountRecord => anAccountRecord(TODAY, overrides);

const aPlan = (overrides: Partial<ForecastPlan> = {}): ForecastPlan => ({
  strategy: 'avalanche',
  monthly_payment: 50_000 as Cents,
  account_ids: [],
  custom_order: null,
  extra_payments: [],
  start_date: TODAY,
  ...overrides,
});

const outlookOf = (input: CreditOutlookInput): CreditOutlook => {
  const result = creditOutlook(input);
  if (E.isLeft(result)) throw new Error(`expected an outlook, got ${result.left.message}`);
  return result.right;
};

const factorsOfReport = (accounts: ReadonlyArray<AccountRecord>, date: IsoDate): CreditFactors => {
  const { score: _unused, ...factors } = deriveCreditReport(accounts, date);
  void _unused;
  return factors;
};

/**
 * The accounts as the outlook describes them in every month, built the slow,
 * obvious way from docs/decisions/payoff-and-outlook.md: the forecast's balances (traced through the
 * month loop) for plan accounts, and one code a month at the front of every
 * non-closed loan's history via `extendHistory`.
 */
const referenceMonths = (input: CreditOutlookInput): Array<{ month: number; date: IsoDate; accounts: AccountRecord[] }> => {
  const { plan, accounts, today } = input;
  const basis = forecastBasis(
    plan,
    accounts.map((a) => ({ id: a.id, balance: a.balance, apr: effectiveApr(a), minimumPayment: effectiveMinimumPayment(a) })),
    today,
  );
  const out = [{ month: 0, date: today, accounts: [...accounts] }];
  if (basis._tag !== 'runnable') return out;
  let current = [...accounts];
  const indexOf = new Map(basis.input.debts.map((d, i) => [d.id as number, i]));
  traceBalances(basis.input, 600, (month, balances) => {
    current = current.map((a) => {
      const i = indexOf.get(a.id);
      const payments_history = getsMonthlyCode(a) ? extendHistory(a.payments_history, a.balance > 0) : a.payments_history;
      return { ...a, payments_history, balance: (i === undefined ? a.balance : balances[i]!) as Cents };
    });
    out.push({ month, date: addMonths(plan.start_date, basis.offset + month), accounts: current });
  });
  return out;
};

// ---------------------------------------------------------------------------
// Arbitraries: a user's accounts and a valid plan over some of them
// ---------------------------------------------------------------------------

const CODES: PaymentCode[] = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'E', '*', ''];
const historyArb = fc.array(fc.constantFrom(...CODES), { maxLength: 24 });
const openedArb = fc.option(
  fc.integer({ min: -30 * 365, max: 60 }).map((d) => addDays(TODAY, d)),
  { nil: null },
);

/** A loan that can be in a plan: a balance, an APR and a minimum that covers its interest plus ~1% of the balance. */
const debtAccountArb = fc
  .record({
    subtype: fc.constantFrom('credit_card_loan', 'personal_loan', 'auto_loan', 'student_loan'),
    balance: fc.integer({ min: 1, max: 5_000_000 }),
    aprHundredths: fc.integer({ min: 0, max: 3_600 }),
    limitFactor: fc.integer({ min: 50, max: 400 }),
    extraMinimum: fc.integer({ min: 0, max: 20_000 }),
    history: historyArb,
    opened: openedArb,
  })
  .map((r) => {
    const apr = r.aprHundredths / 100;
    const minimum = monthlyInterest(r.balance as Cents, apr) + Math.ceil(r.balance / 100) + r.extraMinimum;
    return {
      type: 'loan',
      subtype: r.subtype,
      balance: r.balance,
      limit: r.subtype === 'credit_card_loan' ? Math.ceil((r.balance * r.limitFactor) / 100) : null,
      apr,
      minimum_payment: minimum,
      payments_history: r.history,
      opened_at: r.opened,
    };
  });

/** Any other account: depository, closed or disabled loans, cards with or without limits. */
const otherAccountArb = fc.record({
  type: fc.constantFrom('loan', 'depository', 'other'),
  subtype: fc.constantFrom('credit_card_loan', 'mortgage_loan', 'checking', 'savings', 'medical_loan'),
  status: fc.constantFrom('active', 'closed', 'disabled'),
  balance: fc.integer({ min: 0, max: 2_000_000 }),
  limit: fc.option(fc.integer({ min: 0, max: 3_000_000 }), { nil: null }),
  payments_history: historyArb,
  opened_at: openedArb,
});

const strategyArb = fc.constantFrom<Strategy>('avalanche', 'snowball', 'custom', 'minimum_only');

const userAndPlanArb = fc
  .record({
    debts: fc.array(debtAccountArb, { minLength: 1, maxLength: 5 }),
    others: fc.array(otherAccountArb, { maxLength: 4 }),
    strategy: strategyArb,
    slack: fc.integer({ min: 0, max: 300_000 }),
    startMonthsAgo: fc.integer({ min: 0, max: 24 }),
    reverse: fc.boolean(),
  })
  .map((r) => {
    const debts = r.debts.map((d) => anAccount(d));
    const accounts = [...debts, ...r.others.map((o) => anAccount(o))];
    const ids = debts.map((d) => d.id);
    const minimums = debts.reduce((sum, d) => sum + (d.minimum_payment ?? 0), 0);
    const plan = aPlan({
      strategy: r.strategy,
      monthly_payment: (minimums + r.slack) as Cents,
      account_ids: ids,
      custom_order: r.strategy === 'custom' ? (r.reverse ? [...ids].reverse() : ids) : null,
      start_date: addMonths(TODAY, -r.startMonthsAgo),
    });
    return { plan, accounts, today: TODAY };
  });

const PROPERTY_RUNS = { numRuns: 150 };

describe('credit outlook (docs/decisions/payoff-and-outlook.md)', () => {
  describe('properties', () => {
    it("month 0 equals the sandbox report's factors for today", () => {
      fc.assert(
        fc.property(userAndPlanArb, (input) => {
          const outlook = outlookOf(input);
          expect(outlook.months[0]).to.deep.equal({ month: 0, date: TODAY, factors: factorsOfReport(input.accounts, TODAY) });
        }),
        PROPERTY_RUNS,
      );
    });

    it("every month equals the sandbox report of the accounts the projection describes, on that month's date", () => {
      fc.assert(
        fc.property(userAndPlanArb, (input) => {
          const outlook = outlookOf(input);
          const reference = referenceMonths(input);
          expect(outlook.months.length).to.equal(reference.length);
          reference.forEach((r, k) => {
            expect(outlook.months[k]).to.deep.equal({ month: r.month, date: r.date, factors: factorsOfReport(r.accounts, r.date) });
          });
        }),
        { numRuns: 60 },
      );
    });

    it("utilization never rises when every card's minimum covers its monthly interest", () => {
      // The debt generator gives every loan a minimum above its interest; other cards keep their balance.
      fc.assert(
        fc.property(userAndPlanArb, (input) => {
          const amounts = outlookOf(input).months.map((m) => m.factors.credit_utilization.amount);
          for (let k = 1; k < amounts.length; k++) expect(amounts[k]).to.be.at.most(amounts[k - 1]!);
        }),
        PROPERTY_RUNS,
      );
    });

    it('a history never holds more than 24 codes: from month 24 on, every non-closed loan counts exactly 24 on-time months', () => {
      fc.assert(
        fc.property(userAndPlanArb, (input) => {
          const outlook = outlookOf(input);
          let fixedRated = 0;
          let fixedOnTime = 0;
          let rolling = 0;
          for (const a of input.accounts) {
            if (a.type === 'loan' && a.status !== 'closed') rolling++;
            else {
              fixedRated += a.payments_history.filter(isRated).length;
              fixedOnTime += a.payments_history.filter(isOnTime).length;
            }
          }
          const rated = fixedRated + 24 * rolling;
          const expected = rated === 0 ? 100 : Math.round((10_000 * (fixedOnTime + 24 * rolling)) / rated) / 100;
          for (const m of outlook.months.filter((x) => x.month >= 24))
            expect(m.factors.payment_history.amount).to.be.closeTo(expected, 0.005);
          for (const r of referenceMonths(input)) for (const a of r.accounts) expect(a.payments_history.length).to.be.at.most(24);
        }),
        { numRuns: 60 },
      );
    });

    it('a derogatory code stops counting in exactly the month it falls off the end', () => {
      const arb = fc
        .record({
          length: fc.integer({ min: 1, max: 24 }),
          position: fc.nat(),
          code: fc.constantFrom<PaymentCode>('6', '7', '8', '9'),
          filler: fc.constantFrom<PaymentCode>('1', 'E', '2', '0', '*'),
          inPlan: fc.boolean(),
          closed: fc.boolean(),
        })
        .map((r) => ({ ...r, position: r.position % r.length }));
      fc.assert(
        fc.property(arb, ({ length, position, code, filler, inPlan, closed }) => {
          const history = Array.from({ length }, (_, k) => (k === position ? code : filler));
          // A long plan (a $100,000 loan at $1,000 a month) so every month up to 24 is projected.
          const big = anAccount({ balance: 10_000_000, apr: 5, minimum_payment: 100_000, payments_history: inPlan ? history : [] });
          const other = anAccount({ status: closed ? 'closed' : 'active', payments_history: inPlan ? [] : history, balance: 1_000 });
          const outlook = outlookOf({
            plan: aPlan({ account_ids: [big.id], monthly_payment: 100_000 as Cents }),
            accounts: [big, other],
            today: TODAY,
          });
          expect(outlook.months.length).to.be.greaterThan(25);
          const fallsOff = 24 - position;
          for (const m of outlook.months) {
            // A closed account gets no codes, so its derogatory code never falls off.
            const counted = !inPlan && closed ? true : m.month < fallsOff;
            expect(m.factors.derogatory_marks.amount, `month ${m.month}`).to.equal(counted ? 1 : 0);
          }
          if (!closed || inPlan) {
            const change = outlook.milestones.filter((x) => x.factor === 'derogatory_marks');
            expect(change).to.deep.equal([
              { factor: 'derogatory_marks', from: 'Poor', to: 'Good', month: fallsOff, date: addMonths(TODAY, fallsOff) },
            ]);
          }
          expect(history.some(isDerogatory)).to.equal(true);
        }),
        PROPERTY_RUNS,
      );
    });

    it('milestones are exactly the classification changes between consecutive months', () => {
      fc.assert(
        fc.property(userAndPlanArb, (input) => {
          const { months, milestones } = outlookOf(input);
          const changes = months
            .slice(1)
            .flatMap((m, k) =>
              (Object.keys(m.factors) as Array<keyof CreditFactors>)
                .filter((f) => m.factors[f].factor !== months[k]!.factors[f].factor)
                .map((f) => `${m.month}:${f}`),
            );
          expect(milestones.map((x) => `${x.month}:${x.factor}`)).to.deep.equal(changes);
          expect(CreditOutlook.is({ as_of: TODAY, basis: 'linked_accounts', months, milestones })).to.equal(true);
        }),
        { numRuns: 60 },
      );
    });
  });

  describe('examples', () => {
    // A $5,000 card on an $8,000 limit (62.5%), $150 minimum at 24%, paid $500 a month; a $10,000 car loan outside the plan.
    const card = () =>
      anAccount({
        subtype: 'credit_card_loan',
        balance: 500_000,
        limit: 800_000,
        apr: 24,
        minimum_payment: 15_000,
        opened_at: '2020-06-15',
        payments_history: ['1', '1', '2'],
      });
    const car = () => anAccount({ subtype: 'auto_loan', balance: 1_000_000, apr: 6, minimum_payment: 30_000, opened_at: '2025-12-01' });

    it('follows the plan month by month and names the month utilization turns Good', () => {
      const c = card();
      const accounts = [c, car()];
      const outlook = outlookOf({ plan: aPlan({ account_ids: [c.id], monthly_payment: 50_000 as Cents }), accounts, today: TODAY });
      expect(outlook.as_of).to.equal(TODAY);
      expect(outlook.basis).to.equal('linked_accounts');
      expect(outlook.months[0]!.factors.credit_utilization).to.deep.equal({ amount: 62.5, factor: 'Poor' });
      // Month 1: 500,000 + 10,000 interest − 50,000 = 460,000 → 57.5%.
      expect(outlook.months[1]).to.include({ month: 1, date: '2026-07-15' });
      expect(outlook.months[1]!.factors.credit_utilization).to.deep.equal({ amount: 57.5, factor: 'Poor' });
      // Payment history: the card's ['1','1','2'] and the car's [] gain one on-time code each a month.
      expect(outlook.months[0]!.factors.payment_history.amount).to.equal(66.67);
      expect(outlook.months[1]!.factors.payment_history.amount).to.equal(80);
      const last = outlook.months[outlook.months.length - 1]!;
      expect(last.factors.credit_utilization).to.deep.equal({ amount: 0, factor: 'Good' });
      const good = outlook.milestones.find((m) => m.factor === 'credit_utilization');
      const firstGood = outlook.months.find((m) => m.factors.credit_utilization.factor === 'Good')!;
      expect(good).to.deep.equal({ factor: 'credit_utilization', from: 'Poor', to: 'Good', month: firstGood.month, date: firstGood.date });
      // The car loan was opened 2025-12-01: new credit turns from 1 to 0 in the month past 2026-12-01; Good either way.
      expect(outlook.months.find((m) => m.date > '2026-12-01')!.factors.new_credit.amount).to.equal(0);
    });

    it('starts at the first schedule date after today whatever the start date, and matches progress.forecast', () => {
      const c = card();
      const plan = aPlan({ account_ids: [c.id], start_date: '2025-01-31' as IsoDate });
      const outlook = outlookOf({ plan, accounts: [c], today: TODAY });
      expect(outlook.months[1]!.date).to.equal('2026-06-30');
      expect(outlook.months[2]!.date).to.equal('2026-07-31');
      const progress = planProgress({
        plan: { ...plan, schedule: [] },
        paidToDate: 0 as Cents,
        accounts: [{ id: c.id, balance: c.balance, apr: 24, minimumPayment: 15_000 as Cents }],
        today: TODAY,
      });
      expect(outlook.months.length - 1).to.equal(progress.forecast!.months);
      expect(outlook.months[outlook.months.length - 1]!.date).to.equal(progress.forecast!.payoff_date);
    });

    it("uses the accounts' current APRs and minimums, and keeps a closed plan account's balance in the plan but out of utilization", () => {
      const c = anAccount({ ...card(), user_apr: 12, user_minimum_payment: 40_000 });
      const closedCard = anAccount({
        subtype: 'credit_card_loan',
        status: 'closed',
        balance: 100_000,
        limit: 200_000,
        apr: 20,
        minimum_payment: 5_000,
      });
      const plan = aPlan({ account_ids: [c.id, closedCard.id], monthly_payment: 60_000 as Cents });
      const outlook = outlookOf({ plan, accounts: [c, closedCard], today: TODAY });
      const progress = planProgress({
        plan: { ...plan, schedule: [] },
        paidToDate: 0 as Cents,
        accounts: [
          { id: c.id, balance: c.balance, apr: 12, minimumPayment: 40_000 as Cents },
          { id: closedCard.id, balance: closedCard.balance, apr: 20, minimumPayment: 5_000 as Cents },
        ],
        today: TODAY,
      });
      expect(outlook.months.length - 1).to.equal(progress.forecast!.months);
      // Month 1 at 12%: 500,000 + 5,000 − 40,000 minimum − 15,000 − … : only the open card counts, on its own limit.
      expect(outlook.months[0]!.factors.credit_utilization.amount).to.equal(62.5);
      expect(outlook.months[1]!.factors.credit_utilization.amount).to.be.below(62.5);
    });

    it('is only today when the plan is paid off, and projects 600 months when the forecast does not pay off', () => {
      const paid = anAccount({ balance: 0, apr: 10, minimum_payment: 1_000 });
      expect(outlookOf({ plan: aPlan({ account_ids: [paid.id] }), accounts: [paid], today: TODAY }).months).to.have.length(1);

      const growing = anAccount({ balance: 1_000_000, apr: 24, minimum_payment: 10_000 }); // $100 < $200 of interest
      const outlook = outlookOf({
        plan: aPlan({ strategy: 'minimum_only', account_ids: [growing.id], monthly_payment: 10_000 as Cents }),
        accounts: [growing],
        today: TODAY,
      });
      expect(outlook.months).to.have.length(601);
      expect(outlook.months[600]!.date).to.equal(addMonths(TODAY, 600));
    });

    it('answers conflict when an owing plan account lost its APR, and when the budget no longer covers the minimums', () => {
      const noApr = anAccount({ balance: 100_000, minimum_payment: 5_000 });
      const lost = creditOutlook({ plan: aPlan({ account_ids: [noApr.id] }), accounts: [noApr], today: TODAY });
      expect(E.isLeft(lost) && lost.left._tag).to.equal('conflict');
      expect(E.isLeft(lost) && lost.left.message).to.contain(`account ${noApr.id} has no APR`);

      const raised = anAccount({ balance: 100_000, apr: 10, user_minimum_payment: 90_000 });
      const short = creditOutlook({
        plan: aPlan({ account_ids: [raised.id], monthly_payment: 50_000 as Cents }),
        accounts: [raised],
        today: TODAY,
      });
      expect(E.isLeft(short) && short.left._tag).to.equal('conflict');
      expect(E.isLeft(short) && short.left.message).to.contain('must cover the sum of minimum payments');
    });

    it('extendHistory puts the month first and keeps 24 codes', () => {
      expect(extendHistory(['9', '1'], true)).to.deep.equal(['1', '9', '1']);
      expect(extendHistory([], false)).to.deep.equal(['E']);
      const full = Array.from({ length: 24 }, (): PaymentCode => '2');
      const next = extendHistory(['9', ...full.slice(1)], true);
      expect(next).to.have.length(24);
      expect(next[0]).to.equal('1');
      expect(next[1]).to.equal('9');
    });

    it('creditMilestones lists changes by month, then in the order of the factor table (docs/api/reference.md)', () => {
      const good: FactorObject = { amount: 0, factor: 'Good' };
      const poor: FactorObject = { amount: 99, factor: 'Poor' };
      const f = (ph: FactorObject, cu: FactorObject): CreditFactors => ({
        payment_history: ph,
        credit_utilization: cu,
        derogatory_marks: good,
        credit_age: good,
        credit_mix: good,
        new_credit: good,
      });
      const months = [
        { month: 0, date: TODAY, factors: f(poor, poor) },
        { month: 1, date: '2026-07-15' as IsoDate, factors: f(good, good) },
        { month: 2, date: '2026-08-15' as IsoDate, factors: f(good, poor) },
      ];
      expect(creditMilestones(months)).to.deep.equal([
        { factor: 'payment_history', from: 'Poor', to: 'Good', month: 1, date: '2026-07-15' },
        { factor: 'credit_utilization', from: 'Poor', to: 'Good', month: 1, date: '2026-07-15' },
        { factor: 'credit_utilization', from: 'Good', to: 'Poor', month: 2, date: '2026-08-15' },
      ]);
    });
  });

  describe('compare: credit_utilization_good_month', () => {
    it('gives each strategy the first Good month of its own run, 0 when already Good, null when never', () => {
      // Two cards: A $3,000 of $4,000 at 29% (min $100), B $1,000 of $6,000 at 9% (min $30); limits $10,000, 40% today.
      const a = anAccount({ subtype: 'credit_card_loan', balance: 300_000, limit: 400_000, apr: 29, minimum_payment: 10_000 });
      const b = anAccount({ subtype: 'credit_card_loan', balance: 100_000, limit: 600_000, apr: 9, minimum_payment: 3_000 });
      const debts = [a, b].map((x) => ({
        id: x.id,
        balance: x.balance,
        apr: effectiveApr(x)!,
        minimumPayment: effectiveMinimumPayment(x)!,
      }));
      const result = comparePayoffStrategies({ monthlyPayment: 40_000 as Cents, debts, today: TODAY }, [a, b]);
      if (E.isLeft(result)) throw new Error(result.left.message);
      const byStrategy = Object.fromEntries(result.right.comparisons.map((c) => [c.strategy, c.credit_utilization_good_month]));
      // Each one's answer is the first month its own balances bring the total to ≤ 30% ($3,000 of $10,000).
      for (const strategy of ['avalanche', 'snowball', 'minimum_only'] as const) {
        let first: number | null = null;
        traceBalances({ strategy, monthlyPayment: 40_000 as Cents, debts, today: TODAY }, 600, (month, balances) => {
          if (first === null && balances[0]! + balances[1]! <= 300_000) first = month;
        });
        expect(byStrategy[strategy], strategy).to.equal(first);
        expect(first, strategy).to.be.a('number');
      }

      const low = anAccount({ subtype: 'credit_card_loan', balance: 10_000, limit: 100_000, apr: 20, minimum_payment: 2_000 });
      const already = comparePayoffStrategies(
        {
          monthlyPayment: 5_000 as Cents,
          debts: [{ id: low.id, balance: low.balance, apr: 20, minimumPayment: 2_000 as Cents }],
          today: TODAY,
        },
        [low],
      );
      expect(E.isRight(already) && already.right.comparisons.map((c) => c.credit_utilization_good_month)).to.deep.equal([0, 0, 0]);

      // An unplanned maxed card keeps utilization Poor whatever the plan does; minimum_only does not pay off (600 months).
      const maxed = anAccount({ subtype: 'credit_card_loan', balance: 500_000, limit: 500_000 });
      const loan = anAccount({ balance: 1_000_000, apr: 30, minimum_payment: 20_000 });
      const never = comparePayoffStrategies(
        {
          monthlyPayment: 60_000 as Cents,
          debts: [{ id: loan.id, balance: loan.balance, apr: 30, minimumPayment: 20_000 as Cents }],
          today: TODAY,
        },
        [maxed, loan],
      );
      if (E.isLeft(never)) throw new Error(never.left.message);
      expect(never.right.comparisons.map((c) => [c.strategy, c.credit_utilization_good_month, c.months])).to.deep.equal([
        ['avalanche', null, 22],
        ['snowball', null, 22],
        ['minimum_only', null, null],
      ]);
    });

    it('minimum_only that runs the whole 600 months without paying off: the Good month of those 600 months, watched in its one run', () => {
      // $100,000 on a $200,000 card at 24%: the minimum, $2,000.01, is a cent over the month's interest: it pays off
      // after 600 months (`too_long`), and the balance falls to 30% of the limit within them.
      const card = anAccount({ subtype: 'credit_card_loan', balance: 10_000_000, limit: 20_000_000, apr: 24, minimum_payment: 200_001 });
      const debts = [{ id: card.id, balance: card.balance, apr: 24, minimumPayment: 200_001 as Cents }];
      const result = comparePayoffStrategies({ monthlyPayment: 300_001 as Cents, debts, today: TODAY }, [card]);
      if (E.isLeft(result)) throw new Error(result.left.message);
      const minimumOnly = result.right.comparisons.find((c) => c.strategy === 'minimum_only')!;
      let first: number | null = null;
      const trace = traceBalances(
        { strategy: 'minimum_only', monthlyPayment: 300_001 as Cents, debts, today: TODAY },
        600,
        (month, balances) => {
          if (first === null && balances[0]! <= 6_000_000) first = month;
        },
      );
      expect(trace).to.deep.equal({ months: 600, paidOff: false });
      expect(minimumOnly.months).to.equal(null);
      expect(first).to.equal(575);
      expect(minimumOnly.credit_utilization_good_month).to.equal(first);
    });
  });
});
