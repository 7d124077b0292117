/**
 * Erasure on delete (docs/decisions/tenancy.md), over HTTP, on the memory store and on the
 * mongo store (the wire-protocol test server, or MONGODB_URL): a user with
 * every personal field, an account, a credit score (bureau flow), keyed
 * creations and a webhook endpoint with deliveries pending; after the user's
 * DELETE, none of the user's personal values appears in any events page,
 * event, webhook delivery sent afterwards or Idempotency-Key replay.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import type { StorePorts } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { useMongoStores } from './support/mongo-stores.js';
import { Receiver, webhookHarness, type ApiClient, type Json } from './support/webhook-harness.js';

const PERSON = {
  first_name: 'Zephyrine',
  last_name: 'Quillfeather',
  email: 'zephyrine.quillfeather@erasure.example',
  date_of_birth: '1987-06-05',
  phone: '+1 555 0199 3377',
};
const ACCOUNT = {
  name: 'Quillfeather Platinum Card',
  type: 'loan',
  subtype: 'credit_card_loan',
  balance: 987_654,
  mask: '8642',
  nickname: 'Zephy travel card',
  institution_name: 'Bank of Erasure',
  institution_logo: 'QmFua09mRXJhc3VyZUxvZ28=',
  institution_apr: 23.45,
  institution_minimum_payment: 4_321,
};
const NICKNAME = 'Zephy renamed card';

/** Every personal value, as it would appear in a JSON text (strings quoted). */
const PERSONAL_VALUES: ReadonlyArray<string> = [
  ...Object.values(PERSON).map((v) => JSON.stringify(v)),
  ...[ACCOUNT.name, ACCOUNT.mask, ACCOUNT.nickname, ACCOUNT.institution_name, ACCOUNT.institution_logo, NICKNAME].map((v) =>
    JSON.stringify(v),
  ),
  String(ACCOUNT.balance),
];

const leaks = (text: string): string[] => PERSONAL_VALUES.filter((v) => text.includes(v));

const STORES = ['memory', 'mongo'] as const;

