/**
 * The memory store against every storage contract, plus what only the memory
 * adapter promises (ids from 1 per collection, independent stores, lazy tasks).
 */
import { expect } from 'chai';
import {
  aClient,
  aCreditScore,
  aPaymentPlan,
  aPlanPayment,
  aTokenHash,
  aUser,
  anAccount,
  anId,
  CREATED_AT,
  expectNone,
  expectRight,
  expectSome,
  runStoreContracts,
  concurrencyContract,
  atomicityContract,
  interleavingStore,
} from '@debtkit/core/testing';
import type { StorePorts } from '@debtkit/core';
import { createMemoryStore } from '../src/memory-store.js';
import { MemoryDatabase } from '../src/memory-database.js';
import { SandboxCreditBureau } from '../src/sandbox-credit-bureau.js';

/** Each contract store's database, to write records of an older shape straight into it. */
const databases = new WeakMap<StorePorts, MemoryDatabase>();
runStoreContracts(
  'memory store',
  async () => {
    const db = new MemoryDatabase();
    const store = createMemoryStore(db);
    databases.set(store, db);
    return store;
  },
  {
    writeStoredEndpoint: async (store, record) => {
      const db = databases.get(store)!;
      const written = db
        .table<unknown, unknown, unknown>('webhookEndpoints')
        .set(db.autocommit, record['client_id'], record['id'], { ...record });
      if (written._tag === 'Left') throw new Error(written.left.message);
    },
    // A token as stored before `expires_at` existed, in both of the repository's tables (by id, by hash).
    writeLegacyToken: async (store, record) => {
      const db = databases.get(store);
      if (db === undefined) throw new Error('not a contract store');
      db.table<number, number, unknown>('tokens').set(db.autocommit, 0, record.id, record);
      db.table<number, string, unknown>('tokens.byHash').set(db.autocommit, 0, record.hash, record);
    },
  },
);
// The memory store never yields between a read and a write; forced interleaving makes it (docs/decisions/transactions.md).
concurrencyContract('memory store (interleaved)', async () => interleavingStore(createMemoryStore()));
// Every store call of every multi-write use case failing once: all or nothing, then exactly once (docs/decisions/transactions.md).
atomicityContract('memory store', async () => createMemoryStore(), { bureau: new SandboxCreditBureau() });
atomicityContract('memory store (interleaved)', async () => interleavingStore(createMemoryStore()), { bureau: new SandboxCreditBureau() });

describe('memory store', () => {
  it('allocates ids per collection, each starting at 1', async () => {
    const store = createMemoryStore();
    const client = await expectRight(store.clients.create(aClient()));
    const token = await expectRight(store.tokens.create(client.id, aTokenHash(1), CREATED_AT));
    const user = await expectRight(store.users.create(aUser(client.id)));
    const account = await expectRight(store.accounts.create(anAccount(user.id)));
    const secondAccount = await expectRight(store.accounts.create(anAccount(user.id)));
    const score = await expectRight(store.creditScores.add(aCreditScore(user.id)));
    const plan = await expectRight(store.paymentPlans.create(aPaymentPlan(user.id)));
    const payment = await expectRight(store.planPayments.create(aPlanPayment(user.id, plan.id)));
    expect([client.id, token.id, user.id, account.id, secondAccount.id, score.id, plan.id, payment.id]).to.deep.equal([
      1, 1, 1, 1, 2, 1, 1, 1,
    ]);
  });

  it('each createMemoryStore() is a separate, empty store', async () => {
    const first = createMemoryStore();
    const user = await expectRight(first.users.create(aUser(anId('client', 1))));
    const second = createMemoryStore();
    await expectNone(second.users.get(anId('client', 1), user.id));
    expect((await expectRight(second.users.create(aUser(anId('client', 1))))).id).to.equal(1);
    expect(await expectSome(first.users.get(anId('client', 1), user.id))).to.deep.equal(user);
  });

  it('a task changes the store when it runs, not when it is built', async () => {
    const store = createMemoryStore();
    const create = store.users.create(aUser(anId('client', 1)));
    expect(await expectRight(store.users.list(anId('client', 1), { limit: 20 }))).to.deep.equal({ items: [], hasMore: false });
    const created = await expectRight(create);
    expect(created.id).to.equal(1);
    expect((await expectRight(store.users.list(anId('client', 1), { limit: 20 }))).items).to.have.length(1);
  });

  it('close() resolves: there is nothing to release', async () => {
    const store = createMemoryStore();
    expect(await store.close()).to.equal(undefined);
  });
});
