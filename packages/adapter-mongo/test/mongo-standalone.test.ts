/**
 * A standalone MongoDB server has no transactions (docs/decisions/transactions.md): refused at
 * start when it answers then; found later (down at start), `/readyz`'s ping and
 * every transaction answer `unavailable` with the reason, told once to the
 * caller's log. Against the wire-protocol test server's standalone mode.
 */
import { expect } from 'chai';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { aClient, expectRight } from '@debtkit/core/testing';
import { STANDALONE_REASON, connectMongoStore, mongoStorePorts, mongoUnitOfWork, openMongoContext } from '../src/index.js';

describe('mongo store on a standalone server (wire-protocol test server, standalone mode)', () => {
  let server: WireServer;

  afterEach(async () => {
    await server.stop();
  });

  it('refuses to start when the server answers and is standalone, in one line saying why', async () => {
    server = await startWireServer({ standalone: true });
    const refused = await connectMongoStore(server.url, { dbName: 'standalone_start', serverSelectionTimeoutMS: 500 }).then(
      () => expect.fail('a standalone server was accepted'),
      (error: unknown) => error as Error,
    );
    expect(refused.message).to.equal(`MongoDB store: ${STANDALONE_REASON}`);
    expect(refused.message).not.to.include('\n');
  });

  it('a replica set member is accepted', async () => {
    server = await startWireServer();
    const store = await connectMongoStore(server.url, { dbName: 'replica_start', serverSelectionTimeoutMS: 500 });
    await expectRight(store.health.ping());
    await store.close();
  });

  it('down at start, standalone later: ping and transactions answer unavailable with the reason, reported once; reads still work', async () => {
    server = await startWireServer({ standalone: true });
    await server.stop();
    const reported: string[] = [];
    const ctx = await openMongoContext(server.url, {
      dbName: 'standalone_later',
      serverSelectionTimeoutMS: 300,
      onStandalone: (reason) => reported.push(reason),
    });
    const store = mongoStorePorts(ctx);
    try {
      expect(await store.health.ping()()).to.deep.include({ _tag: 'Left' });
      await server.restart();
      const unavailable = { _tag: 'Left', left: { _tag: 'unavailable', message: STANDALONE_REASON, explained: true } };
      let ping = await store.health.ping()();
      // The driver finds the restarted server on its next check; bounded attempts, no sleep.
      for (let i = 0; i < 5 && ping._tag === 'Left' && ping.left.message !== STANDALONE_REASON; i++) ping = await store.health.ping()();
      expect(ping).to.deep.equal(unavailable);
      const uow = mongoUnitOfWork(ctx);
      expect(await uow.run((ports) => ports.clients.create(aClient()))()).to.deep.equal(unavailable);
      expect(await uow.run(() => TE.right(1))()).to.deep.equal(unavailable);
      expect(await store.health.ping()()).to.deep.equal(unavailable);
      expect(reported).to.deep.equal([STANDALONE_REASON]);
      // Nothing was written by the refused transaction.
      expect(await expectRight(store.clients.list({ limit: 10 }))).to.deep.equal({ items: [], hasMore: false });
    } finally {
      await store.close();
    }
  });
});
