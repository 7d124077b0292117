/**
 * The shared storage contracts (docs/architecture.md) against the mongo adapter, through the
 * real `mongodb` driver: against the real server at MONGODB_URL when it is set,
 * otherwise against the wire-protocol test server (docs/decisions/mongodb.md). Every test gets a
 * database of its own, dropped afterwards.
 *
 * Then what only a real database shares between processes: two stores (two
 * clients, as two API processes would have) on one database.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { MongoClient } from 'mongodb';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { BureauFlowState, DomainError, StorePorts } from '@debtkit/core';
import {
  CREATED_AT,
  aClient,
  aDelivery,
  aTokenHash,
  anEvent,
  aUser,
  anAccount,
  anId,
  expectAscending,
  expectRight,
  expectSome,
  runStoreContracts,
  concurrencyContract,
  interleavingStore,
  aSandboxToken,
  readableTokenHasher,
} from '@debtkit/core/testing';
import { seedDemo } from '@debtkit/core';
import { COLLECTIONS, INDEXES, connectMongoStore } from '../src/index.js';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';

const REAL_URL = process.env['MONGODB_URL'];
const target = REAL_URL === undefined || REAL_URL === '' ? 'wire-protocol test server' : `real MongoDB at ${redact(REAL_URL)}`;

/** Run a task for its Either (racing tasks are compared by outcome, so neither side may be asserted alone). */
const settle = <A>(task: TE.TaskEither<DomainError, A>): Promise<E.Either<DomainError, A>> => task();

/** A stored document as the adapter writes it: `_id` is an integer. */
interface Stored {
  _id: number;
  [field: string]: unknown;
}

/** The URL without credentials, for the test output. */
function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

