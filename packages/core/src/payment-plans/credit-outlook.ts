/**
 * Credit outlook of a payoff plan (docs/decisions/payoff-and-outlook.md): how following the plan moves
 * the user's six credit factors (docs/api/reference.md), month by month, with the formulas
 * of the sandbox report (docs/decisions/payoff-and-outlook.md). Pure and deterministic: the caller
 * passes the accounts and today.
 *
 * The projection is incremental rather than a `deriveCreditReport` per month
 * (a 50-debt plan over 360 months would rebuild 18,000 accounts and scan
 * 430,000 history codes): each account's history is reduced once to prefix
 * counts, because a month only ever adds an on-time code at the front and
 * drops the oldest at the end. The tests check it month by month against
 * `deriveCreditReport` on the accounts the projection describes.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { currentDebtOf, type AccountRecord } from '../accounts/account.js';
import { FACTOR_NAMES, FACTOR_RULES, FactorName, classify, factorObject } from '../credit-scores/credit-factors.js';
import { FactorObject, FactorRating } from '../credit-scores/credit-score.js';
import { conflict, type Conflict } from '../shared/errors.js';
import { MAX_PAYMENTS_HISTORY_LENGTH, isDerogatory, isOnTime, isRated, type PaymentCode } from '../accounts/payment-history.js';
import { MAX_PAYOFF_MONTHS, traceBalances, type PayoffPlanInput } from './payoff-plan.js';
import { forecastBasis, type ForecastPlan } from './payoff-progress.js';
import { IsoDate, addMonths, daysBetween, type Id } from '../shared/primitives.js';

/** The six factor objects of docs/api/reference.md, without a score (the score model belongs to the bureau). */
export const CreditFactors = t.type(
  {
    payment_history: FactorObject,
    credit_utilization: FactorObject,
    derogatory_marks: FactorObject,
    credit_age: FactorObject,
    credit_mix: FactorObject,
    new_credit: FactorObject,
  },
  'CreditFactors',
);
export type CreditFactors = t.TypeOf<typeof CreditFactors>;

/** One entry of the outlook: month 0 is today; month m ≥ 1 is the forecast's month m, after its payments. */
export const CreditOutlookMonth = t.type({ month: t.number, date: IsoDate, factors: CreditFactors }, 'CreditOutlookMonth');
export type CreditOutlookMonth = t.TypeOf<typeof CreditOutlookMonth>;

/** A factor whose classification changed from the previous entry to this month's. */
export const CreditOutlookMilestone = t.type(
  { factor: FactorName, from: FactorRating, to: FactorRating, month: t.number, date: IsoDate },
  'CreditOutlookMilestone',
);
export type CreditOutlookMilestone = t.TypeOf<typeof CreditOutlookMilestone>;

/** What the outlook is computed from: the user's linked accounts, assuming on-time payments. */
export const CreditOutlookBasis = t.literal('linked_accounts');

/** The API's answer to `GET …/payment_plans/{payment_plan_id}/credit_outlook` (docs/decisions/payoff-and-outlook.md). */
export const CreditOutlook = t.type(
  {
    as_of: IsoDate,
    basis: CreditOutlookBasis,
    months: t.array(CreditOutlookMonth),
    milestones: t.array(CreditOutlookMilestone),
  },
  'CreditOutlook',
);
export type CreditOutlook = t.TypeOf<typeof CreditOutlook>;

/**
 * An account's `payments_history` one projected month later (docs/decisions/payoff-and-outlook.md): the
 * month's code at the front (most recent first, as stored), `1` when the
 * account had a balance at the month's start, `E` when not; at most 24 codes
 * are kept, so the oldest falls off the end.
 * @example extendHistory(['9', '1'], true) // ['1', '9', '1']
 */
export const extendHistory = (history: ReadonlyArray<PaymentCode>, hadBalance: boolean): PaymentCode[] =>
  [hadBalance ? '1' : 'E', ...history].slice(0, MAX_PAYMENTS_HISTORY_LENGTH) as PaymentCode[];

