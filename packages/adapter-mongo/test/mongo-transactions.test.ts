/**
 * The mongo `UnitOfWork` (docs/decisions/transactions.md) through the real driver, on the
 * wire-protocol test server as a one-node replica set: all or nothing, snapshot
 * reads, the first writer wins and the second runs again, bounded retries (a
 * persistent conflict answers `conflict` within the deadline, a lost server
 * `unavailable` at once), the commit retried on an unknown result, and an
 * event appended in a transaction hidden from readers until it commits.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { MongoClient } from 'mongodb';
import {
  conflict,
  type AccountId,
  type AccountPayment,
  type DomainError,
  type StorePorts,
  type TransactionPorts,
  type UnitOfWork,
  type UserId,
} from '@debtkit/core';
import { CREATED_AT, TODAY, aClient, anId, cents, aUser, anAccount, expectRight, expectSome } from '@debtkit/core/testing';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { STORE_UNAVAILABLE, mongoStorePorts, mongoUnitOfWork, openMongoContext, type MongoContext } from '../src/index.js';

/** A promise and the function that settles it: lets a test hold one transaction open while another runs. */
const gate = (): { opened: Promise<void>; open: () => void } => {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

const pay = (amount: number): AccountPayment => ({ amount: cents(amount), date: TODAY, updatedOn: TODAY });

const waitFor =
  <A>(promise: Promise<A>): TE.TaskEither<DomainError, A> =>
  () =>
    promise.then(E.right);

describe('mongo unit of work (wire-protocol test server as a one-node replica set)', function () {
  this.timeout(20_000);
  let server: WireServer;
  let ctx: MongoContext;
  let store: StorePorts;
  let uow: UnitOfWork;
  let admin: MongoClient;
  let dbCount = 0;

  before(async () => {
    server = await startWireServer();
    admin = new MongoClient(server.url, { serverSelectionTimeoutMS: 2000 });
  });
  after(async () => {
    await admin.close();
    await server.stop();
  });
  beforeEach(async () => {
    // A 1.5 s write conflict deadline (DEBTKIT_WRITE_CONFLICT_DEADLINE_MS; default 10 s): the conflict case below answers within it.
    ctx = await openMongoContext(server.url, {
      dbName: `uow_${process.pid}_${++dbCount}`,
      serverSelectionTimeoutMS: 500,
      writeConflictDeadlineMs: 1500,
    });
    store = mongoStorePorts(ctx);
    uow = mongoUnitOfWork(ctx);
  });
  afterEach(async () => {
    await admin
      .db('admin')
      .command({ configureFailPoint: 'failCommand', mode: 'off' })
      .catch(() => undefined);
    await store.close();
  });

  const aUserWithAccount = async (): Promise<{ userId: UserId; accountId: AccountId }> => {
    const client = await expectRight(store.clients.create(aClient()));
    const user = await expectRight(store.users.create(aUser(client.id)));
    const account = await expectRight(store.accounts.create(anAccount(user.id)));
    return { userId: user.id, accountId: account.id };
  };

  it('commits every write of a Right, and none of a Left or a throw', async () => {
    const client = await expectRight(store.clients.create(aClient()));
    const committed = await expectRight(
      uow.run((tx) =>
        pipe(
          tx.users.create(aUser(client.id, { first_name: 'Ada' })),
          TE.chainW((u) => tx.accounts.create(anAccount(u.id))),
        ),
      ),
    );
    await expectSome(store.accounts.get(committed.user_id, committed.id));

    const left = await uow.run((tx) =>
      pipe(
        tx.users.create(aUser(client.id, { first_name: 'Left' })),
        TE.chainW((u) => tx.accounts.create(anAccount(u.id))),
        TE.chainW(() => TE.left(conflict('the use case said no'))),
      ),
    )();
    expect(left).to.deep.equal(E.left(conflict('the use case said no')));

    const thrown = await uow
      .run((tx) =>
        pipe(
          tx.users.create(aUser(client.id, { first_name: 'Thrown' })),
          TE.chainW((): TE.TaskEither<never, never> => () => Promise.reject(new Error('a bug'))),
        ),
      )()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(thrown).to.be.instanceOf(Error);
    const users = await expectRight(store.users.list(client.id, { limit: 10 }));
    expect(users.items.map((u) => u.first_name)).to.deep.equal(['Ada']);
  });

  it('reads its own writes, and another transaction sees none of them until the commit', async () => {
    const { userId, accountId } = await aUserWithAccount();
    const inside = gate();
    const seen = gate();
    const writer = uow.run((tx) =>
      pipe(
        tx.accounts.applyPayment(userId, accountId, pay(100)),
        TE.chainFirstW(() => tx.accounts.get(userId, accountId)),
        TE.chainFirstW(() => TE.fromIO(inside.open)),
        TE.chainFirstW(() => waitFor(seen.opened)),
      ),
    )();
    await inside.opened;
    const before = await expectSome(store.accounts.get(userId, accountId));
    seen.open();
    const written = await writer;
    if (E.isLeft(written) || O.isNone(written.right)) return expect.fail(JSON.stringify(written));
    const after = written.right.value;
    expect(after.balance).to.equal(before.balance - 100);
    expect((await expectSome(store.accounts.get(userId, accountId))).balance).to.equal(after.balance);
  });

  it('first writer wins: the second transaction writing the same record runs again from a fresh snapshot, once', async () => {
    const { userId, accountId } = await aUserWithAccount();
    const start = await expectSome(store.accounts.get(userId, accountId));
    const read = gate();
    const otherCommitted = gate();
    let attempts = 0;
    const slow = uow.run((tx) =>
      pipe(
        TE.fromIO(() => void attempts++),
        TE.chainW(() => tx.accounts.get(userId, accountId)),
        // The first attempt waits, holding its snapshot, until another transaction has paid and committed.
        TE.chainFirstW(() =>
          attempts === 1
            ? pipe(
                TE.fromIO(read.open),
                TE.chainW(() => waitFor(otherCommitted.opened)),
              )
            : TE.right(undefined),
        ),
        TE.chainW(() => tx.accounts.applyPayment(userId, accountId, pay(10))),
      ),
    )();
    await read.opened;
    // Started here, outside the slow one's async context: its own transaction.
    await expectRight(uow.run((tx) => tx.accounts.applyPayment(userId, accountId, pay(5))));
    otherCommitted.open();
    expect(E.isRight(await slow)).to.equal(true);
    expect(attempts).to.equal(2);
    expect((await expectSome(store.accounts.get(userId, accountId))).balance).to.equal(start.balance - 15);
  });

  it('no hot documents: interleaved transactions of one client on two users, each creating records (ids from the counters), both commit at once', async () => {
    const client = await expectRight(store.clients.create(aClient()));
    const users = [await expectRight(store.users.create(aUser(client.id))), await expectRight(store.users.create(aUser(client.id)))];
    const bothWrote = [gate(), gate()];
    let attempts = 0;
    const runs = users.map((user, i) =>
      uow.run((tx) =>
        pipe(
          TE.fromIO(() => void attempts++),
          TE.chainW(() => tx.accounts.create(anAccount(user.id))),
          TE.chainW(() =>
            tx.events.append({
              client_id: client.id,
              type: 'account.created',
              created_at: CREATED_AT,
              api_version: '2024-07-01',
              data: { user_id: user.id, object: {} },
              expires_at: '2999-01-01T00:00:00.000Z' as never,
            }),
          ),
          // Each waits until both have written: their transactions overlap.
          TE.chainFirstW(() => TE.fromIO(bothWrote[i]!.open)),
          TE.chainFirstW(() => waitFor(Promise.all(bothWrote.map((g) => g.opened)))),
        ),
      )(),
    );
    const results = await Promise.all(runs);
    expect(results.every(E.isRight), JSON.stringify(results)).to.equal(true);
    expect(attempts).to.equal(2);
  });

  it("a record another transaction keeps locked: attempts with backoff, then conflict (409, Retry-After) within the store's deadline; nothing written", async () => {
    const { userId, accountId } = await aUserWithAccount();
    const start = await expectSome(store.accounts.get(userId, accountId));
    const locked = gate();
    const release = gate();
    const holder = uow.run((tx) =>
      pipe(
        tx.accounts.applyPayment(userId, accountId, pay(1)),
        TE.chainFirstW(() => TE.fromIO(locked.open)),
        TE.chainFirstW(() => waitFor(release.opened)),
        TE.chainW(() => TE.left(conflict('the holder gives up'))),
      ),
    )();
    await locked.opened;
    let attempts = 0;
    const started = performance.now();
    const loser = await uow.run((tx: TransactionPorts) =>
      pipe(
        TE.fromIO(() => void attempts++),
        TE.chainW(() => tx.accounts.applyPayment(userId, accountId, pay(2))),
      ),
    )();
    const ms = performance.now() - started;
    release.open();
    await holder;
    expect(loser).to.deep.equal(E.left({ ...conflict('The change lost to concurrent changes; retry'), retryAfterSeconds: 1 }));
    // Random waits of at most 100 ms each over 1.5 s: more than a handful of attempts, and an answer soon after the deadline.
    expect(attempts).to.be.at.least(5);
    expect(ms).to.be.within(1500, 3000);
    expect((await expectSome(store.accounts.get(userId, accountId))).balance).to.equal(start.balance);
  });

  it('an unreachable server is unavailable at once, not retried to the deadline', async () => {
    const client = await expectRight(store.clients.create(aClient()));
    await server.stop();
    try {
      const started = performance.now();
      let attempts = 0;
      const result = await uow.run((tx) =>
        pipe(
          TE.fromIO(() => void attempts++),
          TE.chainW(() => tx.users.create(aUser(client.id))),
        ),
      )();
      expect(result).to.deep.equal(E.left({ _tag: 'unavailable', message: STORE_UNAVAILABLE }));
      expect(attempts).to.be.at.most(1);
      expect(performance.now() - started).to.be.below(2000);
    } finally {
      await server.restart();
    }
  });

  it('a commit whose outcome is unknown is committed again (once applied), not the work run again', async () => {
    const client = await expectRight(store.clients.create(aClient()));
    await admin.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: {
        failCommands: ['commitTransaction'],
        closeConnection: false,
        errorCode: 91,
        errorLabels: ['UnknownTransactionCommitResult'],
        appName: 'debtkit',
      },
    });
    let attempts = 0;
    server.commands.length = 0;
    await expectRight(
      uow.run((tx) =>
        pipe(
          TE.fromIO(() => void attempts++),
          TE.chainW(() => tx.users.create(aUser(client.id))),
        ),
      ),
    );
    expect(attempts).to.equal(1);
    expect(server.commands.filter((name) => name === 'commitTransaction')).to.have.length(2);
    expect((await expectRight(store.users.list(client.id, { limit: 10 }))).items).to.have.length(1);
  });

  it('a commit that failed leaves no transaction open on the server: another process writes the same record at once', async () => {
    const client = await expectRight(store.clients.create(aClient()));
    const user = await expectRight(store.users.create(aUser(client.id)));
    await admin.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['commitTransaction'], errorCode: 50, appName: 'debtkit' },
    });
    const failed = await uow.run((tx) => tx.users.touch(client.id, user.id))();
    expect(E.isLeft(failed) && failed.left._tag, JSON.stringify(failed)).to.equal('unavailable');
    // Another process (its own connections and sessions): without `killSessions` after the failed
    // commit, the transaction would hold the user until transactionLifetimeLimitSeconds (409 after the write conflict deadline).
    const other = await openMongoContext(server.url, { dbName: ctx.db.databaseName, serverSelectionTimeoutMS: 500 });
    try {
      const started = performance.now();
      expect(await expectRight(mongoUnitOfWork(other).run((tx) => tx.users.touch(client.id, user.id)))).to.equal(true);
      expect(performance.now() - started, 'no write conflict waited out').to.be.below(500);
    } finally {
      await other.client.close();
    }
  });

  it('a write conflict reported at commit runs the work again; the retry commits once', async () => {
    const client = await expectRight(store.clients.create(aClient()));
    await admin.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['commitTransaction'], errorCode: 112, errorLabels: ['TransientTransactionError'], appName: 'debtkit' },
    });
    let attempts = 0;
    await expectRight(
      uow.run((tx) =>
        pipe(
          TE.fromIO(() => void attempts++),
          TE.chainW(() => tx.users.create(aUser(client.id))),
        ),
      ),
    );
    expect(attempts).to.equal(2);
    expect((await expectRight(store.users.list(client.id, { limit: 10 }))).items).to.have.length(1);
  });

  it('an event appended in a transaction that aborts: its id holds nothing back (its entry leaves at once); one that commits costs no command after the commit', async () => {
    const client = await expectRight(store.clients.create(aClient()));
    const event = {
      client_id: client.id,
      type: 'account.created' as const,
      created_at: CREATED_AT,
      api_version: '2024-07-01',
      data: { user_id: anId('user', 1), object: {} },
      expires_at: '2999-01-01T00:00:00.000Z' as never,
    };
    const aborted = await uow.run((tx) =>
      pipe(
        tx.events.append(event),
        TE.chainW(() => TE.left(conflict('no'))),
      ),
    )();
    expect(E.isLeft(aborted)).to.equal(true);
    const later = await expectRight(store.events.append(event));
    expect((await expectRight(store.events.list(client.id, { limit: 10 }, {}, new Date(CREATED_AT)))).items.map((e) => e.id)).to.deep.equal(
      [later.id],
    );
    server.commands.length = 0;
    await expectRight(uow.run((tx) => tx.events.append(event)));
    const sent = server.commands.filter((name) => !['hello', 'ismaster', 'isMaster', 'endSessions'].includes(name));
    expect(sent, 'take the id, insert, commit').to.deep.equal(['findAndModify', 'insert', 'commitTransaction']);
  });

  it('an event appended in a transaction: not listed before the commit, nor any later id; listed after', async () => {
    const client = await expectRight(store.clients.create(aClient()));
    const event = (n: number) => ({
      client_id: client.id,
      type: 'account.created' as const,
      created_at: CREATED_AT,
      api_version: '2024-07-01',
      data: { user_id: anId('user', n), object: { id: n } },
      expires_at: '2999-01-01T00:00:00.000Z' as never,
    });
    const appended = gate();
    const commit = gate();
    const inTx = uow.run((tx) =>
      pipe(
        tx.events.append(event(1)),
        TE.chainFirstW(() => TE.fromIO(appended.open)),
        TE.chainFirstW(() => waitFor(commit.opened)),
      ),
    )();
    await appended.opened;
    // A later append, outside the transaction, lands first.
    await expectRight(store.events.append(event(2)));
    const now = new Date(CREATED_AT);
    expect((await expectRight(store.events.list(client.id, { limit: 10 }, {}, now))).items).to.deep.equal([]);
    commit.open();
    await inTx;
    expect((await expectRight(store.events.list(client.id, { limit: 10 }, {}, now))).items.map((e) => e.data.user_id)).to.deep.equal([
      1, 2,
    ]);
  });
});
