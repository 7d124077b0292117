import { expect } from 'chai';
import net from 'node:net';
import { Long, MongoClient, MongoServerError, ObjectId, Timestamp, type Db, type Document } from 'mongodb';
import { startWireServer, type WireServer } from '../src/index.js';
import { MessageFramer, crc32c, decodeReplyBody, encodeOpMsg } from '../src/wire-protocol.js';

/** Documents with integer ids, as debtkit stores them. */
type NumberId = Document & { _id: number };

/** Resolves with the rejection of `promise`; fails the test if it fulfils. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  expect.fail('expected the operation to be rejected');
}

describe('mongo wire-protocol test server, through the real mongodb driver', () => {
  let server: WireServer;
  let client: MongoClient;
  let db: Db;

  before(async () => {
    server = await startWireServer();
    client = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000 });
    await client.connect();
    db = client.db('wire_test');
  });

  beforeEach(() => server.reset());

  after(async () => {
    await client.close();
    await server.stop();
  });

  it('listens on a loopback URL with the chosen port and answers ping after the handshake', async () => {
    expect(server.url).to.equal(`mongodb://127.0.0.1:${server.port}/`);
    expect(server.port).to.be.above(0);
    const reply = await db.command({ ping: 1 });
    expect(reply['ok']).to.equal(1);
    expect(server.commands).to.include('ping');
    expect(server.commands.some((name) => ['ismaster', 'isMaster', 'hello'].includes(name))).to.equal(true);
  });

  it('inserts one and many, then finds with filter, sort, limit and projection', async () => {
    const people = db.collection('people');
    const one = await people.insertOne({ name: 'ada', age: 36 });
    expect(one.insertedId).to.be.instanceOf(ObjectId);
    const many = await people.insertMany([
      { name: 'bob', age: 25 },
      { name: 'cy', age: 41 },
      { name: 'di', age: 30 },
      { name: 'ed', age: 52 },
    ]);
    expect(many.insertedCount).to.equal(4);

    const found = await people
      .find({ age: { $gte: 30 } })
      .sort({ age: -1 })
      .limit(3)
      .project({ _id: 0, name: 1 })
      .toArray();
    expect(found).to.deep.equal([{ name: 'ed' }, { name: 'cy' }, { name: 'ada' }]);

    const byId = await people.findOne({ _id: one.insertedId });
    expect(byId).to.deep.equal({ _id: one.insertedId, name: 'ada', age: 36 });
  });

  it('pages a cursor across getMore with a small batch size', async () => {
    const items = db.collection<NumberId>('items');
    await items.insertMany(Array.from({ length: 25 }, (_, n) => ({ _id: n + 1, n: n + 1 })));
    server.commands.length = 0;

    const all = await items.find({}).sort({ n: 1 }).batchSize(4).toArray();
    expect(all.map((item) => item['n'])).to.deep.equal(Array.from({ length: 25 }, (_, n) => n + 1));
    // 4 in the first batch, then 21 more in batches of 4.
    expect(server.commands.filter((name) => name === 'getMore')).to.have.length(6);
  });

  it('answers cursor ids as int64 and honours getMore and killCursors', async () => {
    await db.collection('items').insertMany(Array.from({ length: 10 }, (_, n) => ({ n })));
    const first = await db.command({ find: 'items', batchSize: 3 }, { promoteLongs: false });
    const cursorId: unknown = first['cursor'].id;
    expect(cursorId).to.be.instanceOf(Long);
    expect((cursorId as Long).isZero()).to.equal(false);
    expect(first['cursor'].firstBatch).to.have.length(3);
    expect(first['cursor'].ns).to.equal('wire_test.items');

    const next = await db.command({ getMore: cursorId, collection: 'items', batchSize: 2 }, { promoteLongs: false });
    expect(next['cursor'].nextBatch.map((item: Document) => item['n'])).to.deep.equal([3, 4]);

    const killed = await db.command({ killCursors: 'items', cursors: [cursorId] }, { promoteLongs: false });
    expect(killed['cursorsKilled']).to.have.length(1);
    const gone = await rejectionOf(db.command({ getMore: cursorId, collection: 'items' }));
    expect(gone).to.be.instanceOf(MongoServerError).and.to.include({ code: 43 });
  });

  it('updates with $set and $inc, reports unmodified matches, and upserts with $setOnInsert', async () => {
    const accounts = db.collection<NumberId>('accounts');
    await accounts.insertMany([
      { _id: 1, owner: 'a', balance: 100 },
      { _id: 2, owner: 'a', balance: 50 },
    ]);

    const changed = await accounts.updateOne({ _id: 1 }, { $set: { status: 'active' }, $inc: { balance: -30 } });
    expect(changed).to.include({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    expect(await accounts.findOne({ _id: 1 })).to.deep.equal({ _id: 1, owner: 'a', balance: 70, status: 'active' });

    const unchanged = await accounts.updateOne({ _id: 1 }, { $set: { status: 'active' } });
    expect(unchanged).to.include({ matchedCount: 1, modifiedCount: 0 });

    const both = await accounts.updateMany({ owner: 'a' }, { $inc: { balance: 1 } });
    expect(both).to.include({ matchedCount: 2, modifiedCount: 2 });

    const inserted = await accounts.updateOne(
      { owner: 'b', kind: 'loan' },
      { $set: { balance: 10 }, $setOnInsert: { created: 'now' } },
      { upsert: true },
    );
    expect(inserted).to.include({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1 });
    expect(inserted.upsertedId).to.be.instanceOf(ObjectId);
    expect(await accounts.findOne({ owner: 'b' })).to.deep.equal({
      _id: inserted.upsertedId,
      owner: 'b',
      kind: 'loan',
      balance: 10,
      created: 'now',
    });

    // On a match, $setOnInsert is not applied.
    const matched = await accounts.updateOne(
      { owner: 'b', kind: 'loan' },
      { $set: { balance: 20 }, $setOnInsert: { created: 'again' } },
      { upsert: true },
    );
    expect(matched).to.include({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    expect(await accounts.findOne({ owner: 'b' }, { projection: { _id: 0, balance: 1, created: 1 } })).to.deep.equal({
      balance: 20,
      created: 'now',
    });
  });

  it('replaces documents keeping their _id, and refuses to change an _id', async () => {
    const users = db.collection<NumberId>('users');
    await users.insertOne({ _id: 7, name: 'old', extra: true });
    const replaced = await users.replaceOne({ _id: 7 }, { name: 'new' });
    expect(replaced).to.include({ matchedCount: 1, modifiedCount: 1 });
    expect(await users.findOne({ _id: 7 })).to.deep.equal({ _id: 7, name: 'new' });

    const error = await rejectionOf(users.updateOne({ _id: 7 }, { $set: { _id: 8 } }));
    expect(error).to.be.instanceOf(MongoServerError).and.to.include({ code: 66 });
  });

  it('lets an upsert take its _id from $setOnInsert and accepts $set of _id to its current value', async () => {
    const clients = db.collection<NumberId>('clients');
    const upsert = await clients.updateOne({ email: 'e@x.test' }, { $setOnInsert: { _id: 42, email: 'e@x.test' } }, { upsert: true });
    expect(upsert.upsertedId).to.equal(42);
    const same = await clients.updateOne({ _id: 42 }, { $set: { _id: 42, name: 'n' } });
    expect(same).to.include({ matchedCount: 1, modifiedCount: 1 });
    expect(await clients.findOne({})).to.deep.equal({ _id: 42, email: 'e@x.test', name: 'n' });
  });

  it('updates only the first match without multi, and applies pipeline updates', async () => {
    const flags = db.collection<NumberId>('flags');
    await flags.insertMany([
      { _id: 1, on: false, n: 1 },
      { _id: 2, on: false, n: 2 },
    ]);
    const first = await flags.updateOne({ on: false }, { $set: { on: true } });
    expect(first).to.include({ matchedCount: 1, modifiedCount: 1 });
    expect(await flags.find({ on: true }, { projection: { _id: 1 } }).toArray()).to.deep.equal([{ _id: 1 }]);
    await flags.updateMany({}, [{ $set: { double: { $multiply: ['$n', 2] } } }]);
    expect(await flags.find({}, { projection: { _id: 0, double: 1 } }).toArray()).to.deep.equal([{ double: 2 }, { double: 4 }]);
  });

  it('allocates sequential ids with findOneAndUpdate $inc upsert returning the document after', async () => {
    const counters = db.collection<{ _id: string; seq: number }>('counters');
    const next = async (): Promise<number | undefined> =>
      (await counters.findOneAndUpdate({ _id: 'users' }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' }))?.seq;
    expect([await next(), await next(), await next()]).to.deep.equal([1, 2, 3]);

    const before = await counters.findOneAndUpdate({ _id: 'users' }, { $inc: { seq: 1 } }, { returnDocument: 'before' });
    expect(before).to.deep.equal({ _id: 'users', seq: 3 });
    const missing = await counters.findOneAndUpdate({ _id: 'nothing' }, { $inc: { seq: 1 } });
    expect(missing).to.equal(null);

    const withMetadata = await counters.findOneAndUpdate(
      { _id: 'plans' },
      { $inc: { seq: 1 } },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true, projection: { _id: 0 } },
    );
    expect(withMetadata.value).to.deep.equal({ seq: 1 });
    expect(withMetadata.lastErrorObject).to.deep.equal({ n: 1, updatedExisting: false, upserted: 'plans' });
  });

  it('removes with findOneAndDelete in sort order', async () => {
    const jobs = db.collection('jobs');
    await jobs.insertMany([{ p: 2 }, { p: 9 }, { p: 5 }]);
    const removed = await jobs.findOneAndDelete({}, { sort: { p: -1 }, projection: { _id: 0 } });
    expect(removed).to.deep.equal({ p: 9 });
    expect(await jobs.countDocuments()).to.equal(2);
  });

  it('deletes one and many', async () => {
    const tokens = db.collection('tokens');
    await tokens.insertMany([{ client: 1 }, { client: 1 }, { client: 1 }, { client: 2 }]);
    expect((await tokens.deleteOne({ client: 1 })).deletedCount).to.equal(1);
    expect((await tokens.deleteMany({ client: 1 })).deletedCount).to.equal(2);
    expect((await tokens.deleteMany({ client: 3 })).deletedCount).to.equal(0);
    expect(await tokens.find({}, { projection: { _id: 0 } }).toArray()).to.deep.equal([{ client: 2 }]);
  });

  it('counts documents (aggregate) and estimates the count (count command)', async () => {
    const plans = db.collection('plans');
    expect(await plans.countDocuments({ user: 1 })).to.equal(0);
    await plans.insertMany([{ user: 1 }, { user: 1 }, { user: 2 }]);
    expect(await plans.countDocuments({ user: 1 })).to.equal(2);
    expect(await plans.countDocuments({}, { limit: 1 })).to.equal(1);
    expect(await plans.estimatedDocumentCount()).to.equal(3);
  });

  it('aggregates with $match, $group, $sort, $skip, $limit and $project', async () => {
    const payments = db.collection('payments');
    await payments.insertMany([
      { account: 'a', amount: 10 },
      { account: 'b', amount: 5 },
      { account: 'a', amount: 7 },
      { account: 'c', amount: 1 },
    ]);
    const totals = await payments
      .aggregate([
        { $match: { amount: { $gt: 1 } } },
        { $group: { _id: '$account', total: { $sum: '$amount' } } },
        { $sort: { total: -1 } },
        { $skip: 0 },
        { $limit: 5 },
        { $project: { _id: 0, account: '$_id', total: 1 } },
      ])
      .toArray();
    expect(totals).to.deep.equal([
      { total: 17, account: 'a' },
      { total: 5, account: 'b' },
    ]);
  });

  it('enforces unique indexes on insert, update and upsert with code 11000', async () => {
    const tokens = db.collection('tokens');
    expect(await tokens.createIndex({ hash: 1 }, { unique: true })).to.equal('hash_1');
    // Creating it again is idempotent, as at adapter start-up.
    expect(await tokens.createIndex({ hash: 1 }, { unique: true })).to.equal('hash_1');
    const indexes = await tokens.listIndexes().toArray();
    expect(indexes.map((index) => [index['name'], index['unique'] === true])).to.deep.equal([
      ['_id_', false],
      ['hash_1', true],
    ]);

    await tokens.insertOne({ hash: 'x' });
    const duplicate = await rejectionOf(tokens.insertOne({ hash: 'x' }));
    expect(duplicate).to.be.instanceOf(MongoServerError).and.to.include({ code: 11000 });
    expect((duplicate as MongoServerError).message).to.match(/^E11000 duplicate key error collection: wire_test\.tokens index: hash_1/);
    expect((duplicate as MongoServerError)['keyValue']).to.deep.equal({ hash: 'x' });

    await tokens.insertOne({ hash: 'y' });
    const onUpdate = await rejectionOf(tokens.updateOne({ hash: 'y' }, { $set: { hash: 'x' } }));
    expect(onUpdate).to.be.instanceOf(MongoServerError).and.to.include({ code: 11000 });
    const onUpsert = await rejectionOf(tokens.findOneAndUpdate({ hash: 'x', other: true }, { $set: { n: 1 } }, { upsert: true }));
    expect(onUpsert).to.be.instanceOf(MongoServerError).and.to.include({ code: 11000 });

    const sameId = await rejectionOf(tokens.insertOne({ _id: (await tokens.findOne({ hash: 'y' }))?._id, hash: 'z' }));
    expect(sameId).to.be.instanceOf(MongoServerError).and.to.include({ code: 11000 });
    expect(await tokens.countDocuments()).to.equal(2);
  });

  it('holdNext holds one matching command until release, while other connections go on; a release before it arrives cancels the hold', async () => {
    const docs = client.db('hold').collection<{ _id: number }>('docs');
    const hold = server.holdNext((command) => command.name === 'insert' && command.body['insert'] === 'docs');
    const held = docs.insertOne({ _id: 1 });
    await hold.held;
    // The held insert has not run: a read (on another pooled connection) and a later insert go on.
    expect(await docs.find({}).toArray()).to.deep.equal([]);
    await docs.insertOne({ _id: 2 });
    expect(await docs.find({}).toArray()).to.deep.equal([{ _id: 2 }]);
    hold.release();
    hold.release();
    expect((await held).insertedId).to.equal(1);
    expect(await docs.find({}).sort({ _id: 1 }).toArray()).to.deep.equal([{ _id: 1 }, { _id: 2 }]);
    const cancelled = server.holdNext((command) => command.name === 'insert');
    cancelled.release();
    await docs.insertOne({ _id: 3 });
    expect(await docs.countDocuments({})).to.equal(3);
  });

  describe('refuses what it does not implement, with the error mongod answers (src/refusals.ts)', () => {
    const refusal = async (promise: Promise<unknown>): Promise<MongoServerError> => {
      const error = await rejectionOf(promise);
      expect(error).to.be.instanceOf(MongoServerError);
      return error as MongoServerError;
    };

    it('a collation other than simple: BadValue (2) on every command that takes one, and nothing written', async () => {
      const words = db.collection<NumberId>('words');
      await words.insertMany([
        { _id: 1, word: 'cafe' },
        { _id: 2, word: 'CAFE' },
      ]);
      const french = { locale: 'fr', strength: 1 };
      const attempts: Array<[string, Promise<unknown>]> = [
        ['find', words.find({ word: 'cafe' }, { collation: french }).toArray()],
        ['aggregate', words.aggregate([{ $match: { word: 'cafe' } }], { collation: french }).toArray()],
        ['countDocuments', words.countDocuments({ word: 'cafe' }, { collation: french })],
        ['count', words.count({ word: 'cafe' }, { collation: french })],
        ['distinct', words.distinct('word', {}, { collation: french })],
        ['findOneAndUpdate', words.findOneAndUpdate({ word: 'cafe' }, { $set: { seen: true } }, { collation: french })],
        ['createIndex', words.createIndex({ word: 1 }, { collation: french })],
        ['createCollection', db.createCollection('french', { collation: french })],
      ];
      for (const [what, attempt] of attempts) {
        const error = await refusal(attempt);
        expect([what, error.code, error.codeName], error.message).to.deep.equal([what, 2, 'BadValue']);
        expect(error.message).to.equal(
          `Field 'locale' is not a valid ICU locale in: { locale: "fr", strength: 1 } (the wire test server implements only the simple collation)`,
        );
      }
      // In a write command each statement fails alone, as a write error.
      const updated = await refusal(words.updateMany({ word: 'cafe' }, { $set: { seen: true } }, { collation: french }));
      expect([updated.code, updated.message]).to.deep.equal([
        2,
        `Field 'locale' is not a valid ICU locale in: { locale: "fr", strength: 1 } (the wire test server implements only the simple collation)`,
      ]);
      const deleted = await refusal(words.deleteOne({ word: 'CAFE' }, { collation: french }));
      expect(deleted.code).to.equal(2);
      expect(await words.find({}, { sort: { _id: 1 } }).toArray()).to.deep.equal([
        { _id: 1, word: 'cafe' },
        { _id: 2, word: 'CAFE' },
      ]);
      expect((await db.listCollections({ name: 'french' }).toArray()).length).to.equal(0);
      expect((await words.listIndexes().toArray()).map((index) => index['name'])).to.deep.equal(['_id_']);
      // The simple collation is binary comparison, as without one; simple with options is malformed (FailedToParse, 9).
      expect(await words.find({ word: 'cafe' }, { collation: { locale: 'simple' } }).toArray()).to.deep.equal([{ _id: 1, word: 'cafe' }]);
      const malformed = await refusal(words.find({}, { collation: { locale: 'simple', strength: 2 } }).toArray());
      expect([malformed.code, malformed.message]).to.deep.equal([
        9,
        'If locale=simple, no other fields should be present in: { locale: "simple", strength: 2 }',
      ]);
    });

    it('readConcern snapshot outside a transaction: InvalidOptions (72) on reads and writes, nothing written; inside a transaction it still works', async () => {
      const items = db.collection<NumberId>('items');
      await items.insertOne({ _id: 1, n: 1 });
      const snapshot = client.startSession({ snapshot: true });
      try {
        for (const attempt of [
          items.find({}, { session: snapshot }).toArray(),
          items.aggregate([], { session: snapshot }).toArray(),
          items.distinct('n', {}, { session: snapshot }),
        ]) {
          const error = await refusal(attempt);
          expect([error.code, error.codeName]).to.deep.equal([72, 'InvalidOptions']);
          expect(error.message).to.match(/^Storage engine does not support read concern: \{ level: "snapshot" \}/);
        }
        const write = await refusal(items.insertOne({ _id: 2, n: 2 }, { session: snapshot }));
        expect([write.code, write.codeName, write.message]).to.deep.equal([
          72,
          'InvalidOptions',
          'Command does not support read concern { level: "snapshot" }',
        ]);
        const update = await refusal(items.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: snapshot }));
        expect(update.code).to.equal(72);
      } finally {
        await snapshot.endSession();
      }
      const raw = await refusal(
        db.command({ update: 'items', updates: [{ q: { _id: 1 }, u: { $inc: { n: 1 } } }], readConcern: { level: 'snapshot' } }),
      );
      expect(raw.code).to.equal(72);
      expect(await items.find({}, { sort: { _id: 1 } }).toArray()).to.deep.equal([{ _id: 1, n: 1 }]);
      // debtkit's transactions read at snapshot (packages/adapter-mongo/src/mongo-unit-of-work.ts).
      const session = client.startSession();
      try {
        await session.withTransaction(
          async () => {
            const [item] = await items.find({ _id: 1 }, { session }).toArray();
            await items.updateOne({ _id: 1 }, { $set: { n: (item?.n ?? 0) + 1 } }, { session });
          },
          { readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } },
        );
      } finally {
        await session.endSession();
      }
      expect(await items.findOne({ _id: 1 })).to.deep.equal({ _id: 1, n: 2 });
    });

    it("an update statement's sort (MongoDB 8.0; this server is 7.0): IDLUnknownField (40415) for the whole command, nothing written", async () => {
      const items = db.collection<NumberId>('items');
      await items.insertMany([
        { _id: 1, n: 1 },
        { _id: 2, n: 2 },
      ]);
      const raw = await refusal(
        db.command({
          update: 'items',
          updates: [
            { q: { _id: 1 }, u: { $inc: { n: 1 } } },
            { q: { _id: { $gt: 0 } }, u: { $inc: { n: 10 } }, sort: { _id: -1 } },
          ],
        }),
      );
      expect([raw.code, raw.message]).to.deep.equal([40415, "BSON field 'update.updates.sort' is an unknown field."]);
      expect(await items.find({}, { sort: { _id: 1 } }).toArray()).to.deep.equal([
        { _id: 1, n: 1 },
        { _id: 2, n: 2 },
      ]);
      // findAndModify's sort is 7.0's and works.
      expect(await items.findOneAndUpdate({}, { $inc: { n: 1 } }, { sort: { _id: -1 }, returnDocument: 'after' })).to.deep.equal({
        _id: 2,
        n: 3,
      });
    });

    it('views and validators: CommandNotSupported (115), and no collection is made', async () => {
      await db.collection<NumberId>('base').insertMany([{ _id: 1 }, { _id: 2 }]);
      const view = await refusal(db.createCollection('recent', { viewOn: 'base', pipeline: [] }));
      expect([view.code, view.codeName]).to.deep.equal([115, 'CommandNotSupported']);
      expect(view.message).to.equal("create with 'viewOn': views are not supported by the wire test server");
      const validated = await refusal(db.createCollection('checked', { validator: { n: { $type: 'int' } } }));
      expect([validated.code, validated.codeName]).to.deep.equal([115, 'CommandNotSupported']);
      const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
      expect(names).to.deep.equal(['base']);
    });
  });

  it('answers an unknown command with CommandNotFound (59)', async () => {
    const error = await rejectionOf(db.command({ fooBar: 1 }));
    expect(error).to.be.instanceOf(MongoServerError).and.to.include({ code: 59, codeName: 'CommandNotFound' });
    expect((error as MongoServerError).message).to.equal("no such command: 'fooBar'");
  });

  it('in standalone mode, describes a standalone and refuses transactions like one (IllegalOperation, 20)', async () => {
    const standalone = await startWireServer({ standalone: true });
    const standaloneClient = new MongoClient(standalone.url, { serverSelectionTimeoutMS: 2000 });
    const db = standaloneClient.db('wire_test');
    const session = standaloneClient.startSession();
    try {
      const hello = await db.admin().command({ hello: 1 });
      expect(hello).to.include({ isWritablePrimary: true, maxWireVersion: 21 });
      expect(hello).not.to.have.any.keys('setName', 'hosts', 'me', '$clusterTime');
      expect(standalone.replicaSetName).to.equal(undefined);
      session.startTransaction();
      const read = await rejectionOf(db.collection('x').findOne({}, { session }));
      expect(read).to.be.instanceOf(MongoServerError).and.to.include({ code: 20, codeName: 'IllegalOperation' });
      await session.abortTransaction().catch(() => undefined);

      session.startTransaction();
      // On a write the driver replaces code 20 with its own advice, keeping the server's error.
      const write = await rejectionOf(db.collection('x').insertOne({ a: 1 }, { session }));
      expect(write).to.be.instanceOf(MongoServerError);
      expect((write as MongoServerError)['originalError']).to.include({ code: 20 });
      expect(await db.collection('x').countDocuments()).to.equal(0);
    } finally {
      await session.endSession();
      await standaloneClient.close();
      await standalone.stop();
    }
  });

  it('describes a one-node replica set primary in hello, with the cluster time on every reply', async () => {
    const hello = await db.admin().command({ hello: 1 });
    const me = `127.0.0.1:${server.port}`;
    expect(hello).to.include({
      setName: 'rs0',
      primary: me,
      me,
      isWritablePrimary: true,
      secondary: false,
      logicalSessionTimeoutMinutes: 30,
      maxWireVersion: 21,
    });
    expect(hello['hosts']).to.deep.equal([me]);
    expect(server.advertisedHost).to.equal(me);
    expect(server.replicaSetName).to.equal('rs0');
    const ping = await db.command({ ping: 1 });
    expect(ping['$clusterTime']['clusterTime']).to.be.instanceOf(Timestamp);
    expect(ping['operationTime']).to.be.instanceOf(Timestamp);
  });

  it('advertises advertisedHost: a client reaching the server only through a proxy keeps working after discovery', async () => {
    // A TCP proxy whose address is the member's configured host; the server's own port is not what clients dial.
    let target = 0;
    const proxy = net.createServer((inbound) => {
      const outbound = net.connect(target, '127.0.0.1');
      inbound.pipe(outbound).pipe(inbound);
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyHost = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    const behind = await startWireServer({ advertisedHost: proxyHost });
    target = behind.port;
    const viaProxy = new MongoClient(`mongodb://${proxyHost}/`, { serverSelectionTimeoutMS: 2000 });
    const seen = new Set<string>();
    viaProxy.on('serverOpening', (event) => seen.add(event.address));
    try {
      expect(behind.advertisedHost).to.equal(proxyHost);
      const hello = await viaProxy.db('admin').command({ hello: 1 });
      expect(hello).to.include({ me: proxyHost, primary: proxyHost });
      await viaProxy.db('t').collection('c').insertOne({ through: 'proxy' });
      expect([...seen]).to.deep.equal([proxyHost]);
      await behind.restart();
      expect(behind.advertisedHost).to.equal(proxyHost);
      expect(
        (
          await viaProxy
            .db('admin')
            .command({ hello: 1 })
            .catch(() => viaProxy.db('admin').command({ hello: 1 }))
        )['me'],
      ).to.equal(proxyHost);
      expect(await viaProxy.db('t').collection('c').countDocuments()).to.equal(1);
    } finally {
      await viaProxy.close();
      await behind.stop();
      await new Promise((resolve) => proxy.close(resolve));
    }
    const refused = await startWireServer({ advertisedHost: 'no-port' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(RangeError);
  });

  it('is discovered as a replica set with a primary, and with directConnection=true as a single primary', async () => {
    for (const [url, type] of [
      [server.url, 'ReplicaSetWithPrimary'],
      [`${server.url}?directConnection=true`, 'Single'],
    ] as const) {
      const own = new MongoClient(url, { serverSelectionTimeoutMS: 2000 });
      const types: string[] = [];
      own.on('topologyDescriptionChanged', (event) => types.push(event.newDescription.type));
      try {
        await own.db('t').collection('c').insertOne({ via: type });
        expect(types.at(-1), url).to.equal(type);
      } finally {
        await own.close();
      }
    }
  });

  it('lists, creates and drops collections and databases', async () => {
    await db.createCollection('alpha');
    await db.collection('beta').insertOne({ a: 1 });
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((entry) => entry.name).sort();
    expect(names).to.deep.equal(['alpha', 'beta']);
    expect(await db.collection('beta').drop()).to.equal(true);
    expect((await db.listCollections().toArray()).map((entry) => entry.name)).to.deep.equal(['alpha']);
    await db.dropDatabase();
    expect(await db.listCollections().toArray()).to.deep.equal([]);
  });

  it('fails operations within serverSelectionTimeoutMS after stop() and serves the same client after restart()', async () => {
    const own = await startWireServer();
    const ownClient = new MongoClient(own.url, { serverSelectionTimeoutMS: 500 });
    try {
      await ownClient.db('t').collection('c').insertOne({ kept: true });
      await own.stop();

      const started = Date.now();
      const failure = await rejectionOf(ownClient.db('t').command({ ping: 1 }));
      expect(failure).to.be.instanceOf(Error);
      expect((failure as Error).name).to.match(/^Mongo(ServerSelection|Network)Error$/);
      // Bounded by the driver's own timeout (plus scheduling slack), not hanging.
      expect(Date.now() - started).to.be.below(500 + 1500);

      await own.restart();
      expect(own.url).to.include(`:${own.port}/`);
      expect(own.advertisedHost).to.equal(`127.0.0.1:${own.port}`);
      // The server is Unknown to the client until its monitor re-checks it (at most every 500 ms),
      // so the first attempt may still time out: each retry waits on the driver's own timeout.
      let found: Document | null = null;
      for (let attempt = 1; found === null; attempt += 1) {
        try {
          found = await ownClient
            .db('t')
            .collection('c')
            .findOne({}, { projection: { _id: 0 } });
        } catch (error) {
          if (attempt >= 5 || (error as Error).name !== 'MongoServerSelectionError') throw error;
        }
      }
      expect(found).to.deep.equal({ kept: true });
    } finally {
      await ownClient.close();
      await own.stop();
    }
  });
});

describe('mongo wire-protocol test server, raw OP_MSG framing', () => {
  let server: WireServer;

  before(async () => {
    server = await startWireServer();
  });

  after(async () => {
    await server.stop();
  });

  /** Sends one message; resolves with the decoded reply body, or 'closed' when the server drops the connection. */
  function exchange(message: Buffer): Promise<Document | 'closed'> {
    return new Promise((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1');
      const framer = new MessageFramer();
      socket.on('data', (chunk: Buffer) => {
        const [reply] = framer.push(chunk);
        if (reply !== undefined) {
          resolve(decodeReplyBody(reply));
          socket.end();
        }
      });
      socket.on('close', () => resolve('closed'));
      // A reset is also the server dropping the connection; other tests fail on the 'closed' value.
      socket.on('error', () => resolve('closed'));
      socket.write(message);
    });
  }

  it('computes CRC-32C with the standard check value', () => {
    expect(crc32c(Buffer.from('123456789', 'ascii'))).to.equal(0xe3069283);
  });

  it('accepts kind-1 document sequences and a valid checksum', async () => {
    const reply = await exchange(
      encodeOpMsg({
        requestId: 1,
        responseTo: 0,
        body: { insert: 'raw', $db: 'wire_raw' },
        sequences: [{ identifier: 'documents', documents: [{ _id: 1 }, { _id: 2 }] }],
        checksum: true,
      }),
    );
    expect(reply).to.deep.include({ n: 2, ok: 1 });
    const found = await exchange(encodeOpMsg({ requestId: 2, responseTo: 0, body: { find: 'raw', $db: 'wire_raw' } }));
    expect(found).to.not.equal('closed');
    expect((found as Document)['cursor'].firstBatch).to.deep.equal([{ _id: 1 }, { _id: 2 }]);
  });

  it('drops the connection on a checksum mismatch', async () => {
    const message = encodeOpMsg({ requestId: 3, responseTo: 0, body: { ping: 1, $db: 'admin' }, checksum: true });
    message.writeUInt32LE((message.readUInt32LE(message.length - 4) ^ 1) >>> 0, message.length - 4);
    expect(await exchange(message)).to.equal('closed');
  });

  it('does not reply to a moreToCome message but executes it', async () => {
    const silent = encodeOpMsg({
      requestId: 4,
      responseTo: 0,
      flagBits: 1 << 1,
      body: { insert: 'quiet', documents: [{ _id: 'q' }], $db: 'wire_raw' },
    });
    const find = encodeOpMsg({ requestId: 5, responseTo: 0, body: { find: 'quiet', $db: 'wire_raw' } });
    // Both on one connection: the first reply to arrive must be the find's.
    const reply = await exchange(Buffer.concat([silent, find]));
    expect((reply as Document)['cursor'].firstBatch).to.deep.equal([{ _id: 'q' }]);
  });
});

