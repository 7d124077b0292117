/**
 * One change, one transaction, over HTTP on mongo (DESIGN 4.2, 4.6; issue 22):
 * each command a keyed request sends to the store is made to fail once with
 * MongoDB's `failCommand` fail point (scoped with `appName` to the store's
 * connections, as against a real mongod), on the wire-protocol test server.
 * The request answers 503 and nothing of it is committed; the same request
 * retried with its Idempotency-Key then has exactly one effect and one event
 * (a DELETE takes no key: retried, it deletes once; sent again, it finds nothing).
 * Every command the request sends is part of its transaction or before it, so
 * each failure answers 503 (counted: the fail point did fire each time).
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import supertest from 'supertest';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { COLLECTIONS, mongoStorePorts, openMongoContext, type MongoContext } from '@debtkit/adapter-mongo';
import { seedDemo } from '@debtkit/adapter-memory';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { Sha256TokenHasher, generateToken } from '../src/http/token-issuer.js';
import { compose, type Composition } from '../src/main/composition.js';
import { fixedClock } from './support/resource-app.js';

/** Connection upkeep and session cleanup: not a request's work. */
const UPKEEP = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'buildInfo', 'getParameter', 'endSessions', 'saslStart', 'saslContinue', 'killCursors']);
/** What a request's effect is measured in (the key's record, counters and the rate limit are not effects). */
const EFFECTS = [COLLECTIONS.users, COLLECTIONS.accounts, COLLECTIONS.creditScores, COLLECTIONS.paymentPlans, COLLECTIONS.planPayments, COLLECTIONS.events];

type State = Record<string, number>;

const stateOf = async (ctx: MongoContext): Promise<State> => {
  const state: State = {};
  for (const name of EFFECTS) state[name] = await ctx.db.collection(name).countDocuments({});
  const balances = await ctx.db.collection(COLLECTIONS.accounts).aggregate([{ $group: { _id: null, total: { $sum: '$balance' } } }]).toArray();
  state['balance'] = (balances[0]?.['total'] as number | undefined) ?? 0;
  return state;
};
const plus = (a: State, delta: State): State => Object.fromEntries(Object.keys(a).map((k) => [k, (a[k] ?? 0) + (delta[k] ?? 0)]));
const minus = (a: State, b: State): State => Object.fromEntries(Object.keys(a).map((k) => [k, (a[k] ?? 0) - (b[k] ?? 0)]));

interface Request {
  readonly method: 'post' | 'delete';
  readonly path: string;
  readonly body?: object;
}

