/**
 * Contract of `TokenRepository`: run against every store adapter. Token lookup
 * by hash happens on every request, so it is covered from every side.
 */
import { latestOnlyVersioning } from '../testing/versioning.js';
import { expect } from 'chai';
import { TokenRecord } from './client.js';
import type { StorePorts } from '../shared/unit-of-work.js';
import type { ClientId } from '../shared/primitives.js';
import {
  StoreContractOptions,
  StoreFactory,
  expectAscending,
  expectLeft,
  expectNone,
  expectRight,
  expectSome,
  useFreshStore,
} from '../testing/contract-harness.js';
import { CREATED_AT, aTokenHash, anId, timestamp } from '../testing/record-mothers.js';
import { aClient } from './record-mothers.js';
import { createClientAccess } from './use-cases.js';
import { readableTokenHasher } from './test-tokens.js';
import { sequentialSecrets } from '../testing/test-secrets.js';
import * as O from 'fp-ts/lib/Option.js';

const REVOKED_AT = timestamp('2024-07-02T08:00:00.000Z');
const REVOKED_AGAIN_AT = timestamp('2024-07-03T09:30:00.000Z');
const EXPIRES_AT = timestamp('2024-07-04T00:00:00.000Z');
const EXPIRES_LATER_AT = timestamp('2024-07-05T00:00:00.000Z');

const newClientId = async (s: StorePorts): Promise<ClientId> => (await expectRight(s.clients.create(aClient()))).id;