/** Whether the projection adds a code to an account's history each month: every non-closed `loan` account. */
export const getsMonthlyCode = (account: Pick<AccountRecord, 'type' | 'status'>): boolean =>
  account.type === 'loan' && account.status !== 'closed';

const DAYS_PER_YEAR = 365.25;
const NEW_CREDIT_WINDOW_DAYS = 365;
const EPOCH = '1970-01-01' as IsoDate;

/** A history that rolls: prefix counts over its codes as stored (most recent first). */
interface RollingHistory {
  readonly length: number;
  /** `rated[k]`: rated codes among the first k. */
  readonly rated: Int32Array;
  readonly onTime: Int32Array;
  /** Index of the most recent derogatory code, or Infinity. */
  readonly firstDerogatory: number;
}

const rollingHistory = (history: ReadonlyArray<PaymentCode>): RollingHistory => {
  const rated = new Int32Array(history.length + 1);
  const onTime = new Int32Array(history.length + 1);
  let firstDerogatory = Number.POSITIVE_INFINITY;
  history.forEach((code, k) => {
    rated[k + 1] = rated[k]! + (isRated(code) ? 1 : 0);
    onTime[k + 1] = onTime[k]! + (isOnTime(code) ? 1 : 0);
    if (firstDerogatory === Number.POSITIVE_INFINITY && isDerogatory(code)) firstDerogatory = k;
  });
  return { length: history.length, rated, onTime, firstDerogatory };
};

/**
 * `factorObject` for one factor, remembering the last raw amount: most factors
 * stay put for months (a paid-off plan's utilization, a history after 24
 * months), and the exact rounding is the costly part of a month.
 */
const lastFactorObject = (name: FactorName): ((raw: number) => FactorObject) => {
  let lastRaw = Number.NaN;
  let last: FactorObject = factorObject(name, 0);
  return (raw) => {
    if (raw !== lastRaw) {
      lastRaw = raw;
      last = factorObject(name, raw);
    }
    return last;
  };
};

/**
 * The six factors of the user's accounts as the projection sees them in any
 * month, given the plan debts' balances that month. Everything that does not
 * change month to month is summed once here.
 */
interface FactorProjector {
  /** Raw credit utilization (before rounding) with the plan debts at `balances` (null: as now). */
  utilization(balances: Float64Array | null): number;
  /** The factors of month `month` (0 = today, as stored), dated `date`. */
  factors(month: number, date: IsoDate, balances: Float64Array | null): CreditFactors;
}

/**
 * @param accounts every account of the user, as now
 * @param debtIds the plan's debts, in the order of the balances the projector is given
 */
