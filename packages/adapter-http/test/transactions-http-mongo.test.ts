/**
 * One change, one transaction, over HTTP on mongo (docs/decisions/idempotency.md, docs/decisions/transactions.md; issue 22):
 * for every use case that writes (support/transaction-scenarios.ts), each
 * command its request sends to the store is made to fail once with MongoDB's
 * `failCommand` fail point (scoped with `appName` to the store's connections,
 * as against a real mongod), on the wire-protocol test server. The request
 * answers 503 and nothing of it is committed (every collection compared, record
 * by record); the same request retried (with its Idempotency-Key when it takes
 * one) then has exactly one effect and its events, and sent again it is
 * replayed (keyed) or changes nothing more. Every command the request sends is
 * part of its transaction or before it, so each failure answers 503 (counted:
 * the fail point did fire each time).
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import supertest from 'supertest';
import { MongoClient, type CommandStartedEvent, type Db } from 'mongodb';
import { COLLECTIONS, mongoStorePorts, openMongoContext, type MongoContext } from '@debtkit/adapter-mongo';
import { seedDemo } from '@debtkit/adapter-memory';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { Sha256TokenHasher, generateToken } from '../src/http/token-issuer.js';
import { compose, type Composition } from '../src/main/composition.js';
import { fixedClock } from './support/resource-app.js';
import { ADMIN_TOKEN } from './support/http-harness.js';
import {
  SCENARIOS,
  checkFault,
  clearMongoRecords,
  mongoStoreState,
  probe,
  supertestApi,
  type Api,
} from './support/transaction-scenarios.js';

/** Connection upkeep and session cleanup: not a request's work. */
const UPKEEP = new Set([
  'hello',
  'isMaster',
  'ismaster',
  'ping',
  'buildInfo',
  'getParameter',
  'endSessions',
  'saslStart',
  'saslContinue',
  'killCursors',
]);

describe('a change and its Idempotency-Key commit together over HTTP (mongo, failCommand on the wire-protocol test server)', function () {
  this.timeout(120_000);
  let server: WireServer;
  let admin: MongoClient;
  let composition: Composition | undefined;
  let ctx: MongoContext;
  let db: Db;
  let api: Api;
  const storeCommands: string[] = [];

  before(async () => {
    // No TTL monitor: the fixed clock's events are past their expiry on the real clock, and are part of the state compared.
    server = await startWireServer({ ttlMonitorIntervalMs: 0 });
    admin = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000, appName: 'fault-injector' });
    const dbName = `debtkit_tx_http_${process.pid}`;
    db = admin.db(dbName);
    ctx = await openMongoContext(`${server.url}?monitorCommands=true`, { dbName, serverSelectionTimeoutMS: 500, maxTimeMS: 2000 });
    const store = mongoStorePorts(ctx);
    const clock = fixedClock();
    composition = await compose({
      store,
      clock,
      config: {
        store: 'mongo',
        mongodbUrl: `${server.url}${dbName}`,
        rateLimit: 1_000_000,
        authFailureLimit: 0,
        logLevel: 'error',
        adminToken: ADMIN_TOKEN,
      },
    });
    const token = generateToken('sandbox');
    const seeded = await seedDemo({ ...store, clock, tokenHasher: new Sha256TokenHasher() }, { token, apiVersion: '2024-07-01' })();
    if (E.isLeft(seeded)) throw new Error(seeded.left.message);
    api = supertestApi(supertest(composition.app.callback()), { client: token, admin: ADMIN_TOKEN });
    ctx.db.client.on('commandStarted', (e: CommandStartedEvent) => {
      // The token's lookup (when the token cache's entry has expired) is authentication, not the change's:
      // a read of tokens or clients outside any transaction.
      const collection: unknown = e.command[e.commandName];
      const inTransaction = e.command['autocommit'] === false;
      const authentication =
        !inTransaction && e.commandName === 'find' && (collection === COLLECTIONS.tokens || collection === COLLECTIONS.clients);
      if (!UPKEEP.has(e.commandName) && !authentication) storeCommands.push(e.commandName);
    });
  });
  after(async () => {
    await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
    await admin.close();
    await composition?.close();
    await server.stop();
  });

  const stateOf = () => mongoStoreState(db);
  beforeEach(() => clearMongoRecords(db));

  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: each store command failing once answers 503 with nothing committed; the retry has exactly one effect`, async () => {
      // The probe: what the request sends to the store, and what it changes.
      const effect = await probe({ scenario, api, stateOf, events: COLLECTIONS.events, arm: () => void storeCommands.splice(0) });
      const sent = storeCommands.splice(0);
      expect(sent, 'one transaction').to.include('commitTransaction');

      const seen = new Map<string, number>();
      const outcomes: string[] = [];
      for (const name of sent) {
        const occurrence = seen.get(name) ?? 0;
        seen.set(name, occurrence + 1);
        const where = `${scenario.name}: ${name} #${occurrence + 1} of ${JSON.stringify(sent)} failing`;
        const outcome = await checkFault({
          scenario,
          probe: effect,
          where,
          a: api,
          b: api,
          stateOf,
          arm: async () => {
            await admin.db('admin').command({
              configureFailPoint: 'failCommand',
              mode: { skip: occurrence },
              data: { failCommands: [name], errorCode: 50, appName: 'debtkit' },
            });
          },
          disarm: async () => {
            await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
          },
        });
        outcomes.push(`${where}: ${outcome}`);
      }
      // Every command is the change's, up to and including the commit: each one failing failed the request (the fail point did fire).
      expect(
        outcomes.filter((o) => o.endsWith('succeeded')),
        JSON.stringify(outcomes),
      ).to.deep.equal([]);
    });
  }
});
