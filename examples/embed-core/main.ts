/**
 * # Embedding the core
 *
 * `@debtkit/core` is plain TypeScript on fp-ts and io-ts: no HTTP server, no
 * database, no clock of its own. Any Node program can use the domain directly:
 *
 * 1. credit factors: rate an amount against the spec's thresholds (`classify`)
 *    and build the factor object clients see (`factorObject`);
 * 2. payment history: read a 24-month history of status codes
 *    (`onTimePercentage`, `isDerogatory`, `hasDerogatory`);
 * 3. the bureau authentication flow: a pure state machine (`transition`,
 *    `awaitedStep`, `flowStatus`); an illegal move is a `Left`, never a throw;
 * 4. payoff planning: an avalanche plan month by month in integer cents
 *    (`planPayoff`), with input decoded by core's own codecs;
 * 5. strategy comparison: avalanche vs snowball vs paying only the minimums on
 *    the same debts and budget, with what each saves (`comparePayoffStrategies`).
 *
 * Run it: `npm run build && node examples/dist/embed-core/main.js`.
 * `main()` also returns the values it prints; the test suite asserts them
 * (examples/test/embed-core.test.ts), so this file cannot drift from the core.
 */
import { fileURLToPath } from 'node:url';
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  AccountId,
  Apr,
  BureauEvent,
  BureauFlowState,
  BureauFlowStatus,
  BureauStep,
  Cents,
  DomainError,
  FactorObject,
  FactorRating,
  INITIAL_STATE,
  IsoDate,
  PaymentCode,
  PayoffPlanResult,
  Strategy,
  comparePayoffStrategies,
  awaitedStep,
  classify,
  decode,
  factorObject,
  flowStatus,
  hasDerogatory,
  isDerogatory,
  onTimePercentage,
  planPayoff,
  transition,
} from '@debtkit/core';

/** Core never reads the clock: "today" is an argument. A real program passes `utcDate(new Date())`. */
export const TODAY = '2026-01-15' as IsoDate;

export interface BureauTrace {
  readonly event: BureauEvent['_tag'];
  readonly status: BureauFlowStatus;
  readonly awaiting: BureauStep | null;
}

export interface PlanSummary {
  readonly months: number;
  readonly payoffDate: IsoDate;
  readonly totalInterest: Cents;
  readonly order: ReadonlyArray<number>;
}

export interface StrategySummary {
  readonly strategy: Strategy;
  readonly months: number | null;
  readonly totalInterest: number | null;
  readonly interestSaved: number | null;
}

export interface EmbedCoreResult {
  readonly ratings: Readonly<Record<string, FactorRating>>;
  readonly creditAge: FactorObject;
  readonly onTime: number | null;
  readonly derogatoryMonths: number;
  readonly anyDerogatory: boolean;
  readonly bureau: ReadonlyArray<BureauTrace>;
  /** The error an out-of-order step gets: a value, with the API's stable code. */
  readonly outOfOrder: DomainError | null;
  readonly plan: PlanSummary;
  readonly comparison: { readonly strategies: ReadonlyArray<StrategySummary>; readonly recommended: Strategy };
}

/** A debt as another system might send it: dollars and percent, not yet trusted. */
// The ids are the accounts' own: decoded with `AccountId`, they have the kind a plan's debts take.
const DebtInput = t.type({ id: AccountId, balance: Cents, apr: Apr, minimumPayment: Cents }, 'DebtInput');

const dollars = (cents: number): string => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

const ratingsOf = (): Record<string, FactorRating> => ({
  // docs/api/reference.md: payment history is Good at 90% or more, utilization at 30% or less…
  'payment_history 89.995': classify('payment_history', 89.995), // rounds to 90.00 first: Good
  'credit_utilization 30.005': classify('credit_utilization', 30.005), // rounds to 30.01: Poor
  'derogatory_marks 0': classify('derogatory_marks', 0),
  'credit_mix 2': classify('credit_mix', 2), // needs more than 2 kinds of loan
});

/** Every event in turn from the initial state; stops at the first illegal one. */
const runFlow = (events: ReadonlyArray<BureauEvent>): { trace: BureauTrace[]; state: BureauFlowState } => {
  const trace: BureauTrace[] = [];
  let state = INITIAL_STATE;
  for (const event of events) {
    const next = transition(state, event);
    if (E.isLeft(next)) break;
    state = next.right;
    trace.push({ event: event._tag, status: flowStatus(state), awaiting: awaitedStep(state) });
  }
  return { trace, state };
};

