/**
 * The session commands an operator (and MongoDB's unified test runners) send
 * to clear stuck transactions — killAllSessions, killAllSessionsByPattern —
 * and the collection and index creation MongoDB 7.0 allows inside a
 * transaction, through the real `mongodb` driver.
 */
import { expect } from 'chai';
import { MongoClient, MongoServerError, type ClientSession, type Collection, type Db } from 'mongodb';
import { startWireServer, type WireServer } from '../src/index.js';

type Counter = { _id: number; n: number };
type Entry = { _id: number; ref?: string; from?: string };

async function rejectionOf(promise: Promise<unknown>): Promise<MongoServerError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(MongoServerError);
    return error as MongoServerError;
  }
  return expect.fail('expected the operation to be rejected');
}

describe('mongo wire test server: session commands and catalog changes in transactions', () => {
  let server: WireServer;
  let client: MongoClient;
  let db: Db;
  let counters: Collection<Counter>;
  const sessions: ClientSession[] = [];

  const session = (): ClientSession => {
    const started = client.startSession();
    sessions.push(started);
    return started;
  };

  before(async () => {
    server = await startWireServer();
    client = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000 });
    await client.connect();
  });

  beforeEach(async () => {
    server.reset();
    db = client.db('tx');
    counters = db.collection<Counter>('counters');
    await counters.insertMany([
      { _id: 1, n: 0 },
      { _id: 2, n: 0 },
    ]);
  });

  afterEach(async () => {
    for (const started of sessions.splice(0)) await started.endSession();
  });

  after(async () => {
    await client.close();
    await server.stop();
  });

  describe('killAllSessions', () => {
    it('aborts every open transaction and releases its locks: a conflicting write goes through, a waiting one goes on', async () => {
      const stuck = session();
      stuck.startTransaction();
      await counters.updateOne({ _id: 1 }, { $inc: { n: 100 } }, { session: stuck });

      // While the transaction holds document 1, a second transaction conflicts with it...
      const second = session();
      second.startTransaction();
      const conflict = await rejectionOf(counters.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: second }));
      expect(conflict.code).to.equal(112);
      await second.abortTransaction();
      // ...and a write outside transactions waits for it.
      let waited = false;
      const sent = server.commands.length;
      const waiting = counters.updateOne({ _id: 1 }, { $inc: { n: 10 } }).then((result) => {
        waited = true;
        return result;
      });
      // The server has received it (and answers nothing yet).
      for (let turn = 0; !server.commands.slice(sent).includes('update'); turn += 1) {
        if (turn > 10_000) expect.fail('the update never reached the server');
        await new Promise((resolve) => setImmediate(resolve));
      }
      await counters.findOne({ _id: 2 });
      expect(waited).to.equal(false);

      expect(await client.db('admin').command({ killAllSessions: [] })).to.include({ ok: 1 });

      expect((await waiting).modifiedCount).to.equal(1);
      const third = session();
      third.startTransaction();
      await counters.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: third });
      await third.commitTransaction();
      // The killed transaction is gone: its commit answers NoSuchTransaction, and its write never lands.
      const gone = await rejectionOf(stuck.commitTransaction());
      expect(gone.code).to.equal(251);
      expect(gone.codeName).to.equal('NoSuchTransaction');
      expect(await counters.findOne({ _id: 1 })).to.deep.equal({ _id: 1, n: 11 });
    });

    it('closes the cursors of the killed sessions (getMore answers CursorNotFound, 43)', async () => {
      const reader = session();
      const cursor = counters.find({}, { session: reader, batchSize: 1 });
      expect(await cursor.next()).to.deep.equal({ _id: 1, n: 0 });
      await client.db('admin').command({ killAllSessions: [] });
      const closed = await rejectionOf(cursor.next());
      expect(closed.code).to.equal(43);
    });

    it('with a list of users kills only their sessions: none here, where no session is authenticated', async () => {
      const holder = session();
      holder.startTransaction();
      await counters.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: holder });
      await client.db('admin').command({ killAllSessions: [{ user: 'ops', db: 'admin' }] });
      await holder.commitTransaction();
      expect(await counters.findOne({ _id: 1 })).to.deep.equal({ _id: 1, n: 1 });
      const bad = await rejectionOf(client.db('admin').command({ killAllSessions: [{ user: 'ops' }] }));
      expect(bad.codeName).to.equal('TypeMismatch');
    });
  });

  describe('killAllSessionsByPattern', () => {
    it('kills the session a pattern names by lsid, and leaves the others', async () => {
      const killed = session();
      const kept = session();
      killed.startTransaction();
      kept.startTransaction();
      await counters.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: killed });
      await counters.updateOne({ _id: 2 }, { $inc: { n: 1 } }, { session: kept });

      await client.db('admin').command({ killAllSessionsByPattern: [{ lsid: killed.id }] });

      expect((await rejectionOf(killed.commitTransaction())).code).to.equal(251);
      await kept.commitTransaction();
      expect(await counters.find({}).sort({ _id: 1 }).toArray()).to.deep.equal([
        { _id: 1, n: 0 },
        { _id: 2, n: 1 },
      ]);
    });

    it('kills every session with an empty list', async () => {
      const holder = session();
      holder.startTransaction();
      await counters.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: holder });
      await client.db('admin').command({ killAllSessionsByPattern: [] });
      expect((await rejectionOf(holder.commitTransaction())).code).to.equal(251);
    });
  });

  describe('create and createIndexes inside a transaction (MongoDB 7.0)', () => {
    const names = async (): Promise<string[]> => (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
    const indexNames = async (name: string): Promise<string[]> =>
      (await db.collection(name).listIndexes().toArray()).map((index) => String(index['name'])).sort();

    it('creates a collection, and indexes on it, that nobody sees before the commit and everybody after', async () => {
      const writer = session();
      writer.startTransaction();
      await db.createCollection('ledger', { session: writer });
      await db.collection<Entry>('ledger').createIndex({ ref: 1 }, { unique: true, name: 'ref_1', session: writer });
      await db.collection('orders').createIndex({ at: 1 }, { name: 'at_1', session: writer }); // creates 'orders' too
      await db.collection<Entry>('ledger').insertOne({ _id: 1, ref: 'a' }, { session: writer });
      expect(await db.collection<Entry>('ledger').findOne({ ref: 'a' }, { session: writer })).to.deep.equal({ _id: 1, ref: 'a' });
      expect(await names()).to.deep.equal(['counters']);
      expect(await db.collection<Entry>('ledger').findOne({ ref: 'a' })).to.equal(null);
      await writer.commitTransaction();

      expect(await names()).to.deep.equal(['counters', 'ledger', 'orders']);
      expect(await indexNames('ledger')).to.deep.equal(['_id_', 'ref_1']);
      expect(await indexNames('orders')).to.deep.equal(['_id_', 'at_1']);
      expect((await rejectionOf(db.collection<Entry>('ledger').insertOne({ _id: 2, ref: 'a' }))).code).to.equal(11000);
    });

    it('leaves nothing after an abort', async () => {
      const writer = session();
      writer.startTransaction();
      await db.createCollection('ledger', { session: writer });
      await db.collection<Entry>('ledger').createIndex({ ref: 1 }, { name: 'ref_1', session: writer });
      await db.collection('orders').createIndex({ at: 1 }, { name: 'at_1', session: writer });
      await writer.abortTransaction();
      expect(await names()).to.deep.equal(['counters']);
    });

    it('answers an index that already exists as a no-op, and keeps the transaction', async () => {
      await counters.createIndex({ n: 1 }, { name: 'n_1' });
      const writer = session();
      writer.startTransaction();
      await counters.createIndex({ n: 1 }, { name: 'n_1', session: writer });
      await counters.updateOne({ _id: 1 }, { $set: { n: 5 } }, { session: writer });
      await writer.commitTransaction();
      expect(await counters.findOne({ _id: 1 })).to.deep.equal({ _id: 1, n: 5 });
    });

    it('refuses a new index on an existing collection, or on a non-empty one it created, with OperationNotSupportedInTransaction (263), and aborts', async () => {
      const writer = session();
      writer.startTransaction();
      const existing = await rejectionOf(counters.createIndex({ n: 1 }, { session: writer }));
      expect(existing.code).to.equal(263);
      expect(existing.codeName).to.equal('OperationNotSupportedInTransaction');
      expect((await rejectionOf(writer.commitTransaction())).code).to.equal(251);

      writer.startTransaction();
      await db.createCollection('ledger', { session: writer });
      await db.collection<Entry>('ledger').insertOne({ _id: 1 }, { session: writer });
      const nonEmpty = await rejectionOf(db.collection<Entry>('ledger').createIndex({ ref: 1 }, { session: writer }));
      expect(nonEmpty.code).to.equal(263);
      expect((await rejectionOf(writer.commitTransaction())).code).to.equal(251);
      expect(await names()).to.deep.equal(['counters']);
      expect(await indexNames('counters')).to.deep.equal(['_id_']);
    });

    it('refuses to create an existing collection with NamespaceExists (48), even with the same options', async () => {
      const writer = session();
      writer.startTransaction();
      const exists = await rejectionOf(db.createCollection('counters', { session: writer }));
      expect(exists.code).to.equal(48);
      expect(exists.codeName).to.equal('NamespaceExists');
      expect((await rejectionOf(writer.commitTransaction())).code).to.equal(251);
    });

    it('refuses both with a readConcern other than local, with InvalidOptions (72)', async () => {
      const writer = session();
      writer.startTransaction({ readConcern: { level: 'snapshot' } });
      await counters.findOne({ _id: 1 }, { session: writer });
      const create = await rejectionOf(db.createCollection('ledger', { session: writer }));
      expect(create.code).to.equal(72);
      expect(create.codeName).to.equal('InvalidOptions');
      await writer.abortTransaction().catch(() => undefined);

      writer.startTransaction({ readConcern: { level: 'majority' } });
      const index = await rejectionOf(db.collection<Entry>('ledger').createIndex({ ref: 1 }, { session: writer }));
      expect(index.code).to.equal(72);
      await writer.abortTransaction().catch(() => undefined);

      writer.startTransaction({ readConcern: { level: 'local' } });
      await db.createCollection('ledger', { session: writer });
      await writer.commitTransaction();
      expect(await names()).to.deep.equal(['counters', 'ledger']);
    });

    it('fails the commit with WriteConflict (112, TransientTransactionError) when someone else created the collection meanwhile', async () => {
      const writer = session();
      writer.startTransaction();
      await db.createCollection('ledger', { session: writer });
      await db.collection<Entry>('ledger').insertOne({ _id: 1, from: 'transaction' }, { session: writer });
      await db.collection<Entry>('ledger').insertOne({ _id: 2, from: 'outside' });
      const conflict = await rejectionOf(writer.commitTransaction());
      expect(conflict.code).to.equal(112);
      expect(conflict.hasErrorLabel('TransientTransactionError')).to.equal(true);
      expect(await db.collection<Entry>('ledger').find({}).toArray()).to.deep.equal([{ _id: 2, from: 'outside' }]);
    });
  });
});