describe('a change and its Idempotency-Key commit together over HTTP (mongo, failCommand on the wire-protocol test server)', function () {
  this.timeout(120_000);
  let server: WireServer;
  let admin: MongoClient;
  let composition: Composition | undefined;
  let ctx: MongoContext;
  let request: ReturnType<typeof supertest>;
  let auth: Record<string, string>;
  const storeCommands: string[] = [];

  before(async () => {
    server = await startWireServer();
    admin = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000, appName: 'fault-injector' });
    const dbName = `debtkit_tx_http_${process.pid}`;
    ctx = await openMongoContext(`${server.url}?monitorCommands=true`, { dbName, serverSelectionTimeoutMS: 500, maxTimeMS: 2000 });
    const store = mongoStorePorts(ctx);
    const clock = fixedClock();
    composition = await compose({
      store,
      clock,
      config: { store: 'mongo', mongodbUrl: `${server.url}${dbName}`, rateLimit: 1_000_000, authFailureLimit: 0, logLevel: 'error' },
    });
    const token = generateToken('sandbox');
    const seeded = await seedDemo({ ...store, clock, tokenHasher: new Sha256TokenHasher() }, { token })();
    if (E.isLeft(seeded)) throw new Error(seeded.left.message);
    request = supertest(composition.app.callback());
    auth = { Authorization: `Bearer ${token}` };
    ctx.db.client.on('commandStarted', (e: CommandStartedEvent) => {
      // The token's lookup (when the token cache's entry has expired) is authentication, not the change's.
      const collection: unknown = e.command[e.commandName];
      if (!UPKEEP.has(e.commandName) && collection !== COLLECTIONS.tokens && collection !== COLLECTIONS.clients) storeCommands.push(e.commandName);
    });
  });
  after(async () => {
    await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
    await admin.close();
    await composition?.close();
    await server.stop();
  });

  /** A user with a loan account and a plan over it, made over HTTP (before any fail point). */
  const aUserWithPlan = async () => {
    const user = await request.post('/api/users').set(auth).send({ first_name: 'Ada', last_name: 'Lovelace', email: `ada.${Date.now()}.${Math.random()}@example.com` });
    expect(user.status, JSON.stringify(user.body)).to.equal(201);
    const userPath = `/api/users/${String(user.body.id)}`;
    const account = await request
      .post(`${userPath}/accounts`)
      .set(auth)
      .send({ name: 'Car loan', type: 'loan', subtype: 'auto_loan', balance: 1_000_000, apr: 0.07, minimum_payment: 20_000 });
    expect(account.status, JSON.stringify(account.body)).to.equal(201);
    const plan = await request.post(`${userPath}/payment_plans`).set(auth).send({ strategy: 'avalanche', monthly_payment: 50_000 });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
    return { userPath, accountId: account.body.id as number, planId: plan.body.id as number };
  };

  const send = (r: Request, key: string) => {
    const req = r.method === 'post' ? request.post(r.path) : request.delete(r.path);
    return (r.body === undefined ? req : req.send(r.body)).set(auth).set('Idempotency-Key', key);
  };

  /** `again`: what the request sent once more after its retry answers (a kept POST replays; a DELETE, which takes no key, finds nothing). */
  const SCENARIOS: ReadonlyArray<{ readonly name: string; readonly status: number; readonly again?: number; readonly make: () => Promise<Request> }> = [
    {
      name: 'a plan payment',
      status: 201,
      make: async () => {
        const u = await aUserWithPlan();
        return { method: 'post', path: `${u.userPath}/payment_plans/${u.planId}/payments`, body: { account_id: u.accountId, amount: 1_000 } };
      },
    },
    {
      name: 'a plan creation',
      status: 201,
      make: async () => ({ method: 'post', path: `${(await aUserWithPlan()).userPath}/payment_plans`, body: { strategy: 'snowball', monthly_payment: 60_000 } }),
    },
    {
      name: 'an account creation',
      status: 201,
      make: async () => ({
        method: 'post',
        path: `${(await aUserWithPlan()).userPath}/accounts`,
        body: { name: 'Store card', type: 'loan', subtype: 'credit_card_loan', balance: 12_000, apr: 0.25, minimum_payment: 2_500 },
      }),
    },
    { name: 'a user deletion', status: 204, again: 404, make: async () => ({ method: 'delete', path: (await aUserWithPlan()).userPath }) },
  ];

  let keys = 0;
  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: each store command failing once answers 503 with nothing committed; the retry with its key has exactly one effect and one event`, async () => {
      // The probe: what the request sends to the store, and what it changes.
      const probe = await scenario.make();
      const start = await stateOf(ctx);
      storeCommands.length = 0;
      expect((await send(probe, `probe-${++keys}`)).status).to.equal(scenario.status);
      const sent = storeCommands.splice(0);
      const effect = minus(await stateOf(ctx), start);
      expect(sent, 'one transaction').to.include('commitTransaction');
      expect(effect[COLLECTIONS.events], 'one event').to.equal(1);

      const seen = new Map<string, number>();
      let unavailable = 0;
      const succeeded: string[] = [];
      for (const name of sent) {
        const occurrence = seen.get(name) ?? 0;
        seen.set(name, occurrence + 1);
        const where = `${name} #${occurrence + 1} of ${JSON.stringify(sent)} failing`;
        const r = await scenario.make();
        const before = await stateOf(ctx);
        const key = `fault-${++keys}`;
        await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: { skip: occurrence }, data: { failCommands: [name], errorCode: 50, appName: 'debtkit' } });
        const failed = await send(r, key);
        await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
        if (failed.status === scenario.status) {
          expect(await stateOf(ctx), `${where}: answered success, so all of it`).to.deep.equal(plus(before, effect));
          succeeded.push(where);
          continue;
        }
        expect(failed.status, `${where}: ${JSON.stringify(failed.body)}`).to.equal(503);
        unavailable += 1;
        expect(await stateOf(ctx), `${where}: answered 503, so none of it`).to.deep.equal(before);
        const retried = await send(r, key);
        expect(retried.status, `${where}, then retried: ${JSON.stringify(retried.body)}`).to.equal(scenario.status);
        expect(retried.headers['idempotent-replayed'], `${where}: the retry runs`).to.equal(undefined);
        const replayed = await send(r, key);
        expect(replayed.status, `${where}, sent again`).to.equal(scenario.again ?? scenario.status);
        if (scenario.again === undefined) expect(replayed.headers['idempotent-replayed'], `${where}: kept`).to.equal('true');
        expect(await stateOf(ctx), `${where}, then retried: exactly one effect and one event`).to.deep.equal(plus(before, effect));
      }
      // Every command is the change's, up to and including the commit: each one failing failed the request (the fail point did fire).
      expect(unavailable, JSON.stringify(succeeded)).to.equal(sent.length);
    });
  }
});
