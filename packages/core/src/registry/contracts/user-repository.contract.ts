/**
 * Contract of `UserRepository`: run against every store adapter. A user is only
 * ever reachable through the client that owns it (docs/decisions/tenancy.md).
 */
import { expect } from 'chai';
import { UserRecord } from '../../users/user.js';
import { AccountRecord } from '../../accounts/account.js';
import {
  StoreContractOptions,
  StoreFactory,
  expectAscending,
  expectNone,
  expectRight,
  expectSome,
  useFreshStore,
} from '../../testing/contract-harness.js';
import { itPagesAscendingById } from '../../testing/paging.contract.js';
import { aUser } from '../../users/record-mothers.js';
import { anAccount } from '../../accounts/record-mothers.js';
import { anId, isoDate, timestamp } from '../../testing/record-mothers.js';

const CLIENT = anId('client', 1);
const OTHER_CLIENT = anId('client', 2);

export function userRepositoryContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} UserRepository contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('create returns the user with a new id; get reads back exactly what was stored', async () => {
      const input = aUser(CLIENT, { created_at: timestamp('2024-03-04T05:06:07.000Z') });
      const created = await expectRight(store().users.create(input));
      expect(UserRecord.is(created)).to.equal(true);
      expect(created).to.deep.equal({ ...input, id: created.id });
      const found = await expectSome(store().users.get(CLIENT, created.id));
      expect(UserRecord.is(found)).to.equal(true);
      expect(found).to.deep.equal(created);
      // One field order on every store, as read and as created.
      expect(Object.keys(created)[0]).to.equal('id');
      expect(Object.keys(found)).to.deep.equal(Object.keys(created));
    });

    it('stores null optional fields as null', async () => {
      const input = aUser(CLIENT, { first_name: null, email: null, date_of_birth: null, phone: null });
      const created = await expectRight(store().users.create(input));
      expect(await expectSome(store().users.get(CLIENT, created.id))).to.deep.equal({ ...input, id: created.id });
    });

    it('get of an unknown id → none', async () => {
      await expectNone(store().users.get(CLIENT, anId('user', 1)));
      const created = await expectRight(store().users.create(aUser(CLIENT)));
      await expectNone(store().users.get(CLIENT, anId('user', created.id + 1000)));
    });

    it('allocates ascending ids across clients: each new id is greater than every earlier one', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) ids.push((await expectRight(store().users.create(aUser(i % 2 === 0 ? CLIENT : OTHER_CLIENT)))).id);
      expectAscending(ids);
    });

    it("ownership: another client's user is not found, not listed, not updated, not deleted", async () => {
      const theirs = await expectRight(store().users.create(aUser(OTHER_CLIENT, { last_name: 'Theirs' })));
      const mine = await expectRight(store().users.create(aUser(CLIENT, { last_name: 'Mine' })));
      await expectNone(store().users.get(CLIENT, theirs.id));
      expect(await expectRight(store().users.list(CLIENT, { limit: 100 }))).to.deep.equal({ items: [mine], hasMore: false });
      await expectNone(store().users.update(CLIENT, theirs.id, { last_name: 'Hijacked' }));
      expect(await expectRight(store().users.delete(CLIENT, theirs.id))).to.equal(false);
      expect(await expectSome(store().users.get(OTHER_CLIENT, theirs.id))).to.deep.equal(theirs);
    });

    it("list returns the client's users exactly, each decoding as a UserRecord", async () => {
      const a = await expectRight(store().users.create(aUser(CLIENT, { first_name: 'A' })));
      const b = await expectRight(store().users.create(aUser(CLIENT, { first_name: null })));
      const page = await expectRight(store().users.list(CLIENT, { limit: 20 }));
      expect(page).to.deep.equal({ items: [a, b], hasMore: false });
      for (const u of page.items) expect(UserRecord.is(u)).to.equal(true);
    });

    itPagesAscendingById(store, {
      create: async (s) => (await expectRight(s.users.create(aUser(CLIENT)))).id,
      createOther: async (s) => (await expectRight(s.users.create(aUser(OTHER_CLIENT)))).id,
      list: (s, page) => expectRight(s.users.list(CLIENT, page)),
    });

    it('update returns the updated user and changes only the given fields', async () => {
      const user = await expectRight(store().users.create(aUser(CLIENT)));
      const updated = await expectSome(store().users.update(CLIENT, user.id, { email: 'new@example.com', phone: null }));
      expect(UserRecord.is(updated)).to.equal(true);
      expect(updated).to.deep.equal({ ...user, email: 'new@example.com', phone: null });
      expect(await expectSome(store().users.get(CLIENT, user.id))).to.deep.equal(updated);
    });

    it('update can set every patchable field; an empty patch changes nothing', async () => {
      const user = await expectRight(store().users.create(aUser(CLIENT)));
      const patch = { first_name: 'Grace', last_name: 'Hopper', email: null, date_of_birth: isoDate('1906-12-09'), phone: '+15555550199' };
      expect(await expectSome(store().users.update(CLIENT, user.id, patch))).to.deep.equal({ ...user, ...patch });
      expect(await expectSome(store().users.update(CLIENT, user.id, {}))).to.deep.equal({ ...user, ...patch });
    });

    it('update: a patch key whose value is undefined leaves that field unchanged', async () => {
      const user = await expectRight(store().users.create(aUser(CLIENT)));
      const updated = await expectSome(store().users.update(CLIENT, user.id, { first_name: undefined, last_name: 'Byron' }));
      expect(updated).to.deep.equal({ ...user, last_name: 'Byron' });
    });

    it('update of an unknown id → none', async () => {
      await expectNone(store().users.update(CLIENT, anId('user', 42), { last_name: 'Ghost' }));
      await expectNone(store().users.get(CLIENT, anId('user', 42)));
    });

    it('update does not change the other users', async () => {
      const a = await expectRight(store().users.create(aUser(CLIENT)));
      const b = await expectRight(store().users.create(aUser(CLIENT)));
      await expectSome(store().users.update(CLIENT, a.id, { last_name: 'Changed' }));
      expect(await expectSome(store().users.get(CLIENT, b.id))).to.deep.equal(b);
    });

    it('delete removes the user: true, then none and false', async () => {
      const user = await expectRight(store().users.create(aUser(CLIENT)));
      const other = await expectRight(store().users.create(aUser(CLIENT)));
      expect(await expectRight(store().users.delete(CLIENT, user.id))).to.equal(true);
      await expectNone(store().users.get(CLIENT, user.id));
      expect(await expectRight(store().users.delete(CLIENT, user.id))).to.equal(false);
      expect(await expectRight(store().users.list(CLIENT, { limit: 20 }))).to.deep.equal({ items: [other], hasMore: false });
    });

    it('delete removes only the user document (the use case deletes what the user owns)', async () => {
      const user = await expectRight(store().users.create(aUser(CLIENT)));
      const account = await expectRight(store().accounts.create(anAccount(user.id)));
      expect(await expectRight(store().users.delete(CLIENT, user.id))).to.equal(true);
      const still = await expectSome(store().accounts.get(user.id, account.id));
      expect(AccountRecord.is(still)).to.equal(true);
      expect(still).to.deep.equal(account);
    });

    it('ids are not reused after a delete', async () => {
      const a = await expectRight(store().users.create(aUser(CLIENT)));
      const b = await expectRight(store().users.create(aUser(CLIENT)));
      await expectRight(store().users.delete(CLIENT, b.id));
      const c = await expectRight(store().users.create(aUser(CLIENT)));
      expectAscending([a.id, b.id, c.id]);
    });

    it('a returned user is a copy: changing it does not change the store', async () => {
      const user = await expectRight(store().users.create(aUser(CLIENT)));
      user.last_name = 'changed output';
      const found = await expectSome(store().users.get(CLIENT, user.id));
      found.first_name = 'changed read';
      const page = await expectRight(store().users.list(CLIENT, { limit: 1 }));
      const listed = page.items[0];
      if (listed !== undefined) listed.email = 'changed list';
      expect(await expectSome(store().users.get(CLIENT, user.id))).to.deep.equal({ ...aUser(CLIENT), id: user.id });
    });

    it('touch writes the user and changes nothing it answers; false for no such user; delete removes it', async () => {
      const user = await expectRight(store().users.create(aUser(CLIENT)));
      expect(await expectRight(store().users.touch(CLIENT, user.id))).to.equal(true);
      expect(await expectSome(store().users.get(CLIENT, user.id))).to.deep.equal(user);
      expect(await expectRight(store().users.list(CLIENT, { limit: 10 }))).to.deep.equal({ items: [user], hasMore: false });
      expect(await expectRight(store().users.touch(anId('client', 999), user.id))).to.equal(false);
      expect(await expectRight(store().users.delete(CLIENT, user.id))).to.equal(true);
      expect(await expectRight(store().users.touch(CLIENT, user.id))).to.equal(false);
      await expectNone(store().users.get(CLIENT, user.id));
    });
  });
}