describe('mongo wire-protocol test server, TTL indexes (as the MongoDB manual describes them)', () => {
  let now = new Date('2026-03-15T12:00:00.000Z');
  let server: WireServer;
  let client: MongoClient;
  let db: Db;

  before(async () => {
    server = await startWireServer({ now: () => now, ttlMonitorIntervalMs: 0 });
    client = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000 });
    db = client.db('ttl_test');
  });
  beforeEach(() => {
    server.reset();
    now = new Date('2026-03-15T12:00:00.000Z');
  });
  after(async () => {
    await client.close();
    await server.stop();
  });

  it('removes a document once its date plus expireAfterSeconds has passed; no date, no expiry', async () => {
    const docs = db.collection<NumberId>('events');
    await docs.createIndex({ purge_at: 1 }, { name: 'purge_at_ttl', expireAfterSeconds: 60 });
    const at = (iso: string) => new Date(iso);
    await docs.insertMany([
      { _id: 1, purge_at: at('2026-03-15T11:58:59.000Z') },
      { _id: 2, purge_at: at('2026-03-15T11:59:00.000Z') },
      { _id: 3, purge_at: at('2026-03-15T12:30:00.000Z') },
      { _id: 4, purge_at: '2026-03-01T00:00:00.000Z' },
      { _id: 5 },
      { _id: 6, purge_at: [at('2026-03-16T00:00:00.000Z'), at('2026-03-01T00:00:00.000Z')] },
    ]);
    expect(server.runTtlMonitor()).to.equal(2);
    expect((await docs.find({}, { sort: { _id: 1 } }).toArray()).map((d) => d._id)).to.deep.equal([2, 3, 4, 5]);
    now = new Date('2026-03-15T12:31:00.001Z');
    expect(server.runTtlMonitor()).to.equal(2);
    expect((await docs.find({}, { sort: { _id: 1 } }).toArray()).map((d) => d._id)).to.deep.equal([4, 5]);
    const [index] = (await docs.listIndexes().toArray()).filter((i) => i['name'] === 'purge_at_ttl');
    expect(index?.['expireAfterSeconds']).to.equal(60);
  });

  it('refuses what MongoDB refuses: a compound TTL index, TTL on _id, an out-of-range expireAfterSeconds', async () => {
    const docs = db.collection<NumberId>('bad');
    const codeOf = async (p: Promise<unknown>) => ((await rejectionOf(p)) as MongoServerError).codeName;
    expect(await codeOf(docs.createIndex({ a: 1, b: 1 }, { expireAfterSeconds: 5 }))).to.equal('CannotCreateIndex');
    expect(await codeOf(docs.createIndex({ _id: 1 }, { name: 'id_ttl', expireAfterSeconds: 5 }))).to.equal(
      'InvalidIndexSpecificationOption',
    );
    expect(await codeOf(docs.createIndex({ a: 1 }, { expireAfterSeconds: -1 }))).to.equal('InvalidOptions');
    expect(await codeOf(docs.createIndex({ a: 1 }, { expireAfterSeconds: 2_147_483_648 }))).to.equal('InvalidOptions');
  });

  it('runs the monitor on its interval', async () => {
    const timed = await startWireServer({ now: () => new Date('2030-01-01T00:00:00.000Z'), ttlMonitorIntervalMs: 10 });
    const other = new MongoClient(timed.url, { serverSelectionTimeoutMS: 2000 });
    try {
      const docs = other.db('ttl_timer').collection<NumberId>('t');
      await docs.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
      await docs.insertOne({ _id: 1, at: new Date('2029-12-31T00:00:00.000Z') });
      const deadline = Date.now() + 2000;
      while ((await docs.countDocuments()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(await docs.countDocuments()).to.equal(0);
    } finally {
      await other.close();
      await timed.stop();
    }
  });
});
