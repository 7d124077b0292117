/**
 * Contract of `IdempotencyStore` (docs/decisions/idempotency.md): run against every store adapter.
 * Time comes from the request (`now`), so expiry and abandoned claims are
 * tested without waiting.
 */
import { expect } from 'chai';
import { IDEMPOTENCY_CLAIM_TIMEOUT_MS, IDEMPOTENCY_KEY_TTL_MS, type IdempotencyClaimRequest } from '../shared/idempotency.js';
import { withClaimTimeout } from '../shared/idempotency-store.js';
import { StoreContractOptions, StoreFactory, expectRight, useFreshStore } from './contract-harness.js';
import { anId } from './record-mothers.js';

const T0 = new Date('2024-07-01T12:00:00.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const CLIENT = anId('client', 1);
const fingerprint = { method: 'POST', path: '/api/users', bodyHash: 'abc' };
const response = { status: 201, body: '{"id":1}', apiVersion: '2024-07-01' };

let claims = 0;
const aClaim = (overrides: Partial<IdempotencyClaimRequest> = {}): IdempotencyClaimRequest => ({
  clientId: CLIENT,
  key: 'key-1',
  fingerprint,
  claimId: `claim-${++claims}`,
  now: T0,
  ...overrides,
});

export function idempotencyStoreContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} IdempotencyStore contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('a new key is claimed; the same request while it runs is in progress; another request is a mismatch', async () => {
      const keys = store().idempotency;
      expect(await expectRight(keys.claim(aClaim()))).to.deep.equal({ _tag: 'claimed' });
      expect(await expectRight(keys.claim(aClaim({ now: at(1000) })))).to.deep.equal({ _tag: 'in_progress' });
      for (const other of [
        { ...fingerprint, bodyHash: 'def' },
        { ...fingerprint, path: '/api/users/1/accounts' },
        { ...fingerprint, method: 'PATCH' },
      ]) {
        expect(await expectRight(keys.claim(aClaim({ fingerprint: other })))).to.deep.equal({ _tag: 'mismatch' });
      }
    });

    it('a completed key answers its response to the same request, a mismatch to another', async () => {
      const keys = store().idempotency;
      const first = aClaim();
      await expectRight(keys.claim(first));
      await expectRight(keys.complete(CLIENT, 'key-1', first.claimId, response, at(10)));
      expect(await expectRight(keys.claim(aClaim({ now: at(20) })))).to.deep.equal({ _tag: 'completed', response });
      expect(await expectRight(keys.claim(aClaim({ now: at(20), fingerprint: { ...fingerprint, bodyHash: 'x' } })))).to.deep.equal({
        _tag: 'mismatch',
      });
    });

    it('keys are scoped per client', async () => {
      const keys = store().idempotency;
      await expectRight(keys.claim(aClaim()));
      expect(await expectRight(keys.claim(aClaim({ clientId: anId('client', 2) })))).to.deep.equal({ _tag: 'claimed' });
    });

    it('a released key is free again; only its claim can release or complete it', async () => {
      const keys = store().idempotency;
      const first = aClaim();
      await expectRight(keys.claim(first));
      await expectRight(keys.release(CLIENT, 'key-1', 'someone-else'));
      await expectRight(keys.complete(CLIENT, 'key-1', 'someone-else', response, T0));
      expect(await expectRight(keys.claim(aClaim()))).to.deep.equal({ _tag: 'in_progress' });
      await expectRight(keys.release(CLIENT, 'key-1', first.claimId));
      expect(await expectRight(keys.claim(aClaim({ fingerprint: { ...fingerprint, bodyHash: 'new' } })))).to.deep.equal({
        _tag: 'claimed',
      });
    });

    it(`a claim whose request died is free after ${IDEMPOTENCY_CLAIM_TIMEOUT_MS / 1000} s, and the dead claim can no longer complete it`, async () => {
      const keys = store().idempotency;
      const dead = aClaim();
      await expectRight(keys.claim(dead));
      expect(await expectRight(keys.claim(aClaim({ now: at(IDEMPOTENCY_CLAIM_TIMEOUT_MS - 1) })))).to.deep.equal({ _tag: 'in_progress' });
      const retry = aClaim({ now: at(IDEMPOTENCY_CLAIM_TIMEOUT_MS) });
      expect(await expectRight(keys.claim(retry))).to.deep.equal({ _tag: 'claimed' });
      await expectRight(keys.complete(CLIENT, 'key-1', dead.claimId, { ...response, body: 'dead' }, at(IDEMPOTENCY_CLAIM_TIMEOUT_MS + 1)));
      await expectRight(keys.complete(CLIENT, 'key-1', retry.claimId, response, at(IDEMPOTENCY_CLAIM_TIMEOUT_MS + 2)));
      expect(await expectRight(keys.claim(aClaim({ now: at(IDEMPOTENCY_CLAIM_TIMEOUT_MS + 3) })))).to.deep.equal({
        _tag: 'completed',
        response,
      });
    });

    it('a claim request naming its own claim timeout (a deployment setting) frees a dead claim after that long', async () => {
      const keys = withClaimTimeout(store().idempotency, 5_000);
      await expectRight(keys.claim(aClaim()));
      expect(await expectRight(keys.claim(aClaim({ now: at(4_999) })))).to.deep.equal({ _tag: 'in_progress' });
      expect(await expectRight(keys.claim(aClaim({ now: at(5_000) })))).to.deep.equal({ _tag: 'claimed' });
    });

    it('a completed key is kept 24 hours after its response, then free', async () => {
      const keys = store().idempotency;
      const first = aClaim();
      await expectRight(keys.claim(first));
      await expectRight(keys.complete(CLIENT, 'key-1', first.claimId, response, at(1000)));
      expect((await expectRight(keys.claim(aClaim({ now: at(1000 + IDEMPOTENCY_KEY_TTL_MS - 1) }))))._tag).to.equal('completed');
      const later = aClaim({ now: at(1000 + IDEMPOTENCY_KEY_TTL_MS), fingerprint: { ...fingerprint, bodyHash: 'other' } });
      expect(await expectRight(keys.claim(later))).to.deep.equal({ _tag: 'claimed' });
    });

    it('of concurrent claims of one new key exactly one wins', async () => {
      const keys = store().idempotency;
      const results = await Promise.all(Array.from({ length: 10 }, () => expectRight(keys.claim(aClaim({ key: 'race' })))));
      expect(results.filter((r) => r._tag === 'claimed')).to.have.length(1);
      expect(results.filter((r) => r._tag === 'in_progress')).to.have.length(9);
    });

    it('of concurrent take-overs of an abandoned key exactly one wins', async () => {
      const keys = store().idempotency;
      await expectRight(keys.claim(aClaim({ key: 'abandoned' })));
      const later = at(IDEMPOTENCY_CLAIM_TIMEOUT_MS + 5);
      const results = await Promise.all(
        Array.from({ length: 10 }, () => expectRight(keys.claim(aClaim({ key: 'abandoned', now: later })))),
      );
      expect(results.filter((r) => r._tag === 'claimed')).to.have.length(1);
    });
  });
}
