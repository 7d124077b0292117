/**
 * The demo seed on a store adapter: it can run at every start (docs/operations.md,
 * issue 11). Seeding again finds the demo by its token and adds nothing; a seed
 * that failed part-way leaves nothing reachable and the next one seeds in full;
 * racing seeds converge on one demo.
 */
import { expect } from 'chai';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { unavailable } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import { demoAccounts, seedDemo, statementDemoAccounts } from './demo-seed.js';
import { statementTermsProblems } from '../accounts/statement-terms.js';
import * as E from 'fp-ts/lib/Either.js';
import { StoreContractOptions, StoreFactory, expectLeft, expectRight, run, useFreshStore } from '../testing/contract-harness.js';
import { isoDate } from '../testing/record-mothers.js';
import { aSandboxToken, readableTokenHasher } from '../clients/test-tokens.js';

const clock: Clock = { now: () => new Date('2024-07-01T12:00:00.000Z') };

/** `port` with method `name` replaced by `replace(the original)`; every other method as it is (ports may be class instances). */
const overriding = <P extends object, K extends keyof P>(port: P, name: K, replace: (original: P[K]) => P[K]): P =>
  new Proxy(port, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== name) return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      return replace((value as (...a: unknown[]) => unknown).bind(target) as P[K]);
    },
  });
const TOKEN = aSandboxToken(4242);
const tokenHasher = readableTokenHasher;

