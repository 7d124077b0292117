/**
 * Contract of `TokenRepository`: run against every store adapter. Token lookup
 * by hash happens on every request, so it is covered from every side.
 */
import { expect } from 'chai';
import { TokenRecord } from '../domain/client.js';
import type { StorePorts } from '../ports/tokens.js';
import type { Id } from '../domain/primitives.js';
import { StoreContractOptions, StoreFactory, expectAscending, expectLeft, expectNone, expectRight, expectSome, useFreshStore } from './contract-harness.js';
import { CREATED_AT, aClient, aTokenHash, anId, timestamp } from './record-mothers.js';

const REVOKED_AT = timestamp('2024-07-02T08:00:00.000Z');
const REVOKED_AGAIN_AT = timestamp('2024-07-03T09:30:00.000Z');

const newClientId = async (s: StorePorts): Promise<Id> => (await expectRight(s.clients.create(aClient()))).id;

export function tokenRepositoryContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} TokenRepository contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('create stores an unrevoked token; findByHash reads it back exactly', async () => {
      const clientId = await newClientId(store());
      const created = await expectRight(store().tokens.create(clientId, aTokenHash(1), CREATED_AT));
      expect(TokenRecord.is(created)).to.equal(true);
      expect(created).to.deep.equal({ id: created.id, client_id: clientId, hash: aTokenHash(1), created_at: CREATED_AT, revoked_at: null });
      const found = await expectSome(store().tokens.findByHash(aTokenHash(1)));
      expect(TokenRecord.is(found)).to.equal(true);
      expect(found).to.deep.equal(created);
    });

    it('findByHash of an unknown hash → none', async () => {
      await expectNone(store().tokens.findByHash(aTokenHash(1)));
      await expectRight(store().tokens.create(anId(1), aTokenHash(1), CREATED_AT));
      await expectNone(store().tokens.findByHash(aTokenHash(2)));
      // A prefix of a stored hash is not that hash.
      await expectNone(store().tokens.findByHash(aTokenHash(1).slice(0, 32)));
    });

    it('finds each token by its own hash among many, across clients', async () => {
      const created: TokenRecord[] = [];
      for (let i = 1; i <= 6; i++) created.push(await expectRight(store().tokens.create(anId(1 + (i % 2)), aTokenHash(i), CREATED_AT)));
      for (const token of created) expect(await expectSome(store().tokens.findByHash(token.hash))).to.deep.equal(token);
    });

    it('allocates ascending ids: each new id is greater than every earlier one', async () => {
      const ids: number[] = [];
      for (let i = 1; i <= 4; i++) ids.push((await expectRight(store().tokens.create(anId(i), aTokenHash(i), CREATED_AT))).id);
      expectAscending(ids);
    });

    it('a second token with the same hash → Left (not a thrown exception), the first is untouched', async () => {
      const first = await expectRight(store().tokens.create(anId(1), aTokenHash(7), CREATED_AT));
      await expectLeft(store().tokens.create(anId(2), aTokenHash(7), REVOKED_AT));
      expect(await expectSome(store().tokens.findByHash(aTokenHash(7)))).to.deep.equal(first);
    });

    it('revoke sets revoked_at and returns the revoked token; findByHash still finds it', async () => {
      const token = await expectRight(store().tokens.create(anId(1), aTokenHash(3), CREATED_AT));
      const revoked = await expectSome(store().tokens.revoke(token.id, REVOKED_AT));
      expect(TokenRecord.is(revoked)).to.equal(true);
      expect(revoked).to.deep.equal({ ...token, revoked_at: REVOKED_AT });
      expect(await expectSome(store().tokens.findByHash(aTokenHash(3)))).to.deep.equal(revoked);
    });

    it('revoking twice keeps the first revoked_at', async () => {
      const token = await expectRight(store().tokens.create(anId(1), aTokenHash(4), CREATED_AT));
      await expectSome(store().tokens.revoke(token.id, REVOKED_AT));
      const again = await expectSome(store().tokens.revoke(token.id, REVOKED_AGAIN_AT));
      expect(again.revoked_at).to.equal(REVOKED_AT);
      expect((await expectSome(store().tokens.findByHash(aTokenHash(4)))).revoked_at).to.equal(REVOKED_AT);
    });

    it('revoke of an unknown id → none, and revokes nothing else', async () => {
      const token = await expectRight(store().tokens.create(anId(1), aTokenHash(5), CREATED_AT));
      await expectNone(store().tokens.revoke(anId(token.id + 1000), REVOKED_AT));
      expect((await expectSome(store().tokens.findByHash(aTokenHash(5)))).revoked_at).to.equal(null);
    });

    it('revoke touches only the named token', async () => {
      const a = await expectRight(store().tokens.create(anId(1), aTokenHash(10), CREATED_AT));
      const b = await expectRight(store().tokens.create(anId(1), aTokenHash(11), CREATED_AT));
      await expectSome(store().tokens.revoke(a.id, REVOKED_AT));
      expect(await expectSome(store().tokens.findByHash(aTokenHash(11)))).to.deep.equal(b);
    });

    it('a returned token is a copy: changing it does not change the store', async () => {
      const token = await expectRight(store().tokens.create(anId(1), aTokenHash(6), CREATED_AT));
      (token as { revoked_at: string | null }).revoked_at = REVOKED_AT;
      const found = await expectSome(store().tokens.findByHash(aTokenHash(6)));
      (found as { client_id: number }).client_id = 99;
      expect(await expectSome(store().tokens.findByHash(aTokenHash(6)))).to.deep.equal({ ...found, client_id: anId(1), revoked_at: null });
    });
  });
}
