/**
 * Contract of `ClientRepository`: run against every store adapter.
 */
import { expect } from 'chai';
import { Client } from './client.js';
import {
  StoreContractOptions,
  StoreFactory,
  expectAscending,
  expectNone,
  expectRight,
  expectSome,
  useFreshStore,
} from '../testing/contract-harness.js';
import { itPagesAscendingById } from '../testing/paging.contract.js';
import { aClient } from './record-mothers.js';
import { anId, timestamp } from '../testing/record-mothers.js';

export function clientRepositoryContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} ClientRepository contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('create returns the client with a new id; findById reads back exactly what was stored', async () => {
      const input = aClient({ name: 'Budget Buddy', environment: 'production', created_at: timestamp('2024-02-03T04:05:06.789Z') });
      const created = await expectRight(store().clients.create(input));
      expect(Client.is(created)).to.equal(true);
      expect(created).to.deep.equal({ ...input, id: created.id });
      const found = await expectSome(store().clients.findById(created.id));
      expect(Client.is(found)).to.equal(true);
      expect(found).to.deep.equal(created);
      // One field order on every store: the admin API answers the record as it is, and tools read it as text (the admin tour in docs/operations.md does).
      expect(Object.keys(created)[0]).to.equal('id');
      expect(Object.keys(found)).to.deep.equal(Object.keys(created));
    });

    it('delete removes the one client (true), then finds none (false); the others stay', async () => {
      const a = await expectRight(store().clients.create(aClient({ name: 'A' })));
      const b = await expectRight(store().clients.create(aClient({ name: 'B' })));
      expect(await expectRight(store().clients.delete(a.id))).to.equal(true);
      await expectNone(store().clients.findById(a.id));
      expect(await expectRight(store().clients.delete(a.id))).to.equal(false);
      expect((await expectRight(store().clients.list({ limit: 10 }))).items).to.deep.equal([b]);
    });

    it('setApiVersion pins the client to another version, changing nothing else; none for an unknown client', async () => {
      const a = await expectRight(store().clients.create(aClient({ name: 'A', api_version: '2024-07-01' })));
      const b = await expectRight(store().clients.create(aClient({ name: 'B', api_version: '2024-07-01' })));
      const moved = await expectSome(store().clients.setApiVersion(a.id, '2026-11-26'));
      expect(moved).to.deep.equal({ ...a, api_version: '2026-11-26' });
      expect(Object.keys(moved)).to.deep.equal(Object.keys(a));
      expect(await expectSome(store().clients.findById(a.id))).to.deep.equal(moved);
      expect(await expectSome(store().clients.findById(b.id))).to.deep.equal(b);
      await expectNone(store().clients.setApiVersion(anId('client', b.id + 1000), '2026-11-26'));
    });

    it('findById of an unknown id → none', async () => {
      await expectNone(store().clients.findById(anId('client', 1)));
      const created = await expectRight(store().clients.create(aClient()));
      await expectNone(store().clients.findById(anId('client', created.id + 1000)));
    });

    it('allocates ascending ids: each new id is greater than every earlier one', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) ids.push((await expectRight(store().clients.create(aClient({ name: `client ${i}` })))).id);
      expectAscending(ids);
    });

    it('list returns the stored clients exactly', async () => {
      const a = await expectRight(store().clients.create(aClient({ name: 'A' })));
      const b = await expectRight(store().clients.create(aClient({ name: 'B', environment: 'production' })));
      const page = await expectRight(store().clients.list({ limit: 20 }));
      expect(page).to.deep.equal({ items: [a, b], hasMore: false });
      for (const c of page.items) expect(Client.is(c)).to.equal(true);
    });

    itPagesAscendingById(store, {
      create: async (s) => (await expectRight(s.clients.create(aClient()))).id,
      list: (s, page) => expectRight(s.clients.list(page)),
    });

    it('a returned client is a copy: changing it does not change the store', async () => {
      const input = aClient({ name: 'Original' });
      const created = await expectRight(store().clients.create(input));
      (input as { name: string }).name = 'changed input';
      (created as { name: string }).name = 'changed output';
      const found = await expectSome(store().clients.findById(created.id));
      (found as { name: string }).name = 'changed read';
      expect((await expectSome(store().clients.findById(created.id))).name).to.equal('Original');
    });
  });
}
