/**
 * A sandbox advance gives the rest of the process turns (docs/decisions/tenancy.md, a
 * fair share; issue 42): on the memory store nothing waits on I/O, so without
 * them an advance ran each month's hundreds of writes as one stretch and another
 * client's request waited for it (measured in `bench:isolation` with
 * BENCH_HEAVY_KIND=advance). Core awaits `yieldToOthers` before each month and
 * every 10 accounts within one; the answer is the same with or without it.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { createApplication, type DomainError } from '@debtkit/core';
import { aClient, aUser, anAccount, sequentialSecrets } from '@debtkit/core/testing';
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
