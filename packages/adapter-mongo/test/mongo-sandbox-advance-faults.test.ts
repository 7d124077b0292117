/**
 * The sandbox advance (docs/sandbox-over-time.md) on MongoDB, faulted through `failCommand`
 * on the wire-protocol test server: an advance of 3 months whose month 2
 * fails (each command month 2 sends, in turn, on a fresh database) answers
 * `unavailable`, keeps month 1 whole and nothing of month 2 (each month is one
 * transaction); the same advance run again (its retry) continues to the same
 * target and stops there, leaving exactly what a clean run leaves.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { MongoClient } from 'mongodb';
import {
  advanceSandbox,
  deriveCreditReport,
  inThreadSandboxComputations,
  linkAccount,
  type ApplicationDeps,
  type Clock,
  type CreditBureau,
  type TransactionPorts,
  type UserScope,
  type SandboxComputations,
  redactEvent,
  deleteUserData,
  sampleEventObject,
  versioning,
} from '@debtkit/core';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { COLLECTIONS, mongoStorePorts, mongoUnitOfWork, openMongoContext, type MongoContext } from '../src/index.js';

const clock: Clock = { now: () => new Date('2026-03-15T12:00:00.000Z') };
const UPKEEP = new Set([
  'hello',
  'isMaster',
  'ismaster',
  'ping',
  'buildInfo',
  'getParameter',
  'endSessions',
  'configureFailPoint',
  'saslStart',
  'saslContinue',
  'createIndexes',
  'killCursors',
]);

const sandboxBureau: CreditBureau = {
  invoke: () => TE.right(undefined),
  verifyOtp: () => TE.right(true),
  verifyIdentity: () => TE.right(undefined),
  deleteIdentity: () => TE.right(undefined),
  fetchReport: (_user, accounts, today) => TE.right(deriveCreditReport(accounts, today)),
};

const BODY = { months: 3, payments: 'minimum' } as const;

describe('mongo: a sandbox advance failing in month 2 of 3 under failCommand keeps month 1 and continues to the same target', function () {
  this.timeout(120_000);
  let server: WireServer;
  let admin: MongoClient;
  let databases = 0;
  const open: MongoContext[] = [];

  before(async () => {
    server = await startWireServer();
    admin = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000, appName: 'fault-injector' });
  });
  after(async () => {
    await admin.close();
    await server.stop();
  });
  afterEach(async () => {
    await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
    await Promise.all(open.splice(0).map((ctx) => ctx.close()));
  });

  /** A fresh database with one sandbox user and two loans. */
  const fresh = async (): Promise<{ ctx: MongoContext; deps: ApplicationDeps & TransactionPorts; scope: UserScope }> => {
    const ctx = await openMongoContext(server.url, {
      dbName: `sandbox_faults_${process.pid}_${++databases}`,
      serverSelectionTimeoutMS: 500,
      maxTimeMS: 2000,
    });
    open.push(ctx);
    const store = mongoStorePorts(ctx);
    const deps: ApplicationDeps & TransactionPorts = {
      ...store,
      versioning,
      webhookSamples: sampleEventObject,
      eventRedaction: redactEvent,
      userDataDelete: deleteUserData,
      unitOfWork: mongoUnitOfWork(ctx),
      clock,
      secrets: { secret: () => 'x'.repeat(43) },
      bureau: sandboxBureau,
      sandboxClock: true,
    };
    const client = await store.clients.create({
      name: 'Sandbox',
      environment: 'sandbox',
      api_version: '2024-07-01',
      created_at: '2026-01-01T00:00:00.000Z' as never,
    })();
    if (E.isLeft(client)) throw new Error(client.left.message);
    const user = await store.users.create({
      client_id: client.right.id,
      last_name: 'Doe',
      first_name: null,
      email: null,
      date_of_birth: null,
      phone: null,
      created_at: '2026-01-01T00:00:00.000Z' as never,
    })();
    if (E.isLeft(user)) throw new Error(user.left.message);
    const scope = { clientId: client.right.id, userId: user.right.id, apiVersion: '2024-07-01' };
    for (const [balance, apr, minimum] of [
      [300_000, 18, 9_000],
      [80_000, 7.5, 2_000],
    ] as const) {
      const linked = await linkAccount(deps)(scope, {
        name: 'Loan',
        type: 'loan',
        subtype: 'personal_loan',
        balance: balance as never,
        institution_apr: apr as never,
        institution_minimum_payment: minimum as never,
        payments_history: ['1'],
      })();
      if (E.isLeft(linked)) throw new Error(linked.left.message);
    }
    return { ctx, deps, scope };
  };

  /** What the advance changes, as stored (ids left out: an aborted attempt's ids are skipped). */
  const stateOf = async (ctx: MongoContext) => ({
    clock: (await ctx.db.collection(COLLECTIONS.users).find({}).toArray()).map((u) => u['sandbox_date'] ?? null),
    accounts: (
      await ctx.db
        .collection(COLLECTIONS.accounts)
        .find({}, { sort: { _id: 1 } })
        .toArray()
    ).map((a) => [a['balance'], a['payments_history'], a['last_payment_date'], a['next_payment_due_date'], a['version']]),
    scores: (
      await ctx.db
        .collection(COLLECTIONS.creditScores)
        .find({}, { sort: { _id: 1 } })
        .toArray()
    ).map((s) => [s['date'], s['score'], s['increase']]),
    events: (
      await ctx.db
        .collection(COLLECTIONS.events)
        .find({}, { sort: { _id: 1 } })
        .toArray()
    ).map((e) => e['type']),
  });

  it("each command of month 2 failing in turn: unavailable, month 1 kept whole, nothing of month 2; run again: the clean run's state, and no month past the target", async () => {
    const oneMonth = await fresh();
    expect(E.isRight(await advanceSandbox(oneMonth.deps)(oneMonth.scope, { months: 1, payments: 'minimum' })())).to.equal(true);
    const afterMonth1 = await stateOf(oneMonth.ctx);

    const clean = await fresh();
    server.commands.length = 0;
    const result = await advanceSandbox(clean.deps)(clean.scope, BODY)();
    expect(E.isRight(result) && result.right.months.length, JSON.stringify(result)).to.equal(3);
    const sent = server.commands.filter((name) => !UPKEEP.has(name));
    const afterMonth3 = await stateOf(clean.ctx);
    // Commits: the recorded target, then one per month.
    const commits = sent.flatMap((name, i) => (name === 'commitTransaction' ? [i] : []));
    expect(commits, `commands of a clean run: ${JSON.stringify(sent)}`).to.have.length(4);
    const month2 = sent.slice(commits[1]! + 1, commits[2]! + 1);
    expect(month2.length).to.be.greaterThan(5);

    for (const [offset, name] of month2.entries()) {
      const index = commits[1]! + 1 + offset;
      const occurrence = sent.slice(0, index).filter((n) => n === name).length;
      const faulted = await fresh();
      await admin.db('admin').command({
        configureFailPoint: 'failCommand',
        mode: { skip: occurrence },
        data: { failCommands: [name], errorCode: 50, appName: 'debtkit' },
      });
      const outcome = await advanceSandbox(faulted.deps)(faulted.scope, BODY)();
      await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
      const where = `${name} #${occurrence + 1} (month 2) failing`;
      expect(E.isLeft(outcome) && outcome.left._tag, `${where}: ${JSON.stringify(outcome)}`).to.equal('unavailable');
      expect(await stateOf(faulted.ctx), `${where}: month 1 whole, nothing of month 2`).to.deep.equal(afterMonth1);
      const again = await advanceSandbox(faulted.deps)(faulted.scope, BODY)();
      expect(E.isRight(again) && again.right.months.map((m) => m.date), `${where}, run again`).to.deep.equal(['2026-05-15', '2026-06-15']);
      expect(await stateOf(faulted.ctx), `${where}, run again: the clean run's state`).to.deep.equal(afterMonth3);
    }
  });

  /** Set the first loan's balance to 100,000 as another process would: one committed write, outside the advance's transaction. */
  const writeBalance = async (ctx: MongoContext): Promise<void> => {
    const first = await ctx.db.collection(COLLECTIONS.accounts).findOne({}, { sort: { _id: 1 } });
    if (first === null) throw new Error('no account');
    const store = mongoStorePorts(ctx);
    const written = await store.accounts.update(first['user_id'] as never, first['_id'] as never, first['version'] as number, {
      balance: 100_000 as never,
    })();
    if (E.isLeft(written)) throw new Error(written.left.message);
  };

  it("a write that commits while a month is computed (off the event loop) is not lost: the month's compare-and-set conflicts and it runs again from a fresh read", async () => {
    const twin = await fresh();
    await writeBalance(twin.ctx);
    expect(E.isRight(await advanceSandbox(twin.deps)(twin.scope, { months: 1, payments: 'minimum' })())).to.equal(true);

    const raced = await fresh();
    const computed: string[] = [];
    const racing: SandboxComputations = {
      sandboxMonth: async (input) => {
        computed.push(input.date);
        if (computed.length === 1) await writeBalance(raced.ctx);
        return inThreadSandboxComputations.sandboxMonth(input);
      },
    };
    const result = await advanceSandbox({ ...raced.deps, sandboxComputations: racing })(raced.scope, { months: 1, payments: 'minimum' })();
    expect(E.isRight(result), JSON.stringify(result)).to.equal(true);
    expect(computed).to.deep.equal(['2026-04-15', '2026-04-15']);
    expect(await stateOf(raced.ctx)).to.deep.equal(await stateOf(twin.ctx));
  });
});
