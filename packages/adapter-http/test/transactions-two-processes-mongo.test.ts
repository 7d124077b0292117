/**
 * One change, one transaction, across two API processes (issue 22): two
 * `debtkit serve` children on one wire-protocol test server, and every use case
 * that writes (support/transaction-scenarios.ts). A request sent to process A
 * has each of its write commands (and the commit) made to fail once with
 * `failCommand` (scoped with `appName` to debtkit's store connections): A
 * answers 503 and nothing is committed (every collection compared, record by
 * record); the same request retried on process B (with its Idempotency-Key when
 * it takes one) has exactly the change's effect, and A then replays B's answer
 * (keyed) or, sent again, changes nothing more.
 *
 * The occurrences of each command are counted in the server's command log
 * while the request runs once without a fault (a superset: the processes'
 * background commands are in it too; an occurrence the request does not reach
 * lets it succeed whole, which is checked). With the fail point in `skip` mode
 * every later match fails too, so a background command only makes the failure
 * come earlier, never hides it. Reads failing are covered in one process
 * (transactions-http-mongo.test.ts); here the writes and the commit.
 */
import { expect } from 'chai';
import { MongoClient, type Db } from 'mongodb';
import { COLLECTIONS } from '@debtkit/adapter-mongo';
import { generateToken } from '../src/http/token-issuer.js';
import { startCli, useCliOnWireServer, type CliProcess } from './support/cli-process.js';
import { ADMIN_TOKEN } from './support/http-harness.js';
import { SCENARIOS, checkFault, clearMongoRecords, fetchApi, mongoStoreState, probe, type Api } from './support/transaction-scenarios.js';

/** What a change's transaction can write with, and its commit. */
const WRITES = new Set(['insert', 'update', 'findAndModify', 'delete', 'commitTransaction']);

describe('a change failing on one API process, retried on the other (mongo, failCommand, child processes)', function () {
  this.timeout(120_000);
  const wire = useCliOnWireServer();
  const running: CliProcess[] = [];
  let admin: MongoClient | undefined;
  let db: Db;
  let a: Api;
  let b: Api;

  before(async () => {
    const url = `${wire().url}debtkit_tx_two_${process.pid}`;
    const token = generateToken('sandbox');
    // One client makes a webhook endpoint per fault of every webhook scenario, more than the default quota of 16
    // (quotas are tested in their own suites).
    const env = {
      DEBTKIT_STORE: 'mongo',
      MONGODB_URL: url,
      DEBTKIT_BOOTSTRAP_TOKEN: token,
      DEBTKIT_ADMIN_TOKEN: ADMIN_TOKEN,
      DEBTKIT_RATE_LIMIT: '0',
      DEBTKIT_QUOTA_WEBHOOK_ENDPOINTS_PER_CLIENT: '1000',
    };
    running.push(...(await Promise.all([startCli(env), startCli(env)])));
    const auth = { client: token, admin: ADMIN_TOKEN };
    a = fetchApi(running[0]!.url, auth);
    b = fetchApi(running[1]!.url, auth);
    // On the processes' own URL, so that its default database is theirs.
    admin = new MongoClient(url, { serverSelectionTimeoutMS: 2000, appName: 'fault-injector' });
    db = admin.db();
  });
  afterEach(async () => {
    await admin?.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
  });
  after(async () => {
    await admin?.close();
    await Promise.all(running.splice(0).map((p) => p.stop()));
  });

  const stateOf = () => mongoStoreState(db, { withDispatcher: true });
  beforeEach(() => clearMongoRecords(db));

  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: each write and the commit failing once on A: 503 and nothing; the retry on B: exactly one effect; A replays it`, async () => {
      // The write commands the change sends, each as often as it does (the server's log also holds the
      // processes' background commands: a superset; an occurrence the change does not reach lets it succeed whole).
      const effect = await probe({ scenario, api: a, stateOf, events: COLLECTIONS.events, arm: () => void wire().commands.splice(0) });
      const sent = wire()
        .commands.splice(0)
        .filter((name) => WRITES.has(name));
      expect(sent, 'one transaction').to.include('commitTransaction');
      const failedOn: string[] = [];
      const seen = new Map<string, number>();
      for (const name of sent) {
        const occurrence = seen.get(name) ?? 0;
        seen.set(name, occurrence + 1);
        const where = `${scenario.name}: ${name} #${occurrence + 1} failing on A`;
        const outcome = await checkFault({
          scenario,
          probe: effect,
          where,
          a,
          b,
          stateOf,
          arm: async () => {
            await admin!.db('admin').command({
              configureFailPoint: 'failCommand',
              mode: { skip: occurrence },
              data: { failCommands: [name], errorCode: 50, appName: 'debtkit' },
            });
          },
          disarm: async () => {
            await admin!.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
          },
        });
        if (outcome === 'failed') failedOn.push(where);
      }
      expect(failedOn, 'the commit failed once').to.include(`${scenario.name}: commitTransaction #1 failing on A`);
    });
  }
});
