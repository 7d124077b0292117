/**
 * `Idempotency-Key` over HTTP (docs/decisions/idempotency.md), on the memory store and on the mongo
 * store through the real driver (the wire-protocol test server, or MONGODB_URL).
 */
import { expect } from 'chai';
import { type Clock, type StorePorts } from '@debtkit/core';
import { faultInjectingStore, interleavingStore } from '@debtkit/core/testing';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { useMongoStores } from './support/mongo-stores.js';
import { bodyHash } from '../src/http/pipeline/idempotency-key.js';
import { resourceHarness, type ResourceHarness } from './support/resource-app.js';
import { expectResponseMatchesOpenApi } from './support/openapi-assert.js';

/** A clock the test moves by hand. */
const movableClock = (iso: string): Clock & { advance(ms: number): void } => {
  let now = new Date(iso).getTime();
  return { now: () => new Date(now), advance: (ms) => void (now += ms) };
};

const USER = { last_name: 'Hopper', first_name: 'Grace' };

const userCount = async (h: ResourceHarness): Promise<number> => {
  const res = await h.request.get('/api/users').query({ limit: 100 }).set(h.auth).expect(200);
  return (res.body as { users: unknown[] }).users.length;
};

function idempotencySuite(name: string, makeStore: () => Promise<StorePorts>): void {
  describe(`Idempotency-Key over HTTP (${name})`, function () {
    this.timeout(30_000);
    let store: StorePorts;
    let h: ResourceHarness;
    let clock: ReturnType<typeof movableClock>;

    beforeEach(async () => {
      store = await makeStore();
      clock = movableClock('2026-03-15T12:00:00.000Z');
      h = await resourceHarness(store, clock);
    });
    afterEach(async () => {
      await store.close();
    });

    it('a repeated POST is answered the first response byte for byte, with Idempotent-Replayed, and creates nothing', async () => {
      const before = await userCount(h);
      const first = await h.request.post('/api/users').set(h.auth).set('Idempotency-Key', 'create-grace').send(USER).expect(201);
      expect(first.headers['idempotent-replayed']).to.equal(undefined);
      clock.advance(60 * 60 * 1000);
      const again = await h.request
        .post('/api/users')
        .set(h.auth)
        .set('Idempotency-Key', 'create-grace')
        .send({ first_name: 'Grace', last_name: 'Hopper' })
        .expect(201);
      expect(again.text).to.equal(first.text);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      expect(again.headers['api-version']).to.equal(first.headers['api-version']);
      expect(again.headers['content-type']).to.equal(first.headers['content-type']);
      expect(await userCount(h)).to.equal(before + 1);
      expectResponseMatchesOpenApi(again);
    });

    it('without a key every POST runs', async () => {
      const before = await userCount(h);
      await h.request.post('/api/users').set(h.auth).send(USER).expect(201);
      await h.request.post('/api/users').set(h.auth).send(USER).expect(201);
      expect(await userCount(h)).to.equal(before + 2);
    });

    it('the same key with another body or path: 422 idempotency_key_reused, nothing runs', async () => {
      await h.request.post('/api/users').set(h.auth).set('Idempotency-Key', 'k1').send(USER).expect(201);
      const before = await userCount(h);
      const otherBody = await h.request
        .post('/api/users')
        .set(h.auth)
        .set('Idempotency-Key', 'k1')
        .send({ ...USER, first_name: 'Amazing' })
        .expect(422);
      expect(otherBody.body.error.code).to.equal('idempotency_key_reused');
      expectResponseMatchesOpenApi(otherBody);
      const otherPath = await h.request
        .post('/api/debt_calculator')
        .set(h.auth)
        .set('Idempotency-Key', 'k1')
        .send({ balance: 100_000, apr: 20, monthly_payment: 10_000 })
        .expect(422);
      expect(otherPath.body.error.code).to.equal('idempotency_key_reused');
      expect(await userCount(h)).to.equal(before);
    });

    it('the key is tied to the route and its decoded parameters: another spelling of the same path replays, another id is reused', async () => {
      const user = (await h.request.post('/api/users/').set(h.auth).set('Idempotency-Key', 'spelled').send(USER).expect(201)).body as {
        id: number;
      };
      const plain = await h.request.post('/api/users').set(h.auth).set('Idempotency-Key', 'spelled').send(USER).expect(201);
      expect([plain.headers['idempotent-replayed'], plain.body.id]).to.deep.equal(['true', user.id]);
      const card = { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 100 };
      const encoded = [...String(user.id)].map((d) => `%3${d}`).join('');
      const linked = (
        await h.request.post(`/api/users/${encoded}/accounts/`).set(h.auth).set('Idempotency-Key', 'spelled-link').send(card).expect(201)
      ).body as { id: number };
      const again = await h.request
        .post(`/api/users/${user.id}/accounts`)
        .set(h.auth)
        .set('Idempotency-Key', 'spelled-link')
        .send(card)
        .expect(201);
      expect([again.headers['idempotent-replayed'], again.body.id]).to.deep.equal(['true', linked.id]);
      const other = await h.request
        .post(`/api/users/${user.id + 1000}/accounts`)
        .set(h.auth)
        .set('Idempotency-Key', 'spelled-link')
        .send(card)
        .expect(422);
      expect(other.body.error.code).to.equal('idempotency_key_reused');
    });

    it('a bad key is 400 validation_error and nothing runs', async () => {
      const before = await userCount(h);
      for (const key of ['', 'has space', 'x'.repeat(256), 'naïve']) {
        const res = await h.request.post('/api/users').set(h.auth).set('Idempotency-Key', key).send(USER);
        expect(res.status, JSON.stringify(key)).to.equal(400);
        expect(res.body.error.code).to.equal('validation_error');
      }
      expect(await userCount(h)).to.equal(before);
      // A key of 255 visible characters is fine.
      await h.request.post('/api/users').set(h.auth).set('Idempotency-Key', '~'.repeat(255)).send(USER).expect(201);
    });

    it('a domain error is kept and replayed; a 401 is not kept', async () => {
      const missing = await h.request
        .post('/api/users/999999/accounts')
        .set(h.auth)
        .set('Idempotency-Key', 'nf')
        .send({ name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 100 })
        .expect(404);
      const replayed = await h.request
        .post('/api/users/999999/accounts')
        .set(h.auth)
        .set('Idempotency-Key', 'nf')
        .send({ name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 100 })
        .expect(404);
      expect(replayed.text).to.equal(missing.text);
      expect(replayed.headers['idempotent-replayed']).to.equal('true');

      await h.request
        .post('/api/users')
        .set('Authorization', 'Bearer dk_sandbox_nope')
        .set('Idempotency-Key', 'auth')
        .send(USER)
        .expect(401);
      const ran = await h.request.post('/api/users').set(h.auth).set('Idempotency-Key', 'auth').send(USER).expect(201);
      expect(ran.headers['idempotent-replayed']).to.equal(undefined);
    });

    it('a 503 is not kept: the retry with the same key runs again', async () => {
      const hiccup = faultInjectingStore(store);
      const h2 = await resourceHarness(hiccup, clock);
      // The first store call of the request's transaction (the user's insert) fails once.
      hiccup.failNthCall(1);
      const first = await h2.request.post('/api/users').set(h2.auth).set('Idempotency-Key', 'retry-me').send(USER).expect(503);
      expect(first.body.error.code).to.equal('service_unavailable');
      const retry = await h2.request.post('/api/users').set(h2.auth).set('Idempotency-Key', 'retry-me').send(USER).expect(201);
      expect(retry.headers['idempotent-replayed']).to.equal(undefined);
    });

    it(`while the first request runs: 409 idempotency_key_in_use; a claim whose request died is released after 60 s`, async () => {
      const client = h.demo.client;
      // A request that claimed the key and then died (the process crashed mid-way).
      const claimed = await store.idempotency.claim({
        clientId: client.id,
        key: 'crashed',
        fingerprint: { method: 'POST', path: '/api/users', bodyHash: bodyHash(USER) },
        claimId: 'the-dead-one',
        now: clock.now(),
      })();
      expect(claimed).to.deep.equal({ _tag: 'Right', right: { _tag: 'claimed' } });
      clock.advance(59_000);
      const busy = await h.request.post('/api/users').set(h.auth).set('Idempotency-Key', 'crashed').send(USER).expect(409);
      expect(busy.body.error.code).to.equal('idempotency_key_in_use');
      expectResponseMatchesOpenApi(busy);
      clock.advance(1_000);
      await h.request.post('/api/users').set(h.auth).set('Idempotency-Key', 'crashed').send(USER).expect(201);
    });

    it('when keeping the response fails, nothing is committed (503, key free); the retry with the key runs once', async () => {
      const faulty = faultInjectingStore(store);
      const h2 = await resourceHarness(faulty, clock);
      faulty.reset();
      await h2.request.post('/api/users').set(h2.auth).set('Idempotency-Key', 'probe').send(USER).expect(201);
      // The last store call of the request's transaction keeps its response (docs/decisions/idempotency.md: the key commits with the change).
      const keeping = faulty.callsSinceArmed;
      const before = await userCount(h2);
      faulty.failNthCall(keeping);
      await h2.request.post('/api/users').set(h2.auth).set('Idempotency-Key', 'unkept').send(USER).expect(503);
      expect(await userCount(h2), 'nothing committed').to.equal(before);
      faulty.reset();
      const retry = await h2.request.post('/api/users').set(h2.auth).set('Idempotency-Key', 'unkept').send(USER).expect(201);
      expect(retry.headers['idempotent-replayed']).to.equal(undefined);
      expect(await userCount(h2)).to.equal(before + 1);
    });

    it('concurrent requests with one key: exactly one runs; the others get its response or 409', async () => {
      const interleaved = interleavingStore(store);
      const h2 = await resourceHarness(interleaved, clock);
      const before = await userCount(h2);
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          h2.request
            .post('/api/users')
            .set(h2.auth)
            .set('Idempotency-Key', 'together')
            .send(USER)
            .then((r) => r),
        ),
      );
      const ran = responses.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
      expect(ran).to.have.length(1);
      for (const r of responses) {
        if (r.status === 201) expect(r.text).to.equal(ran[0]!.text);
        else {
          expect(r.status).to.equal(409);
          expect(r.body.error.code).to.equal('idempotency_key_in_use');
        }
      }
      expect(await userCount(h2)).to.equal(before + 1);
    });
  });
}

idempotencySuite('memory store', async () => createMemoryStore());

describe('Idempotency-Key on the mongo store', () => {
  const mongo = useMongoStores('idem');
  idempotencySuite(`mongo store, ${mongo.label}`, mongo.connect);
});