const factorProjector = (accounts: ReadonlyArray<AccountRecord>, debtIds: ReadonlyArray<Id>): FactorProjector => {
  const debtIndex = new Map(debtIds.map((id, i) => [id as number, i]));

  // credit_utilization: every non-closed card with a positive limit, in the plan or not.
  let totalLimit = 0;
  let fixedCardBalance = 0;
  const planCards: number[] = [];
  for (const a of accounts) {
    if (a.status === 'closed' || a.subtype !== 'credit_card_loan' || a.limit === null || a.limit <= 0) continue;
    totalLimit += a.limit;
    const i = debtIndex.get(a.id);
    if (i === undefined) fixedCardBalance += a.balance;
    else planCards.push(i);
  }
  const nowCardBalance = accounts.reduce(
    (sum, a) => (a.status !== 'closed' && a.subtype === 'credit_card_loan' && a.limit !== null && a.limit > 0 ? sum + a.balance : sum),
    0,
  );
  const utilization = (balances: Float64Array | null): number => {
    let balance = nowCardBalance;
    if (balances !== null) {
      balance = fixedCardBalance;
      for (const i of planCards) balance += balances[i]!;
    }
    return totalLimit === 0 ? 0 : Math.min(100, (100 * balance) / totalLimit);
  };

  // payment_history and derogatory_marks: fixed histories summed once; rolling ones by prefix counts.
  let fixedRated = 0;
  let fixedOnTime = 0;
  let fixedDerogatory = 0;
  const rolling: RollingHistory[] = [];
  for (const a of accounts) {
    if (getsMonthlyCode(a)) {
      rolling.push(rollingHistory(a.payments_history));
      continue;
    }
    const h = rollingHistory(a.payments_history);
    fixedRated += h.rated[h.length]!;
    fixedOnTime += h.onTime[h.length]!;
    if (h.firstDerogatory !== Number.POSITIVE_INFINITY) fixedDerogatory++;
  }

  // credit_age and new_credit: opening dates as day numbers, compared with each month's date.
  const openedDays = accounts.flatMap((a) => (a.opened_at === null ? [] : [daysBetween(EPOCH, a.opened_at)]));
  const loanSubtypes = new Set(accounts.filter((a) => a.type === 'loan').map((a) => a.subtype)).size;
  const creditMix = factorObject('credit_mix', Math.min(FACTOR_RULES.credit_mix.max, loanSubtypes));
  const paymentHistory = lastFactorObject('payment_history');
  const creditUtilization = lastFactorObject('credit_utilization');
  const derogatoryMarks = lastFactorObject('derogatory_marks');
  const creditAge = lastFactorObject('credit_age');
  const newCredit = lastFactorObject('new_credit');

  return {
    utilization,
    factors(month, date, balances) {
      // Month m has added m codes (at most 24 kept) and kept the most recent 24 − m stored ones.
      const added = Math.min(month, MAX_PAYMENTS_HISTORY_LENGTH);
      const keepLimit = month === 0 ? Number.POSITIVE_INFINITY : Math.max(0, MAX_PAYMENTS_HISTORY_LENGTH - month);
      let rated = fixedRated;
      let onTime = fixedOnTime;
      let derogatory = fixedDerogatory;
      for (const h of rolling) {
        const kept = Math.min(h.length, keepLimit);
        rated += added + h.rated[kept]!;
        onTime += added + h.onTime[kept]!;
        if (h.firstDerogatory < kept) derogatory++;
      }

      const today = daysBetween(EPOCH, date);
      let ageSum = 0;
      let newAccounts = 0;
      for (const opened of openedDays) {
        // An opening after the date counts as opened that day (as in the sandbox report).
        const age = Math.max(0, today - opened);
        ageSum += age;
        if (age < NEW_CREDIT_WINDOW_DAYS) newAccounts++;
      }
      const meanAgeYears = openedDays.length === 0 ? 0 : ageSum / openedDays.length / DAYS_PER_YEAR;

      return {
        payment_history: paymentHistory(rated === 0 ? 100 : (100 * onTime) / rated),
        credit_utilization: creditUtilization(utilization(balances)),
        derogatory_marks: derogatoryMarks(Math.min(FACTOR_RULES.derogatory_marks.max, derogatory)),
        credit_age: creditAge(Math.min(FACTOR_RULES.credit_age.max, meanAgeYears)),
        credit_mix: creditMix,
        new_credit: newCredit(Math.min(FACTOR_RULES.new_credit.max, newAccounts)),
      };
    },
  };
};

/**
 * Every change of a factor's classification between consecutive entries, by
 * month, then in the order of the factor table (docs/api/reference.md).
 * @example creditMilestones(outlook.months) // [{ factor: 'credit_utilization', from: 'Poor', to: 'Good', month: 7, date: '2027-01-15' }]
 */
export const creditMilestones = (months: ReadonlyArray<CreditOutlookMonth>): CreditOutlookMilestone[] => {
  const milestones: CreditOutlookMilestone[] = [];
  for (let k = 1; k < months.length; k++) {
    const before = months[k - 1]!;
    const after = months[k]!;
    for (const factor of FACTOR_NAMES) {
      const from = before.factors[factor].factor;
      const to = after.factors[factor].factor;
      if (from !== to) milestones.push({ factor, from, to, month: after.month, date: after.date });
    }
  }
  return milestones;
};

/** What the outlook of a stored plan is computed from. */
export interface CreditOutlookInput {
  /** The plan as stored: its strategy, budget, accounts, custom order, extra payments and start date. */
  readonly plan: ForecastPlan;
  /** Every account of the user as it is now, in the plan or not. */
  readonly accounts: ReadonlyArray<AccountRecord>;
  readonly today: IsoDate;
}

