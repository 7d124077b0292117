/**
 * A process killed (SIGKILL) in the middle of a transaction (docs/decisions/transactions.md), as a
 * real child process on the wire-protocol test server as a one-node replica set:
 * - killed while its commit is in flight and before it ran: nothing of the
 *   change exists (no debit, no event); the abandoned transaction keeps the
 *   records it wrote locked, so a transaction writing them answers `conflict`,
 *   until `transactionLifetimeLimitSeconds` (set short through `setParameter`)
 *   have passed on the server's clock; then the change runs, once;
 * - killed after its commit reached the server: the commit runs, all of it
 *   exists, its event included, and the event is listed at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { MongoClient } from 'mongodb';
import { conflict, type StorePorts } from '@debtkit/core';
import { TODAY, aClient, aUser, anAccount, cents, expectRight, expectSome } from '@debtkit/core/testing';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { ABANDONED_APPEND_MS, mongoStorePorts, mongoUnitOfWork, openMongoContext, type MongoContext } from '../src/index.js';

const CHILD = fileURLToPath(new URL('./support/crash-child.js', import.meta.url));
const LIFETIME_S = 2;

/** Spawn the child; resolves once it has sent its writes (it commits next). */
const payInChild = (url: string, dbName: string, ids: ReadonlyArray<number>): Promise<ChildProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, url, dbName, ...ids.map(String)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('wrote\n')) resolve(child);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.once('exit', (code) => reject(new Error(`the child exited (${code}) before writing:\n${out}\n${err}`)));
  });

const kill = async (child: ChildProcess): Promise<void> => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
};

describe('mongo: a process killed mid-transaction (SIGKILL, child process, wire-protocol test server)', function () {
  this.timeout(30_000);
  let now = Date.parse('2026-03-15T12:00:00.000Z');
  let server: WireServer;
  let admin: MongoClient;
  let ctx: MongoContext;
  let store: StorePorts;
  let databases = 0;

  beforeEach(async () => {
    server = await startWireServer({ now: () => new Date(now) });
    admin = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000 });
    await admin.db('admin').command({ setParameter: 1, transactionLifetimeLimitSeconds: LIFETIME_S });
    // A short conflict deadline: a change blocked by the dead process's transaction is to end
    // in a conflict, not to back off for the default 10 s.
    ctx = await openMongoContext(server.url, {
      dbName: `crash_${process.pid}_${++databases}`,
      serverSelectionTimeoutMS: 1000,
      writeConflictDeadlineMs: 1000,
    });
    store = mongoStorePorts(ctx);
  });
  afterEach(async () => {
    await store.close();
    await admin.close();
    await server.stop();
  });

  const anAccountToPay = async () => {
    const client = await expectRight(store.clients.create(aClient()));
    const user = await expectRight(store.users.create(aUser(client.id)));
    const account = await expectRight(store.accounts.create(anAccount(user.id, { balance: cents(10_000) })));
    return { client, user, account, ids: [client.id, user.id, account.id] };
  };
  const listed = async (clientId: number, at: number) =>
    (await expectRight(store.events.list(clientId as never, { limit: 10 }, {}, new Date(at)))).items;

  it('killed with its commit in flight: nothing committed; its locks hold until the transaction lifetime, then the change runs once', async () => {
    const { client, user, account, ids } = await anAccountToPay();
    const commit = server.holdNext((command) => command.name === 'commitTransaction');
    const child = await payInChild(server.url, ctx.db.databaseName, ids);
    await commit.held;
    await kill(child);

    expect((await expectSome(store.accounts.get(user.id, account.id))).balance).to.equal(10_000);
    expect(await listed(client.id, now)).to.deep.equal([]);

    // The abandoned transaction still holds the account: a change writing it loses, bounded.
    const uow = mongoUnitOfWork(ctx);
    const pay = () =>
      uow.run((tx) => tx.accounts.applyPayment(user.id, account.id, { amount: cents(100), date: TODAY, updatedOn: TODAY }))();
    expect(await pay()).to.deep.equal(E.left({ ...conflict('The change lost to concurrent changes; retry'), retryAfterSeconds: 1 }));
    expect(server.expireTransactions(), 'not yet past the lifetime').to.equal(0);

    now += (LIFETIME_S + 1) * 1000;
    expect(server.expireTransactions(), 'the abandoned transaction aborted').to.equal(1);
    // The commit that arrived from the dead process now finds no transaction: it cannot land late.
    commit.release();
    const paid = await pay();
    expect(E.isRight(paid), JSON.stringify(paid)).to.equal(true);
    expect((await expectSome(store.accounts.get(user.id, account.id))).balance).to.equal(9_900);
    expect(await listed(client.id, now + ABANDONED_APPEND_MS)).to.deep.equal([]);
  });

  it('killed after its commit arrived: the commit runs anyway (as on a real server), all of it stays, and its event is listed at once', async () => {
    const { client, user, account, ids } = await anAccountToPay();
    const commit = server.holdNext((command) => command.name === 'commitTransaction');
    const child = await payInChild(server.url, ctx.db.databaseName, ids);
    await commit.held;
    await kill(child);
    commit.release();

    // The commit runs once released; the reads that follow see it.
    let balance = 10_000;
    for (let attempt = 0; attempt < 20 && balance === 10_000; attempt++)
      balance = (await expectSome(store.accounts.get(user.id, account.id))).balance;
    expect(balance).to.equal(9_900);
    // Its append's entry is still listed (the dead process never appended again), but its event is stored: listed now.
    expect((await listed(client.id, now)).map((e) => e.data.object)).to.deep.equal([{ paid: 100 }]);
  });
});
