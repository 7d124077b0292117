/**
 * Core's client and token use cases (`createClientAccess`) on the memory store,
 * with a deterministic hasher and secret generator standing in for the crypto
 * ports, so every stored hash and issued token is known in advance.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import {
  type ClientAccess,
  type StoreError,
  type SecretGenerator,
  type StorePorts,
  type TokenHasher,
  type TokenId,
  createClientAccess,
  unavailable,
  versioning,
} from '@debtkit/core';
import { expectLeft, expectRight } from '@debtkit/core/testing';
import { createMemoryStore } from '../src/index.js';

const clock = { now: () => new Date('2026-03-15T12:00:00.000Z') };
/** Not a hash a server should use: readable, so the test can check what is stored. */
const hasher: TokenHasher = { hash: (token) => `hashed:${token}` };
/** Secrets 'A…A1', 'A…A2', …: 43 base64url characters each, as the port promises. */
const counting = (): SecretGenerator => {
  let n = 0;
  return { secret: () => String(++n).padStart(43, 'A') };
};

const VERSION = '2024-07-01';

describe('client access use cases (memory store)', () => {
  let store: StorePorts;
  let access: ClientAccess;

  beforeEach(() => {
    store = createMemoryStore();
    access = createClientAccess({
      versioning,
      clients: store.clients,
      tokens: store.tokens,
      audit: store.audit,
      clock,
      tokenHasher: hasher,
      secrets: counting(),
      unitOfWork: store.unitOfWork,
    });
  });

  describe('createClient', () => {
    it('creates the client with its first token; only the hash is stored', async () => {
      const created = await expectRight(access.createClient({ name: 'Budget app', environment: 'sandbox', apiVersion: VERSION }));
      expect(created.token).to.equal(`dk_sandbox_${'1'.padStart(43, 'A')}`);
      expect(created.client).to.include({
        name: 'Budget app',
        environment: 'sandbox',
        api_version: VERSION,
        created_at: '2026-03-15T12:00:00.000Z',
      });
      const stored = await expectRight(store.tokens.findByHash(`hashed:${created.token}`));
      expect(O.isSome(stored) && stored.value).to.include({ id: created.tokenId, client_id: created.client.id, revoked_at: null });
    });

    it('uses the production prefix in production', async () => {
      const created = await expectRight(access.createClient({ name: 'Live app', environment: 'production', apiVersion: VERSION }));
      expect(created.token.startsWith('dk_live_')).to.equal(true);
    });

    it('takes a given well-formed token (the sandbox bootstrap token)', async () => {
      const token = `dk_sandbox_${'b'.repeat(43)}`;
      const created = await expectRight(access.createClient({ name: 'Demo', environment: 'sandbox', apiVersion: VERSION }, token));
      expect(created.token).to.equal(token);
    });

    it('refuses a malformed given token and creates nothing', async () => {
      const error = await expectLeft(
        access.createClient({ name: 'Demo', environment: 'sandbox', apiVersion: VERSION }, 'dk_live_short'),
        'validation_error',
      );
      expect(error.message).to.equal('A sandbox token must be dk_sandbox_ followed by 43 base64url characters');
      expect((await expectRight(access.listClients({}))).items).to.deep.equal([]);
    });
  });

  describe('issueToken', () => {
    it('issues another token for an existing client', async () => {
      const created = await expectRight(access.createClient({ name: 'App', environment: 'sandbox', apiVersion: VERSION }));
      const issued = await expectRight(access.issueToken(created.client.id));
      expect(issued.token).to.not.equal(created.token);
      expect(O.toUndefined(await expectRight(access.authenticateToken('sandbox', issued.token)))?.id).to.equal(created.client.id);
    });

    it('answers not_found for an unknown client', async () => {
      const error = await expectLeft(access.issueToken(404 as never), 'not_found');
      expect(error.message).to.equal('Client not found');
    });
  });

  describe('authenticateToken', () => {
    let token: string;
    let tokenId: TokenId;
    beforeEach(async () => {
      const created = await expectRight(access.createClient({ name: 'App', environment: 'sandbox', apiVersion: VERSION }));
      token = created.token;
      tokenId = created.tokenId;
    });

    it('finds the client of a valid token', async () => {
      const found = await expectRight(access.authenticateToken('sandbox', token));
      expect(O.toUndefined(found)?.name).to.equal('App');
    });

    it('finds nothing for a malformed, unknown, other-environment or revoked token', async () => {
      const none = async (environment: 'sandbox' | 'production', t: string) =>
        O.isNone(await expectRight(access.authenticateToken(environment, t)));
      expect(await none('sandbox', 'dk_sandbox_short')).to.equal(true);
      expect(await none('sandbox', `dk_sandbox_${'z'.repeat(43)}`)).to.equal(true);
      expect(await none('production', token)).to.equal(true);
      await expectRight(access.revokeToken(tokenId));
      expect(await none('sandbox', token)).to.equal(true);
    });

    it('keeps a store failure an error, not "no such client"', async () => {
      const failing = createClientAccess({
        versioning,
        clients: store.clients,
        tokens: { ...store.tokens, findByHash: (): TE.TaskEither<StoreError, never> => TE.left(unavailable('store down')) },
        audit: store.audit,
        clock,
        tokenHasher: hasher,
        secrets: counting(),
        unitOfWork: store.unitOfWork,
      });
      const result = await failing.authenticateToken('sandbox', token)();
      expect(E.isLeft(result) && result.left._tag).to.equal('unavailable');
    });
  });

  describe('revokeToken', () => {
    it('revokes once; revoking again keeps the first time', async () => {
      const created = await expectRight(access.createClient({ name: 'App', environment: 'sandbox', apiVersion: VERSION }));
      await expectRight(access.revokeToken(created.tokenId));
      await expectRight(access.revokeToken(created.tokenId));
      const stored = await expectRight(store.tokens.findByHash(`hashed:${created.token}`));
      expect(O.isSome(stored) && stored.value.revoked_at).to.equal('2026-03-15T12:00:00.000Z');
    });

    it('answers not_found for an unknown token', async () => {
      const error = await expectLeft(access.revokeToken(999 as never), 'not_found');
      expect(error.message).to.equal('Token not found');
    });
  });
});
