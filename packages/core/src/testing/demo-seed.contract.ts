/**
 * The demo seed on a store adapter: it can run at every start (DESIGN 3,
 * issue 11). Seeding again finds the demo by its token and adds nothing; a seed
 * that died part-way is completed by the next one.
 */
import { expect } from 'chai';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { unavailable } from '../domain/errors.js';
import type { Clock } from '../ports/clock.js';
import { demoAccounts, seedDemo } from '../application/demo-seed.js';
import { StoreContractOptions, StoreFactory, expectLeft, expectRight, useFreshStore } from './contract-harness.js';
import { aTokenHash, isoDate } from './record-mothers.js';

const clock: Clock = { now: () => new Date('2024-07-01T12:00:00.000Z') };
const TOKEN_HASH = aTokenHash(4242);

export function demoSeedContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} demo seed`, () => {
    const store = useFreshStore(makeStore, opts);

    it('seeding twice finds the same demo and adds nothing', async () => {
      const first = await expectRight(seedDemo(store(), clock, { tokenHash: TOKEN_HASH }));
      const second = await expectRight(seedDemo(store(), { now: () => new Date('2024-08-01T00:00:00.000Z') }, { tokenHash: TOKEN_HASH }));
      expect(second).to.deep.equal(first);
      expect((await expectRight(store().clients.list({ limit: 10 }))).items).to.have.length(1);
      expect((await expectRight(store().users.list(first.client.id, { limit: 10 }))).items).to.have.length(1);
      expect(await expectRight(store().accounts.listAll(first.user.id))).to.have.length(demoAccounts(isoDate('2024-07-01')).length);
      expect(await expectRight(store().creditScores.history(first.user.id))).to.have.length(1);
      expect((await expectRight(store().bureauFlows.get(first.user.id)))._tag).to.equal('Some');
    });

    it('a seed that died part-way is completed by the next one, without duplicates', async () => {
      let creates = 0;
      const real = store();
      // The store goes away after the third account.
      const dying = {
        ...real,
        accounts: { ...real.accounts, create: (a: Parameters<typeof real.accounts.create>[0]) => (++creates > 3 ? TE.left(unavailable('gone')) : real.accounts.create(a)) },
      };
      dying.accounts.listAll = real.accounts.listAll.bind(real.accounts);
      await expectLeft(seedDemo(dying, clock, { tokenHash: TOKEN_HASH }), 'unavailable');
      const seeded = await expectRight(seedDemo(real, clock, { tokenHash: TOKEN_HASH }));
      const accounts = await expectRight(real.accounts.listAll(seeded.user.id));
      expect(accounts.map((a) => a.name)).to.deep.equal(demoAccounts(isoDate('2024-07-01')).map((a) => a.name));
      expect((await expectRight(real.clients.list({ limit: 10 }))).items).to.have.length(1);
      expect(await expectRight(real.creditScores.history(seeded.user.id))).to.have.length(1);
    });
  });
}
