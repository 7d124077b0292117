/**
 * One change, one transaction, across two API processes (issue 22): two
 * `debtkit serve` children on one wire-protocol test server. A keyed plan
 * payment sent to process A has each of its write commands (and the commit)
 * made to fail once with `failCommand` (scoped with `appName` to debtkit's
 * store connections): A answers 503 and nothing is committed; the same request
 * retried with its Idempotency-Key on process B makes the payment exactly once
 * with one event, and A then replays B's answer.
 *
 * The occurrences of each command are found by failing the next one until the
 * payment no longer reaches it (then it answers 201, with all of its effect):
 * with the fail point in `skip` mode every later match fails too, so a command
 * another part of the process sends (a background poll) only makes the failure
 * come earlier, never hides it.
 */
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { generateToken } from '../src/http/token-issuer.js';
import { startCli, useCliOnWireServer, type CliProcess } from './support/cli-process.js';

const json = { 'Content-Type': 'application/json' };
/** What a payment's transaction writes, and its commit. */
const WRITES = ['insert', 'update', 'findAndModify', 'commitTransaction'] as const;

describe('a keyed payment failing on one API process, retried on the other (mongo, failCommand, child processes)', function () {
  this.timeout(120_000);
  const wire = useCliOnWireServer();
  const running: CliProcess[] = [];
  let admin: MongoClient | undefined;

  afterEach(async () => {
    await admin?.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
    await admin?.close();
    admin = undefined;
    await Promise.all(running.splice(0).map((p) => p.stop()));
  });

  it('each write and the commit failing once on A: 503 and nothing; the retry on B: one payment, one debit, one event; A replays it', async () => {
    const url = `${wire().url}/debtkit_tx_two_${process.pid}`;
    const token = generateToken('sandbox');
    for (let i = 0; i < 2; i++) running.push(await startCli({ DEBTKIT_STORE: 'mongo', MONGODB_URL: url, DEBTKIT_BOOTSTRAP_TOKEN: token }));
    const [a, b] = running as [CliProcess, CliProcess];
    // On the processes' own URL, so that its default database is theirs.
    admin = new MongoClient(url, { serverSelectionTimeoutMS: 2000, appName: 'fault-injector' });
    const auth = { Authorization: `Bearer ${token}` };
    const get = async <T>(cli: CliProcess, path: string): Promise<T> => {
      const res = await fetch(`${cli.url}${path}`, { headers: auth });
      expect(res.status, path).to.equal(200);
      return (await res.json()) as T;
    };
    const userId = (await get<{ users: Array<{ id: number }> }>(a, '/api/users')).users[0]!.id;
    const userPath = `/api/users/${userId}`;
    const account = await fetch(`${a.url}${userPath}/accounts`, {
      method: 'POST',
      headers: { ...auth, ...json },
      body: JSON.stringify({ name: 'Shared loan', type: 'loan', subtype: 'personal_loan', balance: 1_000_000, apr: 10, minimum_payment: 1_000 }),
    });
    expect(account.status).to.equal(201);
    const accountId = ((await account.json()) as { id: number }).id;
    const plan = await fetch(`${b.url}${userPath}/payment_plans`, {
      method: 'POST',
      headers: { ...auth, ...json },
      body: JSON.stringify({ strategy: 'avalanche', monthly_payment: 50_000, account_ids: [accountId] }),
    });
    expect(plan.status).to.equal(201);
    const paymentsPath = `${userPath}/payment_plans/${((await plan.json()) as { id: number }).id}/payments`;
    const observe = async () => ({
      balance: (await get<{ balance: number }>(b, `${userPath}/accounts/${accountId}`)).balance,
      payments: (await get<{ payments: unknown[] }>(b, `${paymentsPath}?limit=100`)).payments.length,
      // Counted in the database: the event list shows an event once no lower id can still commit (the visible-sequence
      // horizon), and an aborted attempt's event id holds that back for a while.
      events: await admin!.db().collection('events').countDocuments({}),
    });
    const pay = (cli: CliProcess, key: string) =>
      fetch(`${cli.url}${paymentsPath}`, { method: 'POST', headers: { ...auth, ...json, 'Idempotency-Key': key }, body: JSON.stringify({ account_id: accountId, amount: 100 }) });

    let keys = 0;
    const failedOn: string[] = [];
    for (const name of WRITES) {
      for (let occurrence = 0; ; occurrence++) {
        const before = await observe();
        const key = `two-${++keys}`;
        await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: { skip: occurrence }, data: { failCommands: [name], errorCode: 50, appName: 'debtkit' } });
        const failed = await pay(a, key);
        await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
        const where = `${name} #${occurrence + 1} failing on A`;
        if (failed.status === 201) {
          // The payment sends fewer of these: it ran whole.
          expect(await observe(), where).to.deep.equal({ balance: before.balance - 100, payments: before.payments + 1, events: before.events + 1 });
          break;
        }
        expect(failed.status, `${where}: ${await failed.text()}`).to.equal(503);
        expect(await observe(), `${where}: nothing committed`).to.deep.equal(before);
        failedOn.push(where);
        const retried = await pay(b, key);
        expect(retried.status, `${where}, retried on B`).to.equal(201);
        expect(retried.headers.get('idempotent-replayed'), `${where}: B runs it`).to.equal(null);
        const text = await retried.text();
        const replayed = await pay(a, key);
        expect(replayed.status).to.equal(201);
        expect(replayed.headers.get('idempotent-replayed'), `${where}: A replays B's answer`).to.equal('true');
        expect(await replayed.text()).to.equal(text);
        expect(await observe(), `${where}, retried on B: exactly once`).to.deep.equal({ balance: before.balance - 100, payments: before.payments + 1, events: before.events + 1 });
        if (occurrence > 20) throw new Error(`${name}: more than 20 occurrences`);
      }
    }
    // The claim, the plan bump, two ids, the payment, the debit, the event, the kept response and the commit: each failed once.
    expect(failedOn.length, JSON.stringify(failedOn)).to.be.at.least(8);
    expect(failedOn).to.include('commitTransaction #1 failing on A');
  });
});