/**
 * The credit outlook of a plan (docs/decisions/payoff-and-outlook.md): today's factors, then the
 * factors after each month of the plan's re-forecast from the current
 * balances (exactly `progress.forecast`'s: month 1 is the first schedule date
 * after today, with the accounts' current APRs and minimums), up to payoff,
 * or over 600 months when the forecast does not pay off. Payments are assumed
 * on time; nothing is assumed closed. Factor amounts are rounded and
 * classified exactly as in the sandbox report, so `months[0].factors` are the
 * report's for today.
 *
 * Left(conflict) when the plan can no longer be forecast (an owing account
 * lost its APR or minimum, or the budget no longer covers the minimums): the
 * same cases in which `progress.forecast` is null for want of input.
 * @example
 * creditOutlook({ plan, accounts, today: '2026-06-15' })
 * // Right({ as_of: '2026-06-15', basis: 'linked_accounts',
 * //   months: [{ month: 0, date: '2026-06-15', factors: { credit_utilization: { amount: 62.5, factor: 'Poor' }, … } }, …],
 * //   milestones: [{ factor: 'credit_utilization', from: 'Poor', to: 'Good', month: 7, date: '2027-01-15' }] })
 */
export const creditOutlook = (input: CreditOutlookInput): E.Either<Conflict, CreditOutlook> => {
  const { plan, accounts, today } = input;
  const current = accounts.map((a) => currentDebtOf(a, today));
  const basis = forecastBasis(plan, current, today);
  if (basis._tag === 'unforecastable')
    return E.left(
      conflict(`The plan can no longer be forecast from its accounts as they are now: ${basis.problems.map((p) => p.message).join('; ')}`),
    );

  const debtIds = basis._tag === 'runnable' ? basis.input.debts.map((d) => d.id) : [];
  const projector = factorProjector(accounts, debtIds);
  const months: CreditOutlookMonth[] = [{ month: 0, date: today, factors: projector.factors(0, today, null) }];
  if (basis._tag === 'runnable') {
    traceBalances(basis.input, MAX_PAYOFF_MONTHS, (month, balances) => {
      // Dated from the plan's start, as the schedule and progress.forecast are (day clamping).
      const date = addMonths(plan.start_date, basis.offset + month);
      months.push({ month, date, factors: projector.factors(month, date, balances) });
    });
  }
  return E.right({ as_of: today, basis: 'linked_accounts', months, milestones: creditMilestones(months) });
};

/**
 * The first month of a payoff run whose projected credit utilization is
 * `Good` (docs/decisions/payoff-and-outlook.md, for `compare`): 0 when it already is, null when no
 * month of the run gets there. The plan debts take their projected balances;
 * every other card of the user keeps its own.
 */
export interface UtilizationWatch {
  /** Observe a month's balances (a `MonthObserver` of the run). */
  readonly observe: (month: number, balances: Float64Array) => void;
  /** The first Good month so far (0: already today), or null. */
  readonly goodMonth: () => number | null;
}

/**
 * Watch a payoff run's balances for the month credit utilization turns Good.
 * @param accounts every account of the user, as now
 * @param input the run (its debts' ids say which balances are which accounts)
 * @example
 * const watch = utilizationWatch(accounts, input);
 * projectPayoff(input, 600, watch.observe);
 * watch.goodMonth() // 7
 */
export const utilizationWatch = (accounts: ReadonlyArray<AccountRecord>, input: Pick<PayoffPlanInput, 'debts'>): UtilizationWatch => {
  const projector = factorProjector(
    accounts,
    input.debts.map((d) => d.id),
  );
  const initial = new Float64Array(input.debts.map((d) => d.balance));
  let good: number | null = classify('credit_utilization', projector.utilization(initial)) === 'Good' ? 0 : null;
  return {
    observe: (month, balances) => {
      if (good === null && classify('credit_utilization', projector.utilization(balances)) === 'Good') good = month;
    },
    goodMonth: () => good,
  };
};
