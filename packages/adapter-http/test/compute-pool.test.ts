/**
 * The worker pool of docs/decisions/tenancy.md: what it computes equals core's in-thread
 * functions, and the event loop keeps turning while it computes.
 */
import { expect } from 'chai';
import { inThreadComputations, inThreadSandboxComputations, type Computations, type IsoDate, type PayoffPlanInput } from '@debtkit/core';
import { readFileSync, readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { createComputePool, computeThreads, processComputePool, type ComputePool } from '../src/compute/compute-pool.js';
import { COMPUTE_THREAD_NICENESS, currentThreadId } from '../src/compute/compute-priority.js';
import { compose } from '../src/main/composition.js';
import { HTTP, resolve } from '../src/main/container.js';
import { benchmarkInput } from '../bench/payoff-timing.js';
import { outlookBenchmarkInput } from '../bench/credit-outlook-timing.js';

/** Event-loop turns (setImmediate callbacks) that ran while `work` was pending. */
const turnsDuring = async <A>(work: () => Promise<A>): Promise<{ readonly result: A; readonly turns: number }> => {
  let turns = 0;
  let running = true;
  const spin = (): void => {
    if (!running) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  const result = await work();
  running = false;
  return { result, turns };
};

/** Heavy enough to take many event-loop turns anywhere: the 50-debt plan's budget cut so it runs to ~600 months, four times. */
const heavyWork = (c: Computations, input: PayoffPlanInput) => () => Promise.all([1, 2, 3, 4].map(() => c.planPayoff(input)));

describe('compute pool (docs/decisions/tenancy.md)', function () {
  this.timeout(30_000);
  let pool: ComputePool;
  before(() => {
    pool = createComputePool({ threads: 1 });
  });
  after(() => pool.close());

  it("is what the composition hands core's use cases (one pool per process, however many apps)", async () => {
    const first = await compose();
    const second = await compose();
    expect(resolve(first.container, HTTP.Computations)).to.equal(processComputePool());
    expect(resolve(second.container, HTTP.Computations)).to.equal(processComputePool());
    // A sandbox advance's months too (core's sandbox-computations.ts).
    expect(resolve(first.container, HTTP.SandboxComputations)).to.equal(processComputePool());
    await Promise.all([first.close(), second.close()]);
  });

  it('sizes itself to the cores beyond the event loop, at least one and at most four', () => {
    expect([1, 2, 3, 8, 64].map((n) => computeThreads(n))).to.deep.equal([1, 1, 2, 4, 4]);
  });

  it('answers exactly what the in-thread functions answer: a plan, a comparison, an outlook, and an error', async () => {
    const plan = benchmarkInput();
    const { strategy: _s, ...budget } = plan;
    const outlook = outlookBenchmarkInput();
    expect(await pool.planPayoff(plan)).to.deep.equal(await inThreadComputations.planPayoff(plan));
    expect(await pool.comparePayoffStrategies(budget, outlook.accounts)).to.deep.equal(
      await inThreadComputations.comparePayoffStrategies(budget, outlook.accounts),
    );
    expect(await pool.creditOutlook(outlook)).to.deep.equal(await inThreadComputations.creditOutlook(outlook));
    const tooSmall = { ...plan, monthlyPayment: 1 as PayoffPlanInput['monthlyPayment'] };
    const refused = await pool.planPayoff(tooSmall);
    expect(refused).to.deep.equal(await inThreadComputations.planPayoff(tooSmall));
    expect(refused._tag).to.equal('Left');
  });

  it("answers a sandbox advance's month exactly as in-thread: every loan's month and its view after it", async () => {
    const { accounts } = outlookBenchmarkInput();
    const loans = accounts.map((a) => ({ ...a, type: 'loan' as const }));
    const input = { accounts: loans, date: '2026-04-15' as IsoDate, from: '2026-03-15' as IsoDate, payments: 'minimum' as const };
    const inThread = await inThreadSandboxComputations.sandboxMonth(input);
    expect(await pool.sandboxMonth(input)).to.deep.equal(inThread);
    if (inThread._tag !== 'Right') throw new Error('expected a month');
    expect(inThread.right.months).to.have.length(loans.length);
    expect(inThread.right.views.map((v) => v.id)).to.deep.equal(inThread.right.months.map((m) => m.accountId));
    expect(inThread.right.views.map((v) => v.balance)).to.deep.equal(inThread.right.months.map((m) => m.patch.balance));
  });

  it('runs its threads below the event loop: each worker thread is COMPUTE_THREAD_NICENESS nicer than the process (Linux)', async function () {
    // Where threads have no ids of their own (not Linux), the pool keeps the process's priority: nothing to check.
    if (process.platform !== 'linux') this.skip();
    expect(currentThreadId(), 'the main thread is named in /proc/thread-self').to.equal(process.pid);
    await pool.planPayoff(benchmarkInput());
    const niceness = (tid: string): number => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after "(comm)": state is field 3, nice field 19.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const base = getPriority(process.pid);
    const threads = readdirSync('/proc/self/task').map(niceness);
    expect(niceness(String(process.pid))).to.equal(base);
    // This pool's threads, and those of any other pool this process started (the process's shared one).
    expect(threads.filter((n) => n === Math.min(19, base + COMPUTE_THREAD_NICENESS)).length).to.be.at.least(pool.threads);
  });

  it('keeps the event loop turning while it computes (in-thread, the same work blocks it)', async () => {
    const input = benchmarkInput();
    await pool.planPayoff(input); // the worker started and warmed
    const inThread = await turnsDuring(heavyWork(inThreadComputations, input));
    const offloaded = await turnsDuring(heavyWork(pool, input));
    expect(offloaded.result).to.deep.equal(inThread.result);
    expect(inThread.turns).to.equal(0);
    expect(offloaded.turns).to.be.greaterThan(10);
  });
});
