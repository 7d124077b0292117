/**
 * The mongo event outbox's visibility horizon (mongo-visible-sequence.ts) beyond
 * the shared contract: an append that never finishes holds later events back
 * (a stored one does not, though its entry stays until the process's next append)
 * only until it counts as abandoned, on the injected clock; abandoned entries
 * are pruned; a counter an older release wrote goes on where it stopped.
 * Against the wire-protocol test server, the only server that can hold a write.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { MongoClient } from 'mongodb';
import type { StorePorts } from '@debtkit/core';
import { anEvent, anId, expectRight, idsOf } from '@debtkit/core/testing';
import { ABANDONED_APPEND_MS, COLLECTIONS, connectMongoStore } from '../src/index.js';
import { startWireServer, type CommandHold, type WireServer } from '@debtkit/mongo-wire-test-server';

const CLIENT = anId('client', 1);
/** The contract's event time (anEvent's created_at). */
const T0 = new Date(anEvent(CLIENT).created_at);
const at = (ms: number): Date => new Date(T0.getTime() + ms);

interface Counter {
  _id: string;
  seq?: number;
  appending?: Array<{ id: number; started_at: string }>;
}

describe('mongo visible sequence: the events horizon (wire-protocol test server)', () => {
  let server: WireServer;
  let admin: MongoClient;
  let store: StorePorts;
  let dbName: string;
  let db = 0;
  let hold: CommandHold | undefined;

  before(async () => {
    server = await startWireServer();
    admin = new MongoClient(server.url);
  });
  after(async () => {
    await admin.close();
    await server.stop();
  });
  beforeEach(async () => {
    dbName = `event_sequence_${++db}`;
    store = await connectMongoStore(server.url, { dbName });
  });
  afterEach(async () => {
    hold?.release();
    hold = undefined;
    await store.close();
    await admin.db(dbName).dropDatabase();
  });

  const counter = async (): Promise<Counter | null> =>
    admin.db(dbName).collection<Counter>(COLLECTIONS.counters).findOne({ _id: COLLECTIONS.events });
  const listed = async (now: Date): Promise<number[]> =>
    idsOf((await expectRight(store.events.list(CLIENT, { limit: 10 }, {}, now))).items);
  const holdEventInsert = (): CommandHold =>
    server.holdNext((command) => command.name === 'insert' && command.body['insert'] === COLLECTIONS.events);

  it('an append in flight holds later events back until it is ABANDONED_APPEND_MS old; then it lands and is listed', async () => {
    hold = holdEventInsert();
    const slow = store.events.append(anEvent(CLIENT))();
    await hold.held;
    const fast = await expectRight(store.events.append(anEvent(CLIENT)));
    // Both entries are listed: the held one is in flight, the stored one leaves with this process's next append.
    expect((await counter())?.appending?.map((entry) => entry.id)).to.deep.equal([fast.id - 1, fast.id]);
    expect(await listed(T0)).to.deep.equal([]);
    expect(await listed(at(ABANDONED_APPEND_MS - 1))).to.deep.equal([]);
    // Abandoned: the gap no longer holds the later event back.
    expect(await listed(at(ABANDONED_APPEND_MS))).to.deep.equal([fast.id]);
    hold.release();
    const late = await slow;
    if (E.isLeft(late)) return expect.fail(JSON.stringify(late.left));
    expect(late.right.id).to.equal(fast.id - 1);
    expect(await listed(T0)).to.deep.equal([late.right.id, fast.id]);
    // The next append drops both stored entries: only its own is left.
    const next = await expectRight(store.events.append(anEvent(CLIENT)));
    expect((await counter())?.appending?.map((entry) => entry.id)).to.deep.equal([next.id]);
  });

  it('the next append prunes abandoned entries; a live one stays', async () => {
    await expectRight(store.events.append(anEvent(CLIENT)));
    const stale = { id: 90, started_at: at(-ABANDONED_APPEND_MS).toISOString() };
    const live = { id: 91, started_at: at(-ABANDONED_APPEND_MS + 1).toISOString() };
    await admin
      .db(dbName)
      .collection<Counter>(COLLECTIONS.counters)
      .updateOne({ _id: COLLECTIONS.events }, { $set: { seq: 91, appending: [stale, live] } });
    const next = await expectRight(store.events.append(anEvent(CLIENT)));
    expect(next.id).to.equal(92);
    expect((await counter())?.appending).to.deep.equal([live, { id: 92, started_at: anEvent(CLIENT).created_at }]);
    // The live entry (91) holds 92 back until it too is abandoned.
    expect(await listed(T0)).to.deep.equal([1]);
    expect(await listed(at(2))).to.deep.equal([1, 92]);
  });

  it('a counter written by an older release (seq only) goes on from its seq', async () => {
    await admin.db(dbName).collection<Counter>(COLLECTIONS.counters).insertOne({ _id: COLLECTIONS.events, seq: 41 });
    const event = await expectRight(store.events.append(anEvent(CLIENT)));
    expect(event.id).to.equal(42);
    expect(await counter()).to.deep.equal({
      _id: COLLECTIONS.events,
      seq: 42,
      appending: [{ id: 42, started_at: anEvent(CLIENT).created_at }],
    });
    expect(await listed(T0)).to.deep.equal([42]);
  });

  it('concurrent appends take distinct ascending ids, all listed; the next append drops their entries', async () => {
    const appended = await Promise.all(Array.from({ length: 8 }, () => expectRight(store.events.append(anEvent(CLIENT)))));
    const ids = appended.map((event) => event.id).sort((a, b) => a - b);
    expect(ids).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await listed(T0)).to.deep.equal(ids);
    await expectRight(store.events.append(anEvent(CLIENT)));
    expect((await counter())?.appending?.map((entry) => entry.id)).to.deep.equal([9]);
  });
});
