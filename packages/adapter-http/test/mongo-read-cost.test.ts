/**
 * What a read request costs on mongo (DESIGN 9), counted with the driver's
 * command monitoring (`monitorCommands`) on the store's client, and on the
 * wire-protocol test server's own command log for everything the process
 * sends (the rate-limit counters use a connection of their own).
 *
 * With the token cache warm, `GET /api/users/:id/credit_scores` asks the store
 * nothing about the token or the client. It does cost two finds: the user (the
 * scope check: this client owns this user) and the score. The per-client rate
 * limit on mongo adds one command on the counters collection.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import supertest from 'supertest';
import type { CommandStartedEvent } from 'mongodb';
import { mongoStorePorts, openMongoContext } from '@debtkit/adapter-mongo';
import { seedDemo } from '@debtkit/adapter-memory';
import { startWireServer, type WireServer } from '@debtkit/adapter-mongo/test-support';
import { Sha256TokenHasher, generateToken } from '../src/http/token-issuer.js';
import { compose, type Composition } from '../src/main/composition.js';
import { fixedClock } from './support/resource-app.js';

/** Connection upkeep, not a request's work. */
const UPKEEP = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'buildInfo', 'getParameter', 'endSessions', 'saslStart', 'saslContinue']);

describe('mongo read cost with the token cache warm (driver command monitoring, wire-protocol test server)', function () {
  this.timeout(20_000);
  let server: WireServer;
  let composition: Composition | undefined;

  before(async () => {
    server = await startWireServer();
  });
  after(async () => {
    await composition?.close();
    await server.stop();
  });

  it('GET credit score: no token or client lookup, one find for the user scope and one for the score; the mongo rate limit adds one', async () => {
    const dbName = `debtkit_read_cost_${process.pid}`;
    const ctx = await openMongoContext(`${server.url}?monitorCommands=true`, { dbName, serverSelectionTimeoutMS: 2000 });
    const store = mongoStorePorts(ctx);
    const clock = fixedClock();
    composition = await compose({
      store,
      clock,
      // The per-client limit on mongo (its own connection), far above this test's load.
      config: { store: 'mongo', mongodbUrl: `${server.url}${dbName}`, rateLimit: 1_000_000, authFailureLimit: 0 },
    });
    const token = generateToken('sandbox');
    const seeded = await seedDemo({ ...store, clock, tokenHasher: new Sha256TokenHasher() }, { token })();
    if (E.isLeft(seeded)) throw new Error(seeded.left.message);
    const request = supertest(composition.app.callback());
    const path = `/api/users/${seeded.right.user.id}/credit_scores`;
    const auth = { Authorization: `Bearer ${token}` };

    const seen: Array<{ name: string; collection: unknown }> = [];
    ctx.db.client.on('commandStarted', (e: CommandStartedEvent) => {
      if (!UPKEEP.has(e.commandName)) seen.push({ name: e.commandName, collection: e.command[e.commandName] });
    });

    // The first request looks the token up (and fills the cache).
    expect((await request.get(path).set(auth)).status).to.equal(200);
    const cold = seen.splice(0);
    expect(cold.map((c) => c.collection)).to.include.members(['tokens', 'clients']);

    server.commands.length = 0;
    const N = 5;
    for (let i = 0; i < N; i++) expect((await request.get(path).set(auth)).status).to.equal(200);
    const warm = seen.splice(0);
    const all = server.commands.filter((name) => !UPKEEP.has(name));

    // The store's client: per request, the user (scope) and the score; nothing for the token or client.
    expect(warm.filter((c) => c.collection === 'tokens' || c.collection === 'clients'), 'token/client lookups').to.deep.equal([]);
    expect(warm.length / N, `store commands per request: ${JSON.stringify(warm.slice(0, 2))}`).to.equal(2);
    // Everything the process sent, the rate limiter's connection included: one more per request.
    expect(all.length / N, `all commands per request: ${JSON.stringify(all.slice(0, 3))}`).to.equal(3);
  });
});