export function demoSeedContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} demo seed`, () => {
    const store = useFreshStore(makeStore, opts);

    it('seeding twice finds the same demo and adds nothing', async () => {
      const first = await expectRight(seedDemo({ ...store(), clock, tokenHasher }, { token: TOKEN }));
      const second = await expectRight(
        seedDemo({ ...store(), clock: { now: () => new Date('2024-08-01T00:00:00.000Z') }, tokenHasher }, { token: TOKEN }),
      );
      expect(second).to.deep.equal(first);
      expect((await expectRight(store().tokens.findByHash(tokenHasher.hash(TOKEN))))._tag, 'the token is stored as its hash').to.equal(
        'Some',
      );
      expect((await expectRight(store().clients.list({ limit: 10 }))).items).to.have.length(1);
      expect((await expectRight(store().users.list(first.client.id, { limit: 10 }))).items).to.have.length(2);
      expect(await expectRight(store().accounts.listAll(first.user.id))).to.have.length(demoAccounts(isoDate('2024-07-01')).length);
      expect(await expectRight(store().creditScores.history(first.user.id))).to.have.length(1);
      expect((await expectRight(store().bureauFlows.get(first.user.id)))._tag).to.equal('Some');
    });

    it('seeds a second user whose accounts carry statement terms (docs/decisions/payoff-and-outlook.md), each valid as a link would be; user 1 stays first', async () => {
      const seeded = await expectRight(seedDemo({ ...store(), clock, tokenHasher }, { token: TOKEN }));
      const users = (await expectRight(store().users.list(seeded.client.id, { limit: 10 }))).items;
      expect(users.map((u) => u.id)).to.deep.equal([seeded.user.id, seeded.statementUser!.id]);
      const accounts = await expectRight(store().accounts.listAll(seeded.statementUser!.id));
      expect(accounts.map((a) => a.name)).to.deep.equal(statementDemoAccounts(isoDate('2024-07-01')).map((a) => a.name));
      expect(accounts).to.deep.equal(seeded.statementAccounts);
      for (const a of accounts)
        expect(statementTermsProblems({ ...a, fixedMinimum: a.user_minimum_payment ?? a.minimum_payment }), a.name).to.deep.equal([]);
      expect(accounts.some((a) => a.apr_segments?.some((s) => s.deferred_interest === true))).to.equal(true);
      expect(accounts.some((a) => (a.escrow_payment ?? 0) > 0 && a.subtype === 'mortgage_loan')).to.equal(true);
      expect(accounts.some((a) => (a.accrued_interest ?? 0) > 0 && a.subtype === 'student_loan')).to.equal(true);
      expect(await expectRight(store().creditScores.history(seeded.statementUser!.id))).to.have.length(1);
      expect((await expectRight(store().bureauFlows.get(seeded.statementUser!.id)))._tag).to.equal('Some');
    });

    it('refuses a token no request could use, and stores nothing', async () => {
      await expectLeft(seedDemo({ ...store(), clock, tokenHasher }, { token: 'dk_sandbox_short' }), 'validation_error');
      await expectLeft(
        seedDemo({ ...store(), clock, tokenHasher }, { token: TOKEN.replace('dk_sandbox_', 'dk_live_') }),
        'validation_error',
      );
      expect((await expectRight(store().clients.list({ limit: 10 }))).items).to.deep.equal([]);
    });

    it('a seed that fails part-way deletes what it built; the next one seeds in full, without duplicates', async () => {
      let creates = 0;
      const real = store();
      // The store fails the fourth account.
      const dying = {
        ...real,
        accounts: overriding(real.accounts, 'create', (create) => (a) => (++creates > 3 ? TE.left(unavailable('gone')) : create(a))),
      };
      await expectLeft(seedDemo({ ...dying, clock, tokenHasher }, { token: TOKEN }), 'unavailable');
      expect((await expectRight(real.clients.list({ limit: 10 }))).items, 'nothing left of the failed seed').to.deep.equal([]);
      const seeded = await expectRight(seedDemo({ ...real, clock, tokenHasher }, { token: TOKEN }));
      const accounts = await expectRight(real.accounts.listAll(seeded.user.id));
      expect(accounts.map((a) => a.name)).to.deep.equal(demoAccounts(isoDate('2024-07-01')).map((a) => a.name));
      expect((await expectRight(real.clients.list({ limit: 10 }))).items).to.have.length(1);
      expect(await expectRight(real.creditScores.history(seeded.user.id))).to.have.length(1);
    });

    it('a seed that fails while building the second user deletes both users and the client', async () => {
      let creates = 0;
      const real = store();
      // The store fails the second user's second account (user 1 has seven).
      const dying = {
        ...real,
        accounts: overriding(
          real.accounts,
          'create',
          (create) => (a) => (++creates > demoAccounts(isoDate('2024-07-01')).length + 1 ? TE.left(unavailable('gone')) : create(a)),
        ),
      };
      await expectLeft(seedDemo({ ...dying, clock, tokenHasher }, { token: TOKEN }), 'unavailable');
      expect((await expectRight(real.clients.list({ limit: 10 }))).items, 'nothing left of the failed seed').to.deep.equal([]);
      const seeded = await expectRight(seedDemo({ ...real, clock, tokenHasher }, { token: TOKEN }));
      expect(await expectRight(real.accounts.listAll(seeded.statementUser!.id))).to.have.length(
        statementDemoAccounts(isoDate('2024-07-01')).length,
      );
    });

    it('publishing with an unknown outcome (stored, then the answer lost) deletes nothing; the next seed finds the demo', async () => {
      const real = store();
      const lost = {
        ...real,
        tokens: overriding(
          real.tokens,
          'create',
          (create) =>
            (...args) =>
              TE.chainW(() => TE.left(unavailable('answer lost')))(create(...args)),
        ),
      };
      await expectLeft(seedDemo({ ...lost, clock, tokenHasher }, { token: TOKEN }), 'unavailable');
      const seeded = await expectRight(seedDemo({ ...real, clock, tokenHasher }, { token: TOKEN }));
      expect((await expectRight(real.clients.list({ limit: 10 }))).items).to.deep.equal([seeded.client]);
      expect(await expectRight(real.accounts.listAll(seeded.user.id))).to.have.length(demoAccounts(isoDate('2024-07-01')).length);
    });
  });
}

/**
 * Seeds racing on an empty store (two API processes starting at the same
 * instant): they converge on one demo. Part of the concurrency contract, so it
 * runs on the interleaved memory store and on mongo through the real driver.
 */
export function demoSeedConcurrencyContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} demo seed under concurrency`, () => {
    const store = useFreshStore(makeStore, opts);

    it('three seeds at the same instant on an empty store: one demo client, user, set of accounts, flow and score; all three answer it', async () => {
      const seeds = await Promise.all([1, 2, 3].map(() => run(seedDemo({ ...store(), clock, tokenHasher }, { token: TOKEN }))));
      const [first, ...others] = seeds.map((seed) => {
        if (E.isLeft(seed)) return expect.fail(`a racing seed failed: ${JSON.stringify(seed.left)}`);
        return seed.right;
      });
      for (const other of others) expect(other).to.deep.equal(first);
      const clients = (await expectRight(store().clients.list({ limit: 10 }))).items;
      expect(clients.map((c) => c.id)).to.deep.equal([first!.client.id]);
      const token = await expectRight(store().tokens.findByHash(tokenHasher.hash(TOKEN)));
      expect(token._tag === 'Some' ? token.value.client_id : undefined).to.equal(first!.client.id);
      const users = (await expectRight(store().users.list(first!.client.id, { limit: 10 }))).items;
      expect(users).to.deep.equal([first!.user, first!.statementUser]);
      expect(await expectRight(store().accounts.listAll(first!.statementUser!.id))).to.deep.equal(first!.statementAccounts);
      const accounts = await expectRight(store().accounts.listAll(first!.user.id));
      expect(accounts.map((a) => a.name)).to.deep.equal(demoAccounts(isoDate('2024-07-01')).map((a) => a.name));
      expect(accounts).to.deep.equal(first!.accounts);
      expect(await expectRight(store().creditScores.history(first!.user.id))).to.have.length(1);
      expect((await expectRight(store().bureauFlows.get(first!.user.id)))._tag).to.equal('Some');
      // Seeding again afterwards finds the same demo.
      expect(await expectRight(seedDemo({ ...store(), clock, tokenHasher }, { token: TOKEN }))).to.deep.equal(first);
    });
  });
}