describe('erasure on delete (docs/decisions/tenancy.md)', function () {
  this.timeout(60_000);
  const mongo = useMongoStores('erasure');
  const stores: StorePorts[] = [];
  const receivers: Receiver[] = [];

  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
    for (const store of stores.splice(0)) await store.close();
  });

  const storeOf = async (kind: (typeof STORES)[number]): Promise<StorePorts> => {
    const store = kind === 'memory' ? createMemoryStore() : await mongo.connect();
    stores.push(store);
    return store;
  };

  for (const kind of STORES) {
    describe(`on the ${kind} store`, () => {
      it('leaves nothing personal of a deleted user in events, deliveries or Idempotency-Key replays', async () => {
        const h = await webhookHarness({ store: await storeOf(kind), retrySeconds: [60, 60, 60] });
        const client = await h.newClient();
        // Fails every attempt until the user is deleted, so the first deliveries stay pending.
        let deleted = false;
        const r = new Receiver(() => (deleted ? 200 : 503));
        receivers.push(await r.start());
        const ok = (res: supertest.Response, status: number): Json => {
          expect(res.status, `${res.status} ${JSON.stringify(res.body)}`).to.equal(status);
          return res.body as Json;
        };
        const hook = ok(await h.request.post('/api/webhook_endpoints').set(client.auth).send({ url: r.url }), 201);

        const createKey = { ...client.auth, 'Idempotency-Key': 'create-zephyrine' };
        const user = ok(await h.request.post('/api/users').set(createKey).send(PERSON), 201);
        const u = `/api/users/${user['id']}`;
        const linkKey = { ...client.auth, 'Idempotency-Key': 'link-zephyrine-card' };
        const account = ok(await h.request.post(`${u}/accounts`).set(linkKey).send(ACCOUNT), 201);
        // account.created is fanned out and attempted once (503): its delivery is pending at the delete.
        await h.worker.drain();
        expect(r.received, 'the first attempt was made').to.have.length(1);
        expect(leaks(r.received[0]!.body), 'what the receiver got before the delete (the search finds it)').to.include(
          JSON.stringify(ACCOUNT.name),
        );

        // Not fanned out before the delete: a credit score carrying the last name, an account update.
        ok(await h.request.post(`${u}/bureau/auth/invoke`).set(client.auth).send({ device_ip: '203.0.113.7' }), 200);
        ok(await h.request.post(`${u}/bureau/auth/consent`).set(client.auth).send({ accepted: true }), 200);
        ok(await h.request.post(`${u}/bureau/auth/validate_otp`).set(client.auth).send({ code: '123456' }), 200);
        ok(
          await h.request
            .post(`${u}/bureau/auth/identity`)
            .set(client.auth)
            .send({ ssn_last4: '1234', date_of_birth: PERSON.date_of_birth }),
          200,
        );
        ok(await h.request.patch(`${u}/accounts/${account['id']}`).set(client.auth).send({ nickname: NICKNAME }), 200);
        const before = ok(await h.request.get(`/api/events?limit=100&user_id=${user['id']}`).set(client.auth), 200);
        expect(leaks(JSON.stringify(before)), 'the events carry personal data before the delete').to.include.members([
          JSON.stringify(PERSON.last_name),
          JSON.stringify(NICKNAME),
        ]);

        ok(await h.request.delete(u).set(client.auth), 204);
        deleted = true;
        const sentBefore = r.received.length;

        // Every events page (with and without the user filter) and every event.
        const pages = [
          ok(await h.request.get('/api/events?limit=100').set(client.auth), 200),
          ok(await h.request.get(`/api/events?limit=100&user_id=${user['id']}`).set(client.auth), 200),
          ok(await h.request.get('/api/events?limit=1').set(client.auth), 200),
        ];
        const events = pages[0]!['events'] as Json[];
        expect(events.map((e) => e['type'])).to.deep.equal([
          'account.created',
          'credit_score.created',
          'bureau_auth.completed',
          'account.updated',
          'user.deleted',
        ]);
        const singles = await Promise.all(events.map(async (e) => ok(await h.request.get(`/api/events/${e['id']}`).set(client.auth), 200)));
        for (const body of [...pages, ...singles]) expect(leaks(JSON.stringify(body)), JSON.stringify(body)).to.deep.equal([]);

        // Shapes stay: ids kept, personal fields emptied; user.deleted as docs/decisions/tenancy.md says: ids only in the
        // client's version (2026-11-26), the emptied user in 2024-07-01.
        const deletedEvent = events.find((e) => e['type'] === 'user.deleted')!;
        expect(deletedEvent['api_version']).to.equal('2026-11-26');
        expect(deletedEvent['data']).to.deep.equal({ user_id: user['id'], object: { id: user['id'] } });
        const deletedOld = ok(
          await h.request.get(`/api/events/${deletedEvent['id']}`).set(client.auth).set('API-Version', '2024-07-01'),
          200,
        );
        expect(deletedOld['api_version']).to.equal('2024-07-01');
        expect(deletedOld['data']).to.deep.equal({
          user_id: user['id'],
          object: {
            id: user['id'],
            first_name: null,
            last_name: '',
            email: null,
            date_of_birth: null,
            phone: null,
            created_at: user['created_at'],
          },
        });
        const created = events.find((e) => e['type'] === 'account.created')!['data']['object'] as Json;
        expect(created).to.include({
          id: account['id'],
          type: 'loan',
          subtype: 'credit_card_loan',
          status: 'active',
          name: '',
          balance: 0,
          mask: null,
          nickname: null,
        });
        expect(Object.keys(created)).to.deep.equal(Object.keys(account));
        const score = events.find((e) => e['type'] === 'credit_score.created')!['data']['object'] as Json;
        expect(score['last_name']).to.equal(null);
        expect(score['score']).to.be.a('number');

        // Idempotency-Key replays of requests about the user: not replayed, nothing personal.
        for (const [headers, path, body] of [
          [createKey, '/api/users', PERSON],
          [linkKey, `${u}/accounts`, ACCOUNT],
        ] as const) {
          const replay = await h.request.post(path).set(headers).send(body);
          expect(replay.status, `${path}: ${replay.text}`).to.equal(404);
          expect(replay.body['error']['code']).to.equal('not_found');
          expect(replay.headers['idempotent-replayed']).to.equal(undefined);
          expect(leaks(replay.text)).to.deep.equal([]);
        }

        // Deliveries: the pending one canceled; those fanned out after the delete canceled when attempted;
        // user.deleted delivered, emptied. Nothing sent after the delete carries a personal value.
        h.clock.advance(61_000);
        await h.worker.drain();
        const sentAfter = r.received.slice(sentBefore);
        expect(sentAfter.map((x) => (JSON.parse(x.body) as Json)['type'])).to.deep.equal(['user.deleted']);
        for (const x of sentAfter) expect(leaks(x.body), x.body).to.deep.equal([]);
        const deliveries = ok(await h.request.get(`/api/webhook_endpoints/${hook['id']}/deliveries?limit=100`).set(client.auth), 200)[
          'deliveries'
        ] as Json[];
        expect(deliveries.map((d) => [d['event_type'], d['status']])).to.deep.equal([
          ['account.created', 'canceled'],
          ['credit_score.created', 'canceled'],
          ['bureau_auth.completed', 'canceled'],
          ['account.updated', 'canceled'],
          ['user.deleted', 'succeeded'],
        ]);
        expect(deliveries[0]).to.include({ attempts: 1, last_response_status: 503, next_attempt_at: null });
        for (const d of deliveries) expect(leaks(JSON.stringify(d))).to.deep.equal([]);
      });

      it('replays nothing personal under any spelling of a path the router accepts', async () => {
        const h = await webhookHarness({ store: await storeOf(kind) });
        const client = await h.newClient();
        const keyed = (key: string) => ({ ...client.auth, 'Idempotency-Key': key });
        // POST /api/users: every spelling the router might accept, each with its own key; those it answers 201 are kept.
        const createSpellings = ['/api/users', '/api/users/', '/api//users', '//api/users', '/api/users//', '/api/%75sers', '/api/Users'];
        const created: Array<{ path: string; key: string; id: number }> = [];
        for (const [i, path] of createSpellings.entries()) {
          const res = await h.request
            .post(path)
            .set(keyed(`create-${i}`))
            .send(PERSON);
          if (res.status === 201) created.push({ path, key: `create-${i}`, id: (res.body as Json)['id'] as number });
          else expect(res.status, `${path}: ${res.text}`).to.be.oneOf([404, 405]);
        }
        expect(
          created.map((c) => c.path),
          'the spellings the router accepts',
        ).to.include.members(['/api/users', '/api/users/']);
        // One user's subtree under every spelling of its id and path.
        const owner = created[0]!.id;
        const id = String(owner);
        const encoded = [...id].map((d) => `%3${d}`).join('');
        const linkSpellings = [
          `/api/users/${id}/accounts`,
          `/api/users/${id}/accounts/`,
          `/api/users/${encoded}/accounts`,
          `/api/users/${encoded}/accounts/`,
          `/api/users/%3${id[0]}${id.slice(1)}/accounts`,
          `/api/users/${id}/%61ccounts`,
          `/api/users//${id}/accounts`,
          `/api/users/${id}//accounts`,
          `/api//users/${id}/accounts`,
        ];
        const planSpellings = [
          `/api/users/${id}/payment_plans`,
          `/api/users/${encoded}/payment_plans/`,
          `/api/users/${id}/payment%5Fplans`,
          `/api/users/${id}/payment%5fplans`,
        ];
        const linked: Array<{ path: string; key: string; body: Json }> = [];
        for (const [i, path] of [...linkSpellings, ...planSpellings].entries()) {
          const body: Json = path.includes('ccounts')
            ? { ...ACCOUNT, name: `${ACCOUNT.name} ${i}` }
            : { strategy: 'avalanche', monthly_payment: 500_000 };
          const res = await h.request
            .post(path)
            .set(keyed(`link-${i}`))
            .send(body);
          if (res.status === 201) linked.push({ path, key: `link-${i}`, body });
          else expect(res.status, `${path}: ${res.text}`).to.be.oneOf([404, 405]);
        }
        expect(
          linked.map((l) => l.path),
          'the spellings the router accepts',
        ).to.include.members([
          `/api/users/${id}/accounts`,
          `/api/users/${id}/accounts/`,
          `/api/users/${encoded}/accounts`,
          `/api/users/${encoded}/payment_plans/`,
        ]);
        const personal = [...PERSONAL_VALUES, ...linked.map((l) => JSON.stringify(l.body['name'])).filter((n) => n !== undefined)];
        const leaksHere = (text: string) => personal.filter((v) => text.includes(v));
        // Before the delete, each spelling replays its own answer.
        for (const l of linked) {
          const again = await h.request.post(l.path).set(keyed(l.key)).send(l.body);
          expect([again.status, again.headers['idempotent-replayed']], l.path).to.deep.equal([201, 'true']);
        }

        for (const c of created) expect((await h.request.delete(`/api/users/${c.id}`).set(client.auth)).status).to.equal(204);

        for (const { path, key, body } of [...created.map((c) => ({ path: c.path, key: c.key, body: PERSON as Json })), ...linked]) {
          const replay = await h.request.post(path).set(keyed(key)).send(body);
          expect(replay.status, `${path}: ${replay.text}`).to.equal(404);
          expect(replay.body['error']['code']).to.equal('not_found');
          expect(replay.headers['idempotent-replayed']).to.equal(undefined);
          expect(leaksHere(replay.text), path).to.deep.equal([]);
        }
      });

      it('keeps another user of the same client as it was', async () => {
        const h = await webhookHarness({ store: await storeOf(kind) });
        const client: ApiClient = await h.newClient();
        const kept = (await h.request.post('/api/users').set(client.auth).send(PERSON)).body as Json;
        const gone = (await h.request.post('/api/users').set(client.auth).send({ last_name: 'Gone' })).body as Json;
        await h.request.post(`/api/users/${kept['id']}/accounts`).set(client.auth).send(ACCOUNT);
        expect((await h.request.delete(`/api/users/${gone['id']}`).set(client.auth)).status).to.equal(204);
        const events = (await h.request.get(`/api/events?user_id=${kept['id']}`).set(client.auth)).body['events'] as Json[];
        expect(events.map((e) => e['data']['object']['name'])).to.deep.equal([ACCOUNT.name]);
        const replay = await h.request
          .post('/api/users')
          .set({ ...client.auth, 'Idempotency-Key': 'kept' })
          .send(PERSON);
        expect(replay.status).to.equal(201);
        const again = await h.request
          .post('/api/users')
          .set({ ...client.auth, 'Idempotency-Key': 'kept' })
          .send(PERSON);
        expect([again.status, again.headers['idempotent-replayed'], again.body['last_name']]).to.deep.equal([
          201,
          'true',
          PERSON.last_name,
        ]);
      });
    });
  }
});
