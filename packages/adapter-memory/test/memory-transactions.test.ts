/**
 * The memory store's transactions are MongoDB's isolation level (docs/decisions/transactions.md):
 * snapshot reads, first writer of a record wins, all or nothing; and not one
 * at a time (write skew shows, as on MongoDB, and the owner bump closes it).
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { isWriteConflict, type DomainError, type TransactionPorts } from '@debtkit/core';
import { aClient, aUser, anAccount, expectRight } from '@debtkit/core/testing';
import { MemoryDatabase, createMemoryStore, memoryPortsOf } from '../src/index.js';

const begin = (db: MemoryDatabase): { ports: TransactionPorts; commit: () => E.Either<DomainError, void>; abort: () => void } => {
  const tx = db.begin();
  return { ports: memoryPortsOf({ db, tx }), commit: () => db.commit(tx), abort: () => db.abort(tx) };
};

const seeded = async () => {
  const db = new MemoryDatabase();
  const store = createMemoryStore(db);
  const client = await expectRight(store.clients.create(aClient()));
  const user = await expectRight(store.users.create(aUser(client.id)));
  return { db, store, client, user };
};

describe('memory store transactions', () => {
  it('reads the snapshot taken at begin: a later commit is not seen, its own writes are', async () => {
    const { db, store, client, user } = await seeded();
    const t = begin(db);
    await expectRight(store.users.update(client.id, user.id, { last_name: 'Committed' }));
    expect(O.toUndefined(await expectRight(t.ports.users.get(client.id, user.id)))?.last_name).to.equal(user.last_name);
    const account = await expectRight(t.ports.accounts.create(anAccount(user.id)));
    expect(await expectRight(t.ports.accounts.listAll(user.id))).to.deep.equal([account]);
    expect(await expectRight(store.accounts.listAll(user.id)), 'uncommitted: invisible outside').to.deep.equal([]);
    t.abort();
  });

  it('first writer wins: a second transaction writing the same record gets a write conflict at once', async () => {
    const { db, client, user } = await seeded();
    const first = begin(db);
    const second = begin(db);
    await expectRight(first.ports.users.update(client.id, user.id, { last_name: 'First' }));
    const lost = await second.ports.users.update(client.id, user.id, { last_name: 'Second' })();
    expect(E.isLeft(lost) && isWriteConflict(lost.left)).to.equal(true);
    expect(E.isRight(first.commit())).to.equal(true);
  });

  it('a record committed after the snapshot cannot be written: write conflict, also at commit', async () => {
    const { db, store, client, user } = await seeded();
    const t = begin(db);
    await expectRight(t.ports.accounts.create(anAccount(user.id)));
    await expectRight(store.users.update(client.id, user.id, { last_name: 'Meanwhile' }));
    const lost = await t.ports.users.touch(client.id, user.id)();
    expect(E.isLeft(lost) && isWriteConflict(lost.left)).to.equal(true);
    t.abort();
    expect(await expectRight(store.accounts.listAll(user.id)), 'aborted: nothing').to.deep.equal([]);
  });

  it('all or nothing: an abort leaves nothing, a commit shows everything at once', async () => {
    const { db, store, client, user } = await seeded();
    const aborted = begin(db);
    await expectRight(aborted.ports.accounts.create(anAccount(user.id)));
    await expectRight(aborted.ports.users.delete(client.id, user.id));
    aborted.abort();
    expect(O.isSome(await expectRight(store.users.get(client.id, user.id)))).to.equal(true);
    expect(await expectRight(store.accounts.listAll(user.id))).to.deep.equal([]);
    const committed = begin(db);
    const a = await expectRight(committed.ports.accounts.create(anAccount(user.id)));
    const b = await expectRight(committed.ports.accounts.create(anAccount(user.id)));
    expect(E.isRight(committed.commit())).to.equal(true);
    expect((await expectRight(store.accounts.listAll(user.id))).map((x) => x.id)).to.deep.equal([a.id, b.id]);
  });

  it('not one at a time: two transactions that only read what the other writes both commit (write skew), the owner bump makes one lose', async () => {
    const { db, store, client, user } = await seeded();
    // Skew: a creation that only reads the user, and the user's delete.
    const creation = begin(db);
    const deletion = begin(db);
    expect(O.isSome(await expectRight(creation.ports.users.get(client.id, user.id)))).to.equal(true);
    await expectRight(creation.ports.accounts.create(anAccount(user.id)));
    await expectRight(deletion.ports.users.delete(client.id, user.id));
    expect(E.isRight(creation.commit())).to.equal(true);
    expect(E.isRight(deletion.commit())).to.equal(true);
    expect((await expectRight(store.accounts.listAll(user.id))).length, 'the orphan snapshot isolation allows').to.equal(1);
    // Bumped: the creation writes its owner, so the second writer of the user loses.
    const other = await expectRight(store.users.create(aUser(client.id)));
    const bumped = begin(db);
    const deleting = begin(db);
    expect(await expectRight(bumped.ports.users.touch(client.id, other.id))).to.equal(true);
    await expectRight(bumped.ports.accounts.create(anAccount(other.id)));
    const lost = await deleting.ports.users.delete(client.id, other.id)();
    expect(E.isLeft(lost) && isWriteConflict(lost.left)).to.equal(true);
    deleting.abort();
    expect(E.isRight(bumped.commit())).to.equal(true);
  });

  it('events and deliveries: a reader paging by id stops before an event not committed yet (the visible-sequence horizon)', async () => {
    const { db, store, client, user } = await seeded();
    const event = (n: number) => ({
      client_id: client.id,
      type: 'user.deleted' as const,
      created_at: '2024-07-01T12:00:00.000Z' as never,
      api_version: '2024-07-01',
      data: { user_id: user.id, object: { n } },
      expires_at: '2099-01-01T00:00:00.000Z' as never,
    });
    const slow = begin(db);
    await expectRight(slow.ports.events.append(event(1)));
    await expectRight(store.events.append(event(2)));
    const now = new Date('2024-07-01T12:00:00.000Z');
    expect((await expectRight(store.events.list(client.id, { limit: 10 }, {}, now))).items, 'id 2 waits for id 1').to.deep.equal([]);
    expect(E.isRight(slow.commit())).to.equal(true);
    expect((await expectRight(store.events.list(client.id, { limit: 10 }, {}, now))).items.map((e) => e.id)).to.deep.equal([1, 2]);
  });

  it('the unit of work retries a write conflict from a fresh snapshot until its deadline, then answers conflict', async () => {
    const { db, client, user } = await seeded();
    // A clock that moves 1 ms per reading and no random wait: the runs fit in the 10 ms deadline, deterministically.
    let clock = 0;
    const store = createMemoryStore(db, { deadlineMs: 10, now: () => clock++, random: () => 0 });
    let runs = 0;
    const always = await store.unitOfWork.run((tx) => {
      runs += 1;
      return () =>
        store.users
          .update(client.id, user.id, { last_name: `outside ${runs}` })()
          .then(() => tx.users.touch(client.id, user.id)());
    })();
    expect(E.isLeft(always) && always.left._tag).to.equal('conflict');
    expect(E.isLeft(always) && isWriteConflict(always.left), 'answered as a plain conflict').to.equal(false);
    // Asked at 0; losing run k reads the clock at 2k-1 (the deadline check) and 2k (the wait): run 6 sees 11 > 10 and gives up.
    expect(runs).to.equal(6);
    const once = await store.unitOfWork.run(() => TE.right(1))();
    expect(once).to.deep.equal(E.right(1));
  });

  it('keeps an old version only while a snapshot can read it: a deleted record leaves nothing once no transaction is open', async () => {
    const { db, store, user } = await seeded();
    await expectRight(store.accounts.create(anAccount(user.id)));
    const reader = begin(db);
    await expectRight(store.accounts.deleteAllForUser(user.id));
    expect((await expectRight(reader.ports.accounts.listAll(user.id))).length, 'the open snapshot still reads it').to.equal(1);
    const accounts = db.table<number, number, unknown>('accounts');
    expect([...accounts.partitionKeys()]).to.include(user.id);
    reader.abort();
    expect([...accounts.partitionKeys()], 'released').to.not.include(user.id);
  });
});
