/**
 * A sandbox advance gives the rest of the process turns (docs/decisions/tenancy.md, a
 * fair share; issue 42): on the memory store nothing waits on I/O, so without
 * them an advance ran each month's hundreds of writes as one stretch and another
 * client's request waited for it (measured in `bench:isolation` with
 * BENCH_HEAVY_KIND=advance). Core awaits `yieldToOthers` before each month and
 * every 10 accounts within one; the answer is the same with or without it.
 *
 * And it takes the user's turn (docs/decisions/transactions.md, hot records):
 * concurrent advances of one user run their months one after the other, so
 * each month is computed once (`sandboxComputations`, counted here) and
 * written once. Without the turn, every request computed and wrote each month
 * and all but one then lost it as a write conflict (measured: 32 concurrent
 * advances spent 8 s of the server's CPU in the month's projection in 10 s).
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  createApplication,
  inThreadSandboxComputations,
  type AccountRecord,
  type Cents,
  type DomainError,
  type SandboxComputations,
} from '@debtkit/core';
import { aClient, aUser, anAccount, interleavingStore, sequentialSecrets } from '@debtkit/core/testing';
import { SandboxCreditBureau, createMemoryStore } from '../src/index.js';

const clock = { now: () => new Date('2026-03-15T12:00:00.000Z') };
const run = async <A>(te: TE.TaskEither<DomainError, A>): Promise<A> => {
  const r = await te();
  if (E.isLeft(r)) throw new Error(`expected Right, got ${JSON.stringify(r.left)}`);
  return r.right;
};

const advanceOnce = async (yieldToOthers?: () => Promise<void>) => {
  const store = createMemoryStore();
  const client = await run(store.clients.create(aClient()));
  const user = await run(store.users.create(aUser(client.id)));
  for (let i = 0; i < 25; i++) await run(store.accounts.create(anAccount(user.id, { name: `Loan ${i}` })));
  const app = createApplication({
    ...store,
    clock,
    bureau: new SandboxCreditBureau(),
    secrets: sequentialSecrets(),
    sandboxClock: true,
    ...(yieldToOthers === undefined ? {} : { yieldToOthers }),
  });
  return run(app.advanceSandbox({ clientId: client.id, userId: user.id }, { months: 12, payments: 'minimum' }));
};

describe('a sandbox advance gives other requests turns (memory store)', () => {
  it('awaits yieldToOthers before each of its 12 months and every 10 accounts within one; the answer is unchanged', async () => {
    let turns = 0;
    const withTurns = await advanceOnce(async () => {
      turns += 1;
    });
    // 12 months, and within each month of 25 accounts a turn before the 11th and the 21st.
    expect(turns).to.equal(12 + 12 * 2);
    expect(withTurns).to.deep.equal(await advanceOnce());
    expect(withTurns.months).to.have.length(12);
  });
});

describe('concurrent sandbox advances of one user take its turn (memory store, forced interleaving)', () => {
  it('four advances at once: each of the 12 months is computed once and applied once, all four answer the one target', async () => {
    const store = interleavingStore(createMemoryStore());
    const client = await run(store.clients.create(aClient()));
    const user = await run(store.users.create(aUser(client.id)));
    for (let i = 0; i < 3; i++) await run(store.accounts.create(anAccount(user.id, { name: `Loan ${i}` })));
    const computed: string[] = [];
    const counting: SandboxComputations = {
      sandboxMonth: (input) => {
        computed.push(input.date);
        return inThreadSandboxComputations.sandboxMonth(input);
      },
    };
    const app = createApplication({
      ...store,
      clock,
      bureau: new SandboxCreditBureau(),
      secrets: sequentialSecrets(),
      sandboxClock: true,
      sandboxComputations: counting,
    });
    const scope = { clientId: client.id, userId: user.id };
    const answers = await Promise.all([1, 2, 3, 4].map(() => run(app.advanceSandbox(scope, { months: 12, payments: 'minimum' }))));
    const months = answers.flatMap((a) => a.months.map((m) => m.date)).sort();
    expect(months).to.have.length(12);
    expect(new Set(months).size).to.equal(12);
    expect(new Set(answers.map((a) => a.sandbox_date)).size).to.equal(1);
    expect([...computed].sort()).to.deep.equal(months);
  });
});

describe('a write that commits while a month is computed is not lost (memory store)', () => {
  const setUp = async () => {
    const store = createMemoryStore();
    const client = await run(store.clients.create(aClient()));
    const user = await run(store.users.create(aUser(client.id)));
    const loan = await run(store.accounts.create(anAccount(user.id, { name: 'Loan' })));
    return { store, scope: { clientId: client.id, userId: user.id }, loan };
  };
  /** The loan's balance set to 100,000 as another request would: one committed write outside the advance's transaction. */
  const writeBalance = async (
    store: ReturnType<typeof createMemoryStore>,
    loan: { id: AccountRecord['id']; user_id: AccountRecord['user_id'] },
  ) => {
    const current = await run(store.accounts.get(loan.user_id, loan.id));
    if (O.isNone(current)) throw new Error('no loan');
    await run(store.accounts.update(loan.user_id, loan.id, current.value.version, { balance: 100_000 as Cents }));
  };
  const appOf = (store: ReturnType<typeof createMemoryStore>, sandboxComputations?: SandboxComputations) =>
    createApplication({
      ...store,
      clock,
      bureau: new SandboxCreditBureau(),
      secrets: sequentialSecrets(),
      sandboxClock: true,
      ...(sandboxComputations === undefined ? {} : { sandboxComputations }),
    });

  it("the month's compare-and-set conflicts, and it runs again from a fresh read: the account ends as if the write came first", async () => {
    const twin = await setUp();
    await writeBalance(twin.store, twin.loan);
    const alone = await run(appOf(twin.store).advanceSandbox(twin.scope, { months: 1, payments: 'minimum' }));

    const raced = await setUp();
    const computed: string[] = [];
    const racing: SandboxComputations = {
      sandboxMonth: async (input) => {
        computed.push(input.date);
        if (computed.length === 1) await writeBalance(raced.store, raced.loan);
        return inThreadSandboxComputations.sandboxMonth(input);
      },
    };
    const answer = await run(appOf(raced.store, racing).advanceSandbox(raced.scope, { months: 1, payments: 'minimum' }));
    expect(computed).to.have.length(2);
    expect(answer).to.deep.equal(alone);
    const after = async (s: Awaited<ReturnType<typeof setUp>>) => {
      const a = await run(s.store.accounts.get(s.loan.user_id, s.loan.id));
      return O.isSome(a) ? { balance: a.value.balance, history: a.value.payments_history, version: a.value.version } : undefined;
    };
    expect(await after(raced)).to.deep.equal(await after(twin));
  });
});