export const main = (log: (line: string) => void = console.log): EmbedCoreResult => {
  // 1. Credit factors
  const ratings = ratingsOf();
  for (const [input, rating] of Object.entries(ratings)) log(`classify ${input} → ${rating}`);
  const creditAge = factorObject('credit_age', 5.004);
  log(`factorObject('credit_age', 5.004) → ${JSON.stringify(creditAge)}`);

  // 2. Payment history, most recent month first
  const history: PaymentCode[] = ['1', '1', '2', 'E', '1', '*', '1', '1', '6', '1', '0', '1'];
  const onTime = onTimePercentage(history);
  const derogatoryMonths = history.filter(isDerogatory).length;
  const anyDerogatory = hasDerogatory(history);
  log(`history ${history.join(' ')}: ${onTime?.toFixed(2)}% on time, ${derogatoryMonths} derogatory month(s)`);

  // 3. Bureau flow: one wrong one-time password, then through to authenticated
  const { trace, state } = runFlow([
    { _tag: 'invoke' },
    { _tag: 'consent' },
    { _tag: 'otp_failure' },
    { _tag: 'validate_otp' },
    { _tag: 'identity' },
    { _tag: 'invoke' }, // consent is on file now: the next flow skips it
  ]);
  for (const step of trace) log(`bureau ${step.event.padEnd(12)} → ${step.status}, awaiting ${step.awaiting ?? 'nothing'}`);
  const outOfOrder = pipe(
    transition(state, { _tag: 'identity' }),
    E.match(
      (error) => error,
      () => null,
    ),
  );
  if (outOfOrder !== null) log(`bureau identity now → ${outOfOrder._tag}: ${outOfOrder.message}`);

  // 4. An avalanche plan over three debts, input decoded like any outside data
  const debts = decode(
    t.array(DebtInput),
    'debts',
  )([
    { id: 1, balance: 345_012, apr: 24.99, minimumPayment: 10_500 },
    { id: 2, balance: 127_540, apr: 19.49, minimumPayment: 4_000 },
    { id: 3, balance: 480_000, apr: 11.25, minimumPayment: 21_000 },
  ]);
  const planned: E.Either<DomainError, PayoffPlanResult> = pipe(
    debts,
    E.chain((ds) => planPayoff({ strategy: 'avalanche', monthlyPayment: 60_000 as Cents, debts: ds, today: TODAY })),
  );
  if (E.isLeft(planned)) throw new Error(`the example plan should be valid: ${planned.left.message}`);
  const { months, payoff_date: payoffDate, total_interest: totalInterest, order, schedule } = planned.right;
  log(
    `avalanche, $600.00/month: order ${order.join(', ')}; paid off ${payoffDate} after ${months} months; interest ${dollars(totalInterest)}`,
  );
  const first = schedule[0];
  if (first !== undefined) {
    for (const p of first.payments)
      log(`  month 1, account ${p.account_id}: pay ${dollars(p.payment)} (interest ${dollars(p.interest)}), balance ${dollars(p.balance)}`);
  }

  // 5. The same debts and budget under every strategy: nothing is stored, one month loop per strategy
  const compared = pipe(
    debts,
    E.chain((ds) => comparePayoffStrategies({ monthlyPayment: 60_000 as Cents, debts: ds, today: TODAY })),
  );
  if (E.isLeft(compared)) throw new Error(`the example comparison should be valid: ${compared.left.message}`);
  const strategies = compared.right.comparisons.map((c) => ({
    strategy: c.strategy,
    months: c.months,
    totalInterest: c.total_interest,
    interestSaved: c.interest_saved,
  }));
  for (const c of strategies) {
    const cost =
      c.totalInterest === null ? 'does not pay off within 600 months' : `${c.months} months, interest ${dollars(c.totalInterest)}`;
    const saved = c.interestSaved === null ? '' : `, saves ${dollars(c.interestSaved)} against minimums only`;
    log(`compare ${c.strategy.padEnd(12)}: ${cost}${saved}`);
  }
  log(`recommended: ${compared.right.recommended}`);

  return {
    ratings,
    creditAge,
    onTime,
    derogatoryMonths,
    anyDerogatory,
    bureau: trace,
    outOfOrder,
    plan: { months, payoffDate, totalInterest, order },
    comparison: { strategies, recommended: compared.right.recommended },
  };
};

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
