/**
 * The failCommand fail point through the real `mongodb` driver: the faults
 * tests inject the same way against this server and a real mongod.
 */
import { expect } from 'chai';
import { MongoClient, MongoServerError, type CommandStartedEvent, type Document } from 'mongodb';
import { startWireServer, type WireServer } from '../src/index.js';

describe('mongo wire test server: the failCommand fail point', () => {
  let server: WireServer;
  let client: MongoClient;
  let started: CommandStartedEvent[];

  const failPoint = (mode: unknown, data: Document): Promise<Document> =>
    client.db('admin').command({ configureFailPoint: 'failCommand', mode, data });

  before(async () => {
    server = await startWireServer();
  });

  beforeEach(async () => {
    server.reset();
    started = [];
    client = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000, appName: 'debtkit-test', monitorCommands: true });
    client.on('commandStarted', (event) => started.push(event));
    await client.connect();
  });

  afterEach(async () => {
    await client.close();
  });

  after(async () => {
    await server.stop();
  });

  it('fails the named command with errorCode { times: 1 }, then lets it through', async () => {
    await failPoint({ times: 1 }, { failCommands: ['find'], errorCode: 2 });
    const docs = client.db('f').collection('docs');
    const error = await docs.findOne({}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(MongoServerError).and.to.include({ code: 2 });
    expect((error as MongoServerError).message).to.equal("Failing command via 'failCommand' failpoint");
    expect(await docs.findOne({})).to.equal(null);
  });

  it('adds RetryableWriteError to a retryable code on a retryable write, so the driver retries it once and it is applied once', async () => {
    await failPoint({ times: 1 }, { failCommands: ['insert'], errorCode: 91 });
    await client
      .db('f')
      .collection('docs')
      .insertOne({ _id: 1 } as Document);
    const inserts = started.filter((event) => event.commandName === 'insert');
    expect(inserts).to.have.length(2);
    expect(inserts[0]?.command['txnNumber']).to.deep.equal(inserts[1]?.command['txnNumber']);
    expect(await client.db('f').collection('docs').countDocuments()).to.equal(1);
  });

  it('replaces the server labels with errorLabels: an empty list makes the same error final', async () => {
    await failPoint({ times: 1 }, { failCommands: ['insert'], errorCode: 91, errorLabels: [] });
    const error = await client
      .db('f')
      .collection('docs')
      .insertOne({ _id: 1 } as Document)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).to.be.instanceOf(MongoServerError).and.to.include({ code: 91 });
    expect(started.filter((event) => event.commandName === 'insert')).to.have.length(1);
  });

  it('closes the connection (closeConnection): the driver sees a network error and retries the write once', async () => {
    await failPoint({ times: 1 }, { failCommands: ['update'], closeConnection: true });
    const result = await client
      .db('f')
      .collection<{ _id: number; n?: number }>('docs')
      .updateOne({ _id: 1 }, { $inc: { n: 1 } }, { upsert: true });
    expect(result.upsertedCount).to.equal(1);
    expect(started.filter((event) => event.commandName === 'update')).to.have.length(2);
    expect(
      await client
        .db('f')
        .collection('docs')
        .findOne({ _id: 1 } as Document),
    ).to.deep.equal({ _id: 1, n: 1 });
  });

  it('runs the command and reports writeConcernError', async () => {
    await failPoint({ times: 1 }, { failCommands: ['delete'], writeConcernError: { code: 100, errmsg: 'UnsatisfiableWriteConcern' } });
    await client
      .db('f')
      .collection('docs')
      .insertOne({ _id: 1 } as Document);
    const error = await client
      .db('f')
      .collection('docs')
      .deleteOne({ _id: 1 } as Document)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).to.be.instanceOf(Error);
    expect(String((error as Error).message)).to.contain('UnsatisfiableWriteConcern');
    expect(await client.db('f').collection('docs').countDocuments()).to.equal(0);
  });

  it('skips the first { skip: n } matches, and fires only for the connections of appName', async () => {
    await failPoint({ skip: 1 }, { failCommands: ['count'], errorCode: 2 });
    const docs = client.db('f').collection('docs');
    expect(await docs.estimatedDocumentCount()).to.equal(0);
    expect(
      await docs.estimatedDocumentCount().then(
        () => 'ok',
        (e: MongoServerError) => e.code,
      ),
    ).to.equal(2);
    await failPoint('off', {});

    await failPoint('alwaysOn', { failCommands: ['count'], errorCode: 2, appName: 'someone-else' });
    expect(await docs.estimatedDocumentCount()).to.equal(0);
    const reply = await failPoint('off', {});
    expect(reply['count']).to.equal(0);
  });

  it('blocks only the connection of the blocked command (blockConnection), never the whole server', async () => {
    await failPoint({ times: 1 }, { failCommands: ['find'], blockConnection: true, blockTimeMS: 300 });
    const docs = client.db('f').collection('docs');
    const begun = Date.now();
    const blocked = docs.findOne({}).then(() => Date.now() - begun);
    // Another connection (the pool opens one since the first is busy) is served at once.
    await docs.insertOne({ _id: 7 } as Document);
    const other = Date.now() - begun;
    const waited = await blocked;
    expect(waited).to.be.at.least(290);
    expect(other).to.be.below(waited);
  });

  it('is refused outside the admin database, and with a bad mode', async () => {
    const notAdmin = await client
      .db('f')
      .command({ configureFailPoint: 'failCommand', mode: 'alwaysOn', data: { failCommands: ['find'] } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(notAdmin).to.be.instanceOf(MongoServerError).and.to.include({ code: 13 });
    const badMode = await failPoint('sometimes', { failCommands: ['find'] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(badMode).to.be.instanceOf(MongoServerError).and.to.include({ code: 2 });
  });
});
