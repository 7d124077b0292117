/**
 * The memo of the pure computations' answers (compute/computation-memo.ts):
 * the same input is answered the same frozen answer, computed once; any
 * change to the input computes again; failures are not kept; it is bounded.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { inThreadComputations, type Computations, type CreditOutlookInput, type IsoDate } from '@debtkit/core';
import { COMPUTATION_MEMO_ENTRIES, memoizeComputations } from '../src/compute/computation-memo.js';
import { keptRevision } from '../src/http/kept-revisions.js';
import { createRenderCache, MIB } from '../src/http/render-cache.js';
import { outlookBenchmarkInput } from '../bench/credit-outlook-timing.js';
import { benchmarkInput } from '../bench/payoff-timing.js';

/** core's in-thread computations, counting the outlooks they compute; `fail` makes the next one reject. */
const counting = () => {
  const state = { outlooks: 0, compares: 0, fail: false };
  const computations: Computations = {
    ...inThreadComputations,
    creditOutlook: (input) => {
      state.outlooks += 1;
      if (state.fail) {
        state.fail = false;
        return Promise.reject(new Error('the worker died'));
      }
      return inThreadComputations.creditOutlook(input);
    },
    comparePayoffStrategies: (input, accounts) => {
      state.compares += 1;
      return inThreadComputations.comparePayoffStrategies(input, accounts);
    },
  };
  return { state, computations };
};

const withBalance = (input: CreditOutlookInput, balance: number): CreditOutlookInput => ({
  ...input,
  accounts: input.accounts.map((a, i) => (i === 0 ? { ...a, balance: balance as typeof a.balance } : a)),
});

const rightOf = <A>(result: E.Either<unknown, A>): A => {
  if (E.isLeft(result)) throw new Error(`expected Right, got ${JSON.stringify(result.left)}`);
  return result.right;
};

describe('computation memo (compute/computation-memo.ts)', () => {
  const input = outlookBenchmarkInput();

  it('answers the same input with the same frozen answer, computed once, equal to the in-thread one', async () => {
    const { state, computations } = counting();
    const memo = memoizeComputations(computations);
    const first = rightOf(await memo.creditOutlook(input));
    const second = rightOf(await memo.creditOutlook({ ...input, accounts: [...input.accounts] }));
    expect(second).to.equal(first);
    expect(state.outlooks).to.equal(1);
    expect(first).to.deep.equal(rightOf(await inThreadComputations.creditOutlook(input)));
    expect(Object.isFrozen(first) && Object.isFrozen(first.months) && Object.isFrozen(first.months[0]?.factors)).to.equal(true);
    expect(keptRevision(first)).to.be.a('string');
    expect(
      keptRevision(rightOf(await inThreadComputations.creditOutlook(input))),
      'an answer the memo did not make has no revision',
    ).to.equal(undefined);
  });

  it('concurrent requests with one input share one computation', async () => {
    const { state, computations } = counting();
    const memo = memoizeComputations(computations);
    const answers = await Promise.all([1, 2, 3, 4].map(() => memo.creditOutlook(input)));
    expect(state.outlooks).to.equal(1);
    expect(new Set(answers.map(rightOf)).size).to.equal(1);
  });

  it('any change to the input computes again: a balance, the day, the budget of a comparison', async () => {
    const { state, computations } = counting();
    const memo = memoizeComputations(computations);
    const before = rightOf(await memo.creditOutlook(input));
    const paidDown = rightOf(await memo.creditOutlook(withBalance(input, 0)));
    const tomorrow = rightOf(await memo.creditOutlook({ ...input, today: '2030-01-02' as IsoDate }));
    expect(state.outlooks).to.equal(3);
    expect(paidDown).to.not.deep.equal(before);
    expect(tomorrow.as_of).to.equal('2030-01-02');
    expect(new Set([before, paidDown, tomorrow].map(keptRevision)).size).to.equal(3);

    const { strategy: _strategy, ...budget } = benchmarkInput();
    await memo.comparePayoffStrategies(budget, input.accounts);
    await memo.comparePayoffStrategies({ ...budget }, input.accounts);
    await memo.comparePayoffStrategies(
      { ...budget, monthlyPayment: (budget.monthlyPayment + 100) as typeof budget.monthlyPayment },
      input.accounts,
    );
    expect(state.compares).to.equal(2);
  });

  it('a failed computation is not kept: the next request computes again', async () => {
    const { state, computations } = counting();
    const memo = memoizeComputations(computations);
    state.fail = true;
    let failed = false;
    await memo.creditOutlook(input).catch(() => (failed = true));
    expect(failed).to.equal(true);
    rightOf(await memo.creditOutlook(input));
    expect(state.outlooks).to.equal(2);
  });

  it(`is bounded: ${COMPUTATION_MEMO_ENTRIES} answers by default, least recently used out first`, async () => {
    const { state, computations } = counting();
    const memo = memoizeComputations(computations, 2);
    const inputs = [1, 2, 3].map((n) => withBalance(input, n * 1_000));
    for (const i of inputs) await memo.creditOutlook(i);
    await memo.creditOutlook(inputs[2]!);
    await memo.creditOutlook(inputs[1]!);
    expect(state.outlooks, 'the two most recent are kept').to.equal(3);
    await memo.creditOutlook(inputs[0]!);
    expect(state.outlooks, 'the first was let go').to.equal(4);
  });

  it("the render cache keeps a kept answer's bytes by its revision, and renders any other outlook every time", async () => {
    const memo = memoizeComputations(inThreadComputations);
    const cache = createRenderCache({ maxBytes: 16 * MIB });
    const outlook = rightOf(await memo.creditOutlook(input));
    const first = cache.render('credit_outlook', outlook, '2026-11-26');
    expect('key' in first && first.key).to.be.a('string');
    const again = cache.render('credit_outlook', rightOf(await memo.creditOutlook(input)), '2026-11-26');
    expect('data' in again && 'data' in first && again.data).to.equal('data' in first && first.data);
    expect(JSON.parse('data' in first ? first.data.toString('utf8') : '')).to.deep.equal(outlook);
    const unkept = cache.render('credit_outlook', rightOf(await inThreadComputations.creditOutlook(input)), '2026-11-26');
    expect('key' in unkept).to.equal(false);
  });
});
