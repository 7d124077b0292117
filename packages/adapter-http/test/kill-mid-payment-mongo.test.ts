/**
 * A `debtkit serve` process killed (SIGKILL) in the middle of a keyed plan
 * payment (docs/decisions/idempotency.md, docs/decisions/transactions.md), on the wire-protocol test server as a one-node
 * replica set: the payment's transaction has written its record, its debit
 * and its event insert has reached the server when the process dies, so no
 * commit ever comes.
 * - Nothing of the payment exists (no record, no debit, no event).
 * - The abandoned transaction keeps what it wrote locked: another payment on
 *   that account answers 409 `conflict`, until `transactionLifetimeLimitSeconds`
 *   (set short through `setParameter`) have passed on the server's clock.
 * - The killed request's key stays claimed: its retry answers 409
 *   `idempotency_key_in_use` (the default claim timeout, 60 s); on a process
 *   configured with a 1 s claim timeout (DEBTKIT_IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS),
 *   more than a second after the claim, the retry runs, exactly once, with its
 *   one event.
 */
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { generateToken } from '../src/http/token-issuer.js';
import { cliIsBuilt, startCli, type CliProcess } from './support/cli-process.js';

const json = { 'Content-Type': 'application/json' };
const LIFETIME_S = 2;

describe('debtkit serve killed mid-payment (SIGKILL, mongo, child process, wire-protocol test server)', function () {
  this.timeout(60_000);
  let now = Date.now();
  let server: WireServer;
  let admin: MongoClient;
  const running: CliProcess[] = [];

  before(function () {
    if (!cliIsBuilt()) {
      console.log('    (skipped: the CLI is not built; run `npx tsc -b` first)');
      this.skip();
    }
  });

  beforeEach(async () => {
    server = await startWireServer({ now: () => new Date(now) });
    admin = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000, appName: 'test-observer' });
    await admin.db('admin').command({ setParameter: 1, transactionLifetimeLimitSeconds: LIFETIME_S });
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    await admin.close();
    await server.stop();
  });

  it('leaves nothing of the payment; its key stays claimed (409) until the claim timeout; then the retry pays exactly once', async () => {
    const dbName = `debtkit_kill_${process.pid}`;
    const url = `${server.url}${dbName}`;
    const token = generateToken('sandbox');
    // A 2 s write-conflict deadline: the payment the abandoned transaction blocks answers 409 after it, not after the default 10 s.
    const env = { DEBTKIT_STORE: 'mongo', MONGODB_URL: url, DEBTKIT_BOOTSTRAP_TOKEN: token, DEBTKIT_WRITE_CONFLICT_DEADLINE_MS: '2000' };
    const first = await startCli(env);
    running.push(first);
    const auth = { Authorization: `Bearer ${token}` };
    const call = async (cli: CliProcess, method: string, path: string, body?: unknown, key?: string) => {
      const res = await fetch(`${cli.url}${path}`, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : json), ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const users = await call(first, 'GET', '/api/users');
    const userPath = `/api/users/${users.body['users'][0].id}`;
    const account = await call(first, 'POST', `${userPath}/accounts`, {
      name: 'Killed loan',
      type: 'loan',
      subtype: 'personal_loan',
      balance: 500_000,
      institution_apr: 12,
      institution_minimum_payment: 2_000,
    });
    expect(account.status).to.equal(201);
    const accountId = account.body['id'] as number;
    const plan = await call(first, 'POST', `${userPath}/payment_plans`, {
      strategy: 'avalanche',
      monthly_payment: 20_000,
      account_ids: [accountId],
    });
    expect(plan.status).to.equal(201);
    const paymentsPath = `${userPath}/payment_plans/${plan.body['id']}/payments`;
    const db = admin.db(dbName);
    const paymentEvents = () => db.collection('events').countDocuments({ type: 'plan_payment.created' });

    // The event insert of the payment's transaction arrives and is held; the process dies there.
    const hold = server.holdNext((c) => c.db === dbName && c.name === 'insert' && c.body['insert'] === 'events');
    const killed = call(first, 'POST', paymentsPath, { account_id: accountId, amount: 7_000 }, 'killed-payment').catch(() => 'no answer');
    await hold.held;
    first.child.kill('SIGKILL');
    expect(await first.exited).to.equal(null);
    expect(await killed).to.equal('no answer');
    hold.release();
    running.splice(0);

    const second = await startCli(env);
    running.push(second);
    expect(await db.collection('plan_payments').countDocuments({})).to.equal(0);
    expect(await paymentEvents()).to.equal(0);
    expect((await call(second, 'GET', `${userPath}/accounts/${accountId}`)).body['balance']).to.equal(500_000);

    // The abandoned transaction still holds the account: another payment on it loses (409 after its bounded retries).
    const blocked = await call(second, 'POST', paymentsPath, { account_id: accountId, amount: 1_000 });
    expect(blocked.status).to.equal(409);
    expect(blocked.body['error'].code).to.equal('conflict');
    // The killed request's key is still claimed.
    const early = await call(second, 'POST', paymentsPath, { account_id: accountId, amount: 7_000 }, 'killed-payment');
    expect(early.status).to.equal(409);
    expect(early.body['error'].code).to.equal('idempotency_key_in_use');

    // Past transactionLifetimeLimitSeconds on the server's clock: the locks are released.
    now += (LIFETIME_S + 1) * 1000;
    expect(server.expireTransactions()).to.be.at.least(1);
    const other = await call(second, 'POST', paymentsPath, { account_id: accountId, amount: 1_000 });
    expect(other.status).to.equal(201);

    // A deployment with a 1 s claim timeout: past it (the blocked payment alone waited out its retries, the 2 s write conflict deadline set above), the retry runs, once.
    const claims = await db.collection('idempotency_keys').find({ response: null }).toArray();
    expect(claims, 'only the killed request holds a key').to.have.length(1);
    expect(Date.now() - (claims[0]!['claimed_at'] as Date).getTime(), 'more than the claim timeout since the claim').to.be.above(1_000);
    await second.stop();
    running.splice(0);
    const third = await startCli({ ...env, DEBTKIT_IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS: '1' });
    running.push(third);
    const retried = await call(third, 'POST', paymentsPath, { account_id: accountId, amount: 7_000 }, 'killed-payment');
    expect(retried.status).to.equal(201);
    const replayed = await call(third, 'POST', paymentsPath, { account_id: accountId, amount: 7_000 }, 'killed-payment');
    expect(replayed).to.deep.equal(retried);
    expect((await call(third, 'GET', `${userPath}/accounts/${accountId}`)).body['balance']).to.equal(500_000 - 1_000 - 7_000);
    expect(await db.collection('plan_payments').countDocuments({})).to.equal(2);
    expect(await paymentEvents()).to.equal(2);
  });
});