describe(`mongo store (${target})`, () => {
  let server: WireServer | undefined;
  let url = '';
  /** Drops the per-test databases; separate from the stores so that it outlives each of them. */
  let admin: MongoClient;
  const databases = new WeakMap<StorePorts, string>();
  // Unique per run, so that runs sharing a real server never meet.
  const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  let next = 0;
  const newDbName = (): string => `debtkit_test_${runId}_${++next}`;

  before(async () => {
    console.log(`    mongo adapter tests run against the ${target}`);
    if (REAL_URL === undefined || REAL_URL === '') {
      server = await startWireServer();
      url = server.url;
    } else {
      url = REAL_URL;
    }
    admin = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  });

  after(async () => {
    await admin.close();
    await server?.stop();
  });

  const makeStore = async (dbName = newDbName()): Promise<StorePorts> => {
    const store = await connectMongoStore(url, { dbName });
    databases.set(store, dbName);
    return store;
  };
  const dropDatabase = async (store: StorePorts): Promise<void> => {
    const dbName = databases.get(store);
    if (dbName !== undefined) await admin.db(dbName).dropDatabase();
  };

  runStoreContracts('mongo store', () => makeStore(), {
    cleanup: dropDatabase,
    // Only the test server can hold a command; against a real MongoDB that case is skipped.
    holdNextWrite: (of) => {
      const collection = of === 'event' ? COLLECTIONS.events : COLLECTIONS.webhookDeliveries;
      return server?.holdNext((command) => command.name === 'insert' && command.body['insert'] === collection);
    },
    writeStoredEndpoint: async (store, record) => {
      const { id, ...rest } = record;
      await admin
        .db(databases.get(store)!)
        .collection<Stored>(COLLECTIONS.webhookEndpoints)
        .insertOne({ _id: id as number, ...rest });
    },
    // A token document as releases before `expires_at` wrote it.
    writeLegacyToken: async (store, record) => {
      const { id, ...rest } = record;
      await admin
        .db(databases.get(store))
        .collection<Stored>(COLLECTIONS.tokens)
        .insertOne({ _id: id, ...rest });
    },
  });
  concurrencyContract(
    'mongo store (interleaved)',
    async () => {
      const store = await makeStore();
      const interleaved = interleavingStore(store);
      databases.set(interleaved, databases.get(store)!);
      return interleaved;
    },
    { cleanup: dropDatabase },
  );

  describe('documents and indexes', () => {
    let store: StorePorts;
    let dbName: string;

    beforeEach(async () => {
      dbName = newDbName();
      store = await makeStore(dbName);
    });
    afterEach(async () => {
      await dropDatabase(store);
      await store.close();
    });

    it('stores a record with its integer id as `_id` and no other copy of it', async () => {
      const user = await expectRight(store.users.create(aUser(anId('client', 1))));
      const document = await admin.db(dbName).collection<Stored>(COLLECTIONS.users).findOne({ _id: user.id });
      expect(document).to.deep.equal({ ...aUser(anId('client', 1)), _id: user.id });
    });

    it('an account stored by an older release without `version` is at version 1 after the next start', async () => {
      const { version: _version, ...old } = { ...anAccount(anId('user', 3)), _id: 77, version: 1 };
      await admin.db(dbName).collection<Stored>(COLLECTIONS.accounts).insertOne(old);
      const restarted = await connectMongoStore(url, { dbName });
      try {
        const found = await expectSome(restarted.accounts.get(anId('user', 3), anId('account', 77)));
        expect(found.version).to.equal(1);
        await expectSome(restarted.accounts.update(anId('user', 3), anId('account', 77), 1, { nickname: 'migrated' }));
      } finally {
        await restarted.close();
      }
    });

    it('stores a bureau flow under `_id` = the user id', async () => {
      const state: BureauFlowState = { _tag: 'validate_otp', consentOnFile: true, otpFailures: 1 };
      await expectRight(store.bureauFlows.save(anId('user', 7), 0, state, CREATED_AT));
      const document = await admin.db(dbName).collection<Stored>(COLLECTIONS.bureauFlows).findOne({ _id: 7 });
      expect(document).to.deep.equal({ _id: 7, version: 1, state, updated_at: CREATED_AT });
    });

    it('creates every index at connect; connecting again to the same database changes nothing', async () => {
      const indexNames = async (): Promise<Record<string, string[]>> => {
        const out: Record<string, string[]> = {};
        for (const [collection, specs] of Object.entries(INDEXES)) {
          if (specs.length === 0) continue;
          out[collection] = (await admin.db(dbName).collection(collection).listIndexes().toArray()).map((i) => String(i['name'])).sort();
        }
        return out;
      };
      const first = await indexNames();
      for (const [collection, specs] of Object.entries(INDEXES)) {
        if (specs.length === 0) continue;
        expect(first[collection], collection).to.deep.equal(['_id_', ...specs.map((s) => String(s.name))].sort());
      }
      const again = await connectMongoStore(url, { dbName });
      try {
        expect(await expectRight(again.health.ping())).to.equal(undefined);
      } finally {
        await again.close();
      }
      expect(await indexNames()).to.deep.equal(first);
      const hash = (await admin.db(dbName).collection(COLLECTIONS.tokens).listIndexes().toArray()).find((i) => i['name'] === 'hash_unique');
      expect(hash?.['unique']).to.equal(true);
    });
  });

  describe('retention of events and deliveries (TTL indexes)', () => {
    let store: StorePorts;
    let dbName: string;
    beforeEach(async () => {
      dbName = newDbName();
      store = await makeStore(dbName);
    });
    afterEach(async () => {
      await dropDatabase(store);
      await store.close();
    });

    it('stores purge_at as a BSON date, and the TTL monitor removes what expired (wire-protocol test server only)', async function () {
      const expired = await expectRight(
        store.events.append(anEvent(anId('client', 1), { expires_at: '2000-01-01T00:00:00.000Z' as never })),
      );
      const kept = await expectRight(store.events.append(anEvent(anId('client', 1))));
      await expectRight(
        store.webhookDeliveries.createMany([
          aDelivery(anId('client', 1), anId('webhook_endpoint', 2), expired.id, { expires_at: '2000-01-01T00:00:00.000Z' as never }),
          aDelivery(anId('client', 1), anId('webhook_endpoint', 2), kept.id),
        ]),
      );
      const events = admin.db(dbName).collection<Stored>(COLLECTIONS.events);
      const stored = await events.findOne({ _id: expired.id });
      expect(stored?.['purge_at']).to.be.instanceOf(Date);
      expect((stored?.['purge_at'] as Date).toISOString()).to.equal(expired.expires_at);
      // A real server's monitor runs on its own every 60 s; only the test server can be asked to run it now.
      if (server === undefined) this.skip();
      expect(server.runTtlMonitor()).to.equal(2);
      expect((await events.find({}).toArray()).map((d) => d._id)).to.deep.equal([kept.id]);
      const deliveries = await admin.db(dbName).collection<Stored>(COLLECTIONS.webhookDeliveries).find({}).toArray();
      expect(deliveries.map((d) => d['event_id'])).to.deep.equal([kept.id]);
    });
  });

  describe('two processes sharing one database', () => {
    let dbName: string;
    let a: StorePorts;
    let b: StorePorts;

    beforeEach(async () => {
      dbName = newDbName();
      a = await makeStore(dbName);
      b = await makeStore(dbName);
    });
    afterEach(async () => {
      await dropDatabase(a);
      await Promise.all([a.close(), b.close()]);
    });

    it('bureau flow compare-and-set: of two concurrent saves from one version, across the stores, exactly one wins', async () => {
      const user = anId('user', 3);
      await expectRight(a.bureauFlows.save(user, 0, { _tag: 'consent' }, CREATED_AT));
      const results = await Promise.all([
        settle(a.bureauFlows.save(user, 1, { _tag: 'validate_otp', consentOnFile: false, otpFailures: 0 }, CREATED_AT)),
        settle(b.bureauFlows.save(user, 1, { _tag: 'initial', consentOnFile: false }, CREATED_AT)),
      ]);
      expect(results.filter(E.isRight)).to.have.length(1);
      expect(results.filter(E.isLeft).map((r) => r.left._tag)).to.deep.equal(['conflict']);
      const winner = results.find(E.isRight)?.right;
      expect(await expectSome(b.bureauFlows.get(user))).to.deep.equal(winner);
      expect(await expectSome(a.bureauFlows.get(user))).to.deep.equal(winner);
    });

    it('bureau flow: two concurrent first saves across the stores → one version 1, one conflict', async () => {
      const user = anId('user', 4);
      const results = await Promise.all([
        settle(a.bureauFlows.save(user, 0, { _tag: 'consent' }, CREATED_AT)),
        settle(b.bureauFlows.save(user, 0, { _tag: 'authenticated' }, CREATED_AT)),
      ]);
      expect(results.filter(E.isRight)).to.have.length(1);
      expect(results.filter(E.isLeft).map((r) => r.left._tag)).to.deep.equal(['conflict']);
      expect((await expectSome(b.bureauFlows.get(user))).version).to.equal(1);
    });

    it('ids come from the shared counters: concurrent creates in both stores never collide and ascend', async () => {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, i) => expectRight((i % 2 === 0 ? a : b).accounts.create(anAccount(anId('user', 1))))),
      );
      const ids = created.map((account) => account.id);
      expect(new Set(ids).size).to.equal(ids.length);
      const listed = await expectRight(b.accounts.listAll(anId('user', 1)));
      expect(listed.map((account) => account.id)).to.deep.equal([...ids].sort((x, y) => x - y));
      const later = await expectRight(a.accounts.create(anAccount(anId('user', 1))));
      expectAscending([...listed.map((account) => account.id), later.id]);
    });

    it('demo seeds racing through both stores on an empty database converge on one demo', async () => {
      const clock = { now: () => new Date('2024-07-01T12:00:00.000Z') };
      const token = aSandboxToken(77);
      const seeds = await Promise.all(
        [a, b, a, b].map((store) => settle(seedDemo({ ...store, clock, tokenHasher: readableTokenHasher }, { token }))),
      );
      const answers = seeds.map((seed) =>
        E.isRight(seed) ? seed.right : expect.fail(`a racing seed failed: ${JSON.stringify(seed.left)}`),
      );
      for (const answer of answers) expect(answer).to.deep.equal(answers[0]);
      const demo = answers[0]!;
      expect((await expectRight(b.clients.list({ limit: 10 }))).items).to.deep.equal([demo.client]);
      // User 1 and the second demo user (docs/decisions/payoff-and-outlook.md), each once.
      expect((await expectRight(a.users.list(demo.client.id, { limit: 10 }))).items).to.deep.equal([demo.user, demo.statementUser]);
      expect(await expectRight(b.accounts.listAll(demo.user.id))).to.deep.equal(demo.accounts);
      expect(await expectRight(b.accounts.listAll(demo.statementUser!.id))).to.deep.equal(demo.statementAccounts);
      expect(await admin.db(dbName).collection(COLLECTIONS.users).countDocuments({})).to.equal(2);
      expect(await admin.db(dbName).collection(COLLECTIONS.accounts).countDocuments({})).to.equal(
        demo.accounts.length + demo.statementAccounts!.length,
      );
      expect(await admin.db(dbName).collection(COLLECTIONS.creditScores).countDocuments({})).to.equal(2);
    });

    it('a token hash taken through one store is a conflict through the other', async () => {
      const client = await expectRight(a.clients.create(aClient()));
      await expectRight(a.tokens.create(client.id, aTokenHash(9), CREATED_AT));
      const second = await settle(b.tokens.create(client.id, aTokenHash(9), CREATED_AT));
      expect(E.isLeft(second) ? second.left._tag : 'right').to.equal('conflict');
    });
  });
});
