/**
 * Sessions, multi-document transactions and retryable writes of the wire
 * test server, through the real `mongodb` driver (as MongoDB documents them).
 */
import { expect } from 'chai';
import { Long, MongoClient, MongoServerError, type Collection, type Document } from 'mongodb';
import { startWireServer, type WireServer } from '../src/index.js';

type Counter = { _id: number; n: number };

async function rejectionOf(promise: Promise<unknown>): Promise<MongoServerError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(MongoServerError);
    return error as MongoServerError;
  }
  return expect.fail('expected the operation to be rejected');
}

describe('mongo wire test server: transactions and retryable writes (replica set)', () => {
  let clock = new Date('2026-01-01T00:00:00.000Z');
  let server: WireServer;
  let client: MongoClient;
  let counters: Collection<Counter>;

  before(async () => {
    server = await startWireServer({ now: () => clock });
    client = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000 });
    await client.connect();
  });

  beforeEach(async () => {
    server.reset();
    clock = new Date('2026-01-01T00:00:00.000Z');
    counters = client.db('tx').collection<Counter>('counters');
    await counters.insertMany([
      { _id: 1, n: 0 },
      { _id: 2, n: 0 },
    ]);
  });

  after(async () => {
    await client.close();
    await server.stop();
  });

  it('commits all writes at once; until then they are invisible outside, and the transaction reads its own writes', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      await counters.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session });
      await counters.insertOne({ _id: 3, n: 7 }, { session });
      await counters.deleteOne({ _id: 2 }, { session });
      expect(await counters.find({}, { session }).sort({ _id: 1 }).toArray()).to.deep.equal([
        { _id: 1, n: 1 },
        { _id: 3, n: 7 },
      ]);
      expect(await counters.find({}).sort({ _id: 1 }).toArray()).to.deep.equal([
        { _id: 1, n: 0 },
        { _id: 2, n: 0 },
      ]);
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect(await counters.find({}).sort({ _id: 1 }).toArray()).to.deep.equal([
      { _id: 1, n: 1 },
      { _id: 3, n: 7 },
    ]);
  });

  it('reads a snapshot: a write committed by others after the transaction started is not seen', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      expect(await counters.findOne({ _id: 2 }, { session })).to.deep.equal({ _id: 2, n: 0 });
      await counters.updateOne({ _id: 1 }, { $set: { n: 5 } });
      await counters.insertOne({ _id: 9, n: 9 });
      expect(await counters.find({}, { session }).sort({ _id: 1 }).toArray()).to.deep.equal([
        { _id: 1, n: 0 },
        { _id: 2, n: 0 },
      ]);
      expect(await counters.countDocuments({}, { session })).to.equal(2);
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
  });

  it('aborts: nothing of the transaction remains', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      await counters.insertOne({ _id: 3, n: 3 }, { session });
      await counters.findOneAndUpdate({ _id: 1 }, { $inc: { n: 1 } }, { session });
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect(await counters.find({}).sort({ _id: 1 }).toArray()).to.deep.equal([
      { _id: 1, n: 0 },
      { _id: 2, n: 0 },
    ]);
  });

  it('answers the second writer of a document WriteConflict (112) with TransientTransactionError, and aborts its transaction', async () => {
    const first = client.startSession();
    const second = client.startSession();
    try {
      first.startTransaction();
      second.startTransaction();
      await counters.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: first });
      const conflict = await rejectionOf(counters.updateOne({ _id: 1 }, { $inc: { n: 10 } }, { session: second }));
      expect(conflict).to.include({ code: 112, codeName: 'WriteConflict' });
      expect(conflict.hasErrorLabel('TransientTransactionError')).to.equal(true);
      // The loser's transaction is gone: its next statement answers NoSuchTransaction (251).
      const gone = await rejectionOf(counters.findOne({ _id: 2 }, { session: second }));
      expect(gone).to.include({ code: 251, codeName: 'NoSuchTransaction' });
      await second.abortTransaction().catch(() => undefined);
      await first.commitTransaction();
    } finally {
      await first.endSession();
      await second.endSession();
    }
    expect(await counters.findOne({ _id: 1 })).to.deep.equal({ _id: 1, n: 1 });
  });

  it('conflicts with a write committed after the snapshot, too', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      await counters.findOne({ _id: 1 }, { session });
      await counters.updateOne({ _id: 1 }, { $set: { n: 42 } });
      const conflict = await rejectionOf(counters.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session }));
      expect(conflict).to.include({ code: 112 });
      await session.abortTransaction().catch(() => undefined);
    } finally {
      await session.endSession();
    }
    expect(await counters.findOne({ _id: 1 })).to.deep.equal({ _id: 1, n: 42 });
  });

  it('lets withTransaction retry a transaction that lost a write conflict, until it commits', async () => {
    const holder = client.startSession();
    const retrier = client.startSession();
    let attempts = 0;
    try {
      holder.startTransaction();
      await counters.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: holder });
      await retrier.withTransaction(async () => {
        attempts += 1;
        // The first attempt conflicts with the holder; the holder commits before the retry.
        if (attempts === 2) await holder.commitTransaction();
        await counters.updateOne({ _id: 1 }, { $inc: { n: 10 } }, { session: retrier });
        if (attempts === 1) expect.fail('the first attempt should have conflicted');
      });
    } finally {
      await holder.endSession();
      await retrier.endSession();
    }
    expect(attempts).to.equal(2);
    expect(await counters.findOne({ _id: 1 })).to.deep.equal({ _id: 1, n: 11 });
  });

  it('makes a write outside transactions wait for the transaction holding its document', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      await counters.updateOne({ _id: 1 }, { $set: { n: 1 } }, { session });
      let outsideDone = false;
      const outside = counters.updateOne({ _id: 1 }, { $inc: { n: 100 } }).then(() => (outsideDone = true));
      // Another document is free meanwhile.
      await counters.updateOne({ _id: 2 }, { $inc: { n: 1 } });
      expect(outsideDone).to.equal(false);
      await session.commitTransaction();
      await outside;
    } finally {
      await session.endSession();
    }
    expect(await counters.find({}).sort({ _id: 1 }).toArray()).to.deep.equal([
      { _id: 1, n: 101 },
      { _id: 2, n: 1 },
    ]);
  });

  it('fails a waiting write with MaxTimeMSExpired (50) when its maxTimeMS runs out before the transaction ends, applying nothing', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      await counters.updateOne({ _id: 1 }, { $set: { n: 1 } }, { session });
      const expired = await rejectionOf(counters.updateOne({ _id: 1 }, { $inc: { n: 100 } }, { maxTimeMS: 50 }));
      expect(expired).to.include({ code: 50, codeName: 'MaxTimeMSExpired' });
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect(await counters.findOne({ _id: 1 })).to.deep.equal({ _id: 1, n: 1 });
  });

  it('answers a retried commitTransaction with the same outcome, and NoSuchTransaction (251) after an abort', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      await counters.insertOne({ _id: 5, n: 5 }, { session });
      await session.commitTransaction();
      server.commands.length = 0;
      await session.commitTransaction();
      expect(server.commands).to.deep.equal(['commitTransaction']);
      expect(await counters.countDocuments({ _id: 5 })).to.equal(1);

      // The same txnNumber committed once more, sent by hand: still ok.
      const txnNumber = Long.fromNumber(session.serverSession?.txnNumber ?? -1);
      const again = await client.db('admin').command({ commitTransaction: 1, txnNumber, autocommit: false }, { session });
      expect(again['ok']).to.equal(1);
    } finally {
      await session.endSession();
    }
    const aborted = client.startSession();
    try {
      aborted.startTransaction();
      await counters.insertOne({ _id: 6, n: 6 }, { session: aborted });
      await aborted.abortTransaction();
      const txnNumber = Long.fromNumber(aborted.serverSession?.txnNumber ?? -1);
      const error = await rejectionOf(
        client.db('admin').command({ commitTransaction: 1, txnNumber, autocommit: false }, { session: aborted }),
      );
      expect(error).to.include({ code: 251, codeName: 'NoSuchTransaction' });
    } finally {
      await aborted.endSession();
    }
    expect(await counters.countDocuments({ _id: 6 })).to.equal(0);
  });

  it('aborts a transaction older than transactionLifetimeLimitSeconds (setParameter) and releases its documents', async () => {
    const admin = client.db('admin');
    expect((await admin.command({ getParameter: 1, transactionLifetimeLimitSeconds: 1 }))['transactionLifetimeLimitSeconds']).to.equal(60);
    expect((await admin.command({ setParameter: 1, transactionLifetimeLimitSeconds: 5 }))['was']).to.equal(60);
    expect(server.transactionLifetimeLimitSeconds).to.equal(5);
    const badValue = await rejectionOf(admin.command({ setParameter: 1, transactionLifetimeLimitSeconds: 0 }));
    expect(badValue).to.include({ code: 2 });
    const session = client.startSession();
    try {
      session.startTransaction();
      await counters.updateOne({ _id: 1 }, { $set: { n: 1 } }, { session });
      clock = new Date(clock.getTime() + 4_000);
      expect(server.expireTransactions()).to.equal(0);
      clock = new Date(clock.getTime() + 1_000);
      expect(server.expireTransactions()).to.equal(1);
      // Its lock is released: a write outside goes through at once.
      await counters.updateOne({ _id: 1 }, { $set: { n: 2 } });
      const error = await rejectionOf(session.commitTransaction());
      expect(error).to.include({ code: 251, codeName: 'NoSuchTransaction' });
    } finally {
      await session.endSession();
      await admin.command({ setParameter: 1, transactionLifetimeLimitSeconds: 60 });
    }
    expect(await counters.findOne({ _id: 1 })).to.deep.equal({ _id: 1, n: 2 });
  });

  it('refuses the count command inside a transaction (263), as MongoDB does; countDocuments works', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      expect(await counters.countDocuments({}, { session })).to.equal(2);
      const error = await rejectionOf(counters.estimatedDocumentCount({ session }));
      expect(error).to.include({ code: 263, codeName: 'OperationNotSupportedInTransaction' });
      await session.abortTransaction().catch(() => undefined);
    } finally {
      await session.endSession();
    }
  });

  it('keeps unique indexes inside transactions and at commit', async () => {
    await counters.createIndex({ n: 1 }, { unique: true, partialFilterExpression: { n: { $gt: 100 } } });
    const session = client.startSession();
    try {
      session.startTransaction();
      await counters.insertOne({ _id: 10, n: 500 }, { session });
      const duplicate = await rejectionOf(counters.insertOne({ _id: 11, n: 500 }, { session }));
      expect(duplicate).to.include({ code: 11000 });
      // A failed statement aborts the transaction, as on MongoDB.
      const gone = await rejectionOf(session.commitTransaction());
      expect(gone).to.include({ code: 251 });
    } finally {
      await session.endSession();
    }
    expect(await counters.countDocuments({ n: 500 })).to.equal(0);
  });

  it('applies a retryable write once: the same lsid and txnNumber answers the first result', async () => {
    const session = client.startSession();
    try {
      const db = client.db('tx');
      const command = { update: 'counters', updates: [{ q: { _id: 1 }, u: { $inc: { n: 1 } } }], txnNumber: Long.fromNumber(1_000_007) };
      const first = await db.command(command, { session });
      const retried = await db.command(command, { session });
      expect(first).to.include({ n: 1, nModified: 1 });
      expect(retried).to.include({ n: 1, nModified: 1 });
      expect(await counters.findOne({ _id: 1 })).to.deep.equal({ _id: 1, n: 1 });
      const older = await rejectionOf(db.command({ ...command, txnNumber: Long.fromNumber(1_000_006) }, { session }));
      expect(older).to.include({ code: 225, codeName: 'TransactionTooOld' });
    } finally {
      await session.endSession();
    }
  });
});
