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
import { isoDate } from './record-mothers.js';
import { aSandboxToken, readableTokenHasher } from './test-secrets.js';

const clock: Clock = { now: () => new Date('2024-07-01T12:00:00.000Z') };
const TOKEN = aSandboxToken(4242);
const tokenHasher = readableTokenHasher;

export function demoSeedContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} demo seed`, () => {
    const store = useFreshStore(makeStore, opts);

    it('seeding twice finds the same demo and adds nothing', async () => {
      const first = await expectRight(seedDemo({ ...store(), clock, tokenHasher }, { token: TOKEN }));
      const second = await expectRight(seedDemo({ ...store(), clock: { now: () => new Date('2024-08-01T00:00:00.000Z') }, tokenHasher }, { token: TOKEN }));
      expect(second).to.deep.equal(first);
      expect((await expectRight(store().tokens.findByHash(tokenHasher.hash(TOKEN))))._tag, 'the token is stored as its hash').to.equal('Some');
      expect((await expectRight(store().clients.list({ limit: 10 }))).items).to.have.length(1);
      expect((await expectRight(store().users.list(first.client.id, { limit: 10 }))).items).to.have.length(1);
      expect(await expectRight(store().accounts.listAll(first.user.id))).to.have.length(demoAccounts(isoDate('2024-07-01')).length);
      expect(await expectRight(store().creditScores.history(first.user.id))).to.have.length(1);
      expect((await expectRight(store().bureauFlows.get(first.user.id)))._tag).to.equal('Some');
    });

    it('refuses a token no request could use, and stores nothing', async () => {
      await expectLeft(seedDemo({ ...store(), clock, tokenHasher }, { token: 'dk_sandbox_short' }), 'validation_error');
      await expectLeft(seedDemo({ ...store(), clock, tokenHasher }, { token: TOKEN.replace('dk_sandbox_', 'dk_live_') }), 'validation_error');
      expect((await expectRight(store().clients.list({ limit: 10 }))).items).to.deep.equal([]);
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
      await expectLeft(seedDemo({ ...dying, clock, tokenHasher }, { token: TOKEN }), 'unavailable');
      const seeded = await expectRight(seedDemo({ ...real, clock, tokenHasher }, { token: TOKEN }));
      const accounts = await expectRight(real.accounts.listAll(seeded.user.id));
      expect(accounts.map((a) => a.name)).to.deep.equal(demoAccounts(isoDate('2024-07-01')).map((a) => a.name));
      expect((await expectRight(real.clients.list({ limit: 10 }))).items).to.have.length(1);
      expect(await expectRight(real.creditScores.history(seeded.user.id))).to.have.length(1);
    });
  });
}
