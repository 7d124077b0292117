/**
 * The mongo store when the server goes away and comes back (docs/decisions/mongodb.md): an
 * unreachable server is `Left(unavailable)` within the server-selection
 * timeout, never a hang or a thrown error, and the same store works again when
 * the server returns, without reconnecting by hand. Runs against the
 * wire-protocol test server, the only server a test can stop and restart.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { MongoClient } from 'mongodb';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError, StorePorts } from '@debtkit/core';
import { CREATED_AT, aClient, aTokenHash, aUser, anId, expectRight, expectSome } from '@debtkit/core/testing';
import { COLLECTIONS, STORE_UNAVAILABLE, StoredDocumentError, connectMongoStore } from '../src/index.js';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';

const SELECTION_TIMEOUT_MS = 500;
/** Scheduling slack on a loaded CI machine; far below the 5 s default a regression would show. */
const SLACK_MS = 1000;

/** Run a task for its Either; a rejection (a bug, by the adapter's rule) fails the test as it is. */
const run = <A>(task: TE.TaskEither<DomainError, A>): Promise<E.Either<DomainError, A>> => task();

/** Run `task`, returning its result and how long it took. */
const timed = async <A>(task: TE.TaskEither<DomainError, A>): Promise<{ result: E.Either<DomainError, A>; ms: number }> => {
  const started = performance.now();
  const result = await run(task);
  return { result, ms: performance.now() - started };
};

const expectUnavailableWithinTimeout = async <A>(task: TE.TaskEither<DomainError, A>): Promise<void> => {
  const { result, ms } = await timed(task);
  if (E.isRight(result)) expect.fail(`expected Left unavailable, got Right ${JSON.stringify(result.right)}`);
  expect(result.left).to.deep.equal({ _tag: 'unavailable', message: STORE_UNAVAILABLE });
  expect(ms, 'milliseconds until unavailable').to.be.below(SELECTION_TIMEOUT_MS + SLACK_MS);
};

/**
 * After a restart the driver finds the server again on its next check (at most
 * every 500 ms while an operation waits); an operation that started before may
 * still time out. A bounded number of attempts, each bounded by the selection
 * timeout, keeps the test deterministic without sleeping.
 */
const eventuallyRight = async <A>(task: TE.TaskEither<DomainError, A>, attempts = 5): Promise<A> => {
  const lefts: DomainError[] = [];
  for (let i = 0; i < attempts; i++) {
    const result = await run(task);
    if (E.isRight(result)) return result.right;
    expect(result.left._tag, 'only unavailable while the server comes back').to.equal('unavailable');
    lefts.push(result.left);
  }
  return expect.fail(`still unavailable after ${attempts} attempts: ${JSON.stringify(lefts)}`);
};

describe('mongo store faults (wire-protocol test server)', () => {
  let server: WireServer;
  let store: StorePorts;
  let dbCount = 0;

  beforeEach(async () => {
    server = await startWireServer();
    store = await connectMongoStore(server.url, { dbName: `faults_${++dbCount}`, serverSelectionTimeoutMS: SELECTION_TIMEOUT_MS });
  });

  afterEach(async () => {
    await store.close();
    await server.stop();
  });

  it('server stopped mid-run: reads, writes and ping answer Left unavailable within the selection timeout', async () => {
    const client = await expectRight(store.clients.create(aClient()));
    await server.stop();
    await expectUnavailableWithinTimeout(store.clients.findById(client.id));
    await expectUnavailableWithinTimeout(store.clients.create(aClient()));
    await expectUnavailableWithinTimeout(store.users.list(client.id, { limit: 20 }));
    await expectUnavailableWithinTimeout(store.bureauFlows.save(anId('user', 1), 0, { _tag: 'consent' }, CREATED_AT));
    await expectUnavailableWithinTimeout(store.tokens.findByHash(aTokenHash(1)));
    await expectUnavailableWithinTimeout(store.health.ping());
  });

  it('server restarted: the same store works again, data kept, without reconnecting by hand', async () => {
    const client = await expectRight(store.clients.create(aClient()));
    await server.stop();
    await expectUnavailableWithinTimeout(store.clients.findById(client.id));
    await server.restart();
    expect(await eventuallyRight(store.health.ping())).to.equal(undefined);
    expect(await expectSome(store.clients.findById(client.id))).to.deep.equal(client);
    const user = await expectRight(store.users.create(aUser(client.id)));
    expect(user.id).to.equal(1);
    expect(await expectSome(store.users.get(client.id, user.id))).to.deep.equal(user);
  });

  it('a store opened while the server is down does not fail; it creates its indexes once the server answers', async () => {
    const down = await startWireServer();
    const url = down.url;
    await down.stop();
    const late = await connectMongoStore(url, { dbName: 'late', serverSelectionTimeoutMS: SELECTION_TIMEOUT_MS });
    try {
      await expectUnavailableWithinTimeout(late.clients.create(aClient()));
      await down.restart();
      down.commands.length = 0;
      const client = await eventuallyRight(late.clients.create(aClient()));
      expect(client.id).to.equal(1);
      expect(down.commands).to.include('createIndexes');
      // The hash index exists now: a duplicate is a conflict, not a second token.
      await expectRight(late.tokens.create(client.id, aTokenHash(1), CREATED_AT));
      const duplicate = await run(late.tokens.create(client.id, aTokenHash(1), CREATED_AT));
      expect(E.isLeft(duplicate) ? duplicate.left._tag : 'right').to.equal('conflict');
    } finally {
      await late.close();
      await down.stop();
    }
  });

  it('a malformed connection string fails at once with one clear error', async () => {
    let error: unknown;
    try {
      await connectMongoStore('postgres://localhost:5432/debtkit');
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.match(/^MongoDB store: invalid connection string: /);
  });

  it('credentials the server refuses fail at once with one clear error (waiting would not fix them)', async () => {
    // The test server offers no authentication: it answers the handshake's saslStart with an error, as a refusal.
    const withCredentials = server.url.replace('mongodb://', 'mongodb://someone:secret@');
    let error: unknown;
    try {
      await connectMongoStore(withCredentials, { dbName: 'refused', serverSelectionTimeoutMS: SELECTION_TIMEOUT_MS });
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.match(/^MongoDB store: cannot prepare database "refused": /);
    expect((error as Error).message).not.to.include('secret');
  });

  it('a stored document that does not decode is a bug: the task rejects with StoredDocumentError, it is not a Left', async () => {
    const admin = new MongoClient(server.url, { serverSelectionTimeoutMS: SELECTION_TIMEOUT_MS });
    try {
      // Not a Client: no api_version or created_at, and an environment that does not exist.
      const clients = admin.db(`faults_${dbCount}`).collection<{ _id: number; name: string; environment: string }>(COLLECTIONS.clients);
      await clients.insertOne({ _id: 5, name: 'Broken', environment: 'staging' });
      let error: unknown;
      try {
        await store.clients.findById(anId('client', 5))();
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(StoredDocumentError);
      expect((error as StoredDocumentError).message)
        .to.include('"clients"')
        .and.to.include('environment');
    } finally {
      await admin.close();
    }
  });
});