export function tokenRepositoryContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} TokenRepository contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('create stores an unrevoked token; findByHash reads it back exactly', async () => {
      const clientId = await newClientId(store());
      const created = await expectRight(store().tokens.create(clientId, aTokenHash(1), CREATED_AT));
      expect(TokenRecord.is(created)).to.equal(true);
      expect(created).to.deep.equal({
        id: created.id,
        client_id: clientId,
        hash: aTokenHash(1),
        created_at: CREATED_AT,
        revoked_at: null,
        expires_at: null,
      });
      const found = await expectSome(store().tokens.findByHash(aTokenHash(1)));
      expect(TokenRecord.is(found)).to.equal(true);
      expect(found).to.deep.equal(created);
    });

    it('findByHash of an unknown hash → none', async () => {
      await expectNone(store().tokens.findByHash(aTokenHash(1)));
      await expectRight(store().tokens.create(anId('client', 1), aTokenHash(1), CREATED_AT));
      await expectNone(store().tokens.findByHash(aTokenHash(2)));
      // A prefix of a stored hash is not that hash.
      await expectNone(store().tokens.findByHash(aTokenHash(1).slice(0, 32)));
    });

    it('finds each token by its own hash among many, across clients', async () => {
      const created: TokenRecord[] = [];
      for (let i = 1; i <= 6; i++)
        created.push(await expectRight(store().tokens.create(anId('client', 1 + (i % 2)), aTokenHash(i), CREATED_AT)));
      for (const token of created) expect(await expectSome(store().tokens.findByHash(token.hash))).to.deep.equal(token);
    });

    it('allocates ascending ids: each new id is greater than every earlier one', async () => {
      const ids: number[] = [];
      for (let i = 1; i <= 4; i++) ids.push((await expectRight(store().tokens.create(anId('client', i), aTokenHash(i), CREATED_AT))).id);
      expectAscending(ids);
    });

    it('a second token with the same hash → Left (not a thrown exception), the first is untouched', async () => {
      const first = await expectRight(store().tokens.create(anId('client', 1), aTokenHash(7), CREATED_AT));
      await expectLeft(store().tokens.create(anId('client', 2), aTokenHash(7), REVOKED_AT));
      expect(await expectSome(store().tokens.findByHash(aTokenHash(7)))).to.deep.equal(first);
    });

    it('revoke sets revoked_at and returns the revoked token; findByHash still finds it', async () => {
      const token = await expectRight(store().tokens.create(anId('client', 1), aTokenHash(3), CREATED_AT));
      const revoked = await expectSome(store().tokens.revoke(token.id, REVOKED_AT));
      expect(TokenRecord.is(revoked)).to.equal(true);
      expect(revoked).to.deep.equal({ ...token, revoked_at: REVOKED_AT });
      expect(await expectSome(store().tokens.findByHash(aTokenHash(3)))).to.deep.equal(revoked);
    });

    it('revoking twice keeps the first revoked_at', async () => {
      const token = await expectRight(store().tokens.create(anId('client', 1), aTokenHash(4), CREATED_AT));
      await expectSome(store().tokens.revoke(token.id, REVOKED_AT));
      const again = await expectSome(store().tokens.revoke(token.id, REVOKED_AGAIN_AT));
      expect(again.revoked_at).to.equal(REVOKED_AT);
      expect((await expectSome(store().tokens.findByHash(aTokenHash(4)))).revoked_at).to.equal(REVOKED_AT);
    });

    it('revoke of an unknown id → none, and revokes nothing else', async () => {
      const token = await expectRight(store().tokens.create(anId('client', 1), aTokenHash(5), CREATED_AT));
      await expectNone(store().tokens.revoke(anId('token', token.id + 1000), REVOKED_AT));
      expect((await expectSome(store().tokens.findByHash(aTokenHash(5)))).revoked_at).to.equal(null);
    });

    it('revoke touches only the named token', async () => {
      const a = await expectRight(store().tokens.create(anId('client', 1), aTokenHash(10), CREATED_AT));
      const b = await expectRight(store().tokens.create(anId('client', 1), aTokenHash(11), CREATED_AT));
      await expectSome(store().tokens.revoke(a.id, REVOKED_AT));
      expect(await expectSome(store().tokens.findByHash(aTokenHash(11)))).to.deep.equal(b);
    });

    it('a returned token is a copy: changing it does not change the store', async () => {
      const token = await expectRight(store().tokens.create(anId('client', 1), aTokenHash(6), CREATED_AT));
      (token as { revoked_at: string | null }).revoked_at = REVOKED_AT;
      const found = await expectSome(store().tokens.findByHash(aTokenHash(6)));
      (found as { client_id: number }).client_id = 99;
      expect(await expectSome(store().tokens.findByHash(aTokenHash(6)))).to.deep.equal({
        ...found,
        client_id: anId('client', 1),
        revoked_at: null,
      });
    });

    it('findById reads a token back exactly; an unknown id → none', async () => {
      const token = await expectRight(store().tokens.create(anId('client', 1), aTokenHash(20), CREATED_AT));
      expect(await expectSome(store().tokens.findById(token.id))).to.deep.equal(token);
      await expectNone(store().tokens.findById(anId('token', token.id + 1000)));
    });

    it("listByClient pages the client's tokens ascending by id, revoked and expiring ones too, and no other client's", async () => {
      const mine: TokenRecord[] = [];
      for (let i = 1; i <= 5; i++) {
        mine.push(await expectRight(store().tokens.create(anId('client', 1), aTokenHash(30 + i), CREATED_AT)));
        await expectRight(store().tokens.create(anId('client', 2), aTokenHash(40 + i), CREATED_AT));
      }
      await expectSome(store().tokens.revoke(mine[1]!.id, REVOKED_AT));
      await expectSome(store().tokens.expire(mine[2]!.id, EXPIRES_AT));
      const all = await expectRight(store().tokens.listByClient(anId('client', 1), { limit: 10 }));
      expect(all.hasMore).to.equal(false);
      expect(all.items.map((t) => t.id)).to.deep.equal(mine.map((t) => t.id));
      expect(all.items[1]!.revoked_at).to.equal(REVOKED_AT);
      expect(all.items[2]!.expires_at).to.equal(EXPIRES_AT);
      const first = await expectRight(store().tokens.listByClient(anId('client', 1), { limit: 2 }));
      expect([first.items.map((t) => t.id), first.hasMore]).to.deep.equal([mine.slice(0, 2).map((t) => t.id), true]);
      const rest = await expectRight(store().tokens.listByClient(anId('client', 1), { limit: 3, startingAfter: mine[1]!.id }));
      expect([rest.items.map((t) => t.id), rest.hasMore]).to.deep.equal([mine.slice(2).map((t) => t.id), false]);
      expect((await expectRight(store().tokens.listByClient(anId('client', 3), { limit: 10 }))).items).to.deep.equal([]);
    });

    it('expire sets expires_at once (the first roll wins), never on a revoked token; unknown → none', async () => {
      const token = await expectRight(store().tokens.create(anId('client', 1), aTokenHash(50), CREATED_AT));
      expect(await expectSome(store().tokens.expire(token.id, EXPIRES_AT))).to.deep.equal({ ...token, expires_at: EXPIRES_AT });
      expect((await expectSome(store().tokens.expire(token.id, EXPIRES_LATER_AT))).expires_at).to.equal(EXPIRES_AT);
      expect((await expectSome(store().tokens.findByHash(aTokenHash(50)))).expires_at).to.equal(EXPIRES_AT);
      const revoked = await expectRight(store().tokens.create(anId('client', 1), aTokenHash(51), CREATED_AT));
      await expectSome(store().tokens.revoke(revoked.id, REVOKED_AT));
      expect(await expectSome(store().tokens.expire(revoked.id, EXPIRES_AT))).to.deep.equal({ ...revoked, revoked_at: REVOKED_AT });
      await expectNone(store().tokens.expire(anId('token', revoked.id + 1000), EXPIRES_AT));
    });

    it('a token stored before expires_at existed reads as not expiring, authenticates, and can be rolled', async function () {
      if (opts.writeLegacyToken === undefined) {
        console.log(`    (skipped on ${name}: the store cannot hold a record of an older release)`);
        this.skip();
      }
      const client = await expectRight(store().clients.create(aClient()));
      const token = `dk_sandbox_${'L'.repeat(43)}`;
      const legacy = { id: 7001, client_id: client.id, hash: readableTokenHasher.hash(token), created_at: CREATED_AT, revoked_at: null };
      await opts.writeLegacyToken(store(), legacy);
      const expected = { ...legacy, expires_at: null };
      expect(await expectSome(store().tokens.findByHash(legacy.hash))).to.deep.equal(expected);
      expect(await expectSome(store().tokens.findById(anId('token', 7001)))).to.deep.equal(expected);
      expect((await expectRight(store().tokens.listByClient(client.id, { limit: 10 }))).items).to.deep.equal([expected]);
      const now = new Date('2024-07-02T00:00:00.000Z');
      const access = createClientAccess({
        ...store(),
        clock: { now: () => now },
        tokenHasher: readableTokenHasher,
        secrets: sequentialSecrets(),
        versioning: latestOnlyVersioning,
      });
      expect(O.isSome(await expectRight(access.authenticateToken('sandbox', token)))).to.equal(true);
      const rolled = await expectRight(access.rollToken(anId('token', 7001), 60));
      expect(rolled.replaces).to.deep.equal({ tokenId: 7001, expiresAt: '2024-07-02T00:01:00.000Z' });
      expect((await expectSome(store().tokens.findById(anId('token', 7001)))).expires_at).to.equal('2024-07-02T00:01:00.000Z');
    });
  });
}
