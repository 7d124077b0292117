/**
 * Test webhooks and replay (docs/sandbox-over-time.md) over `app.callback()`, composed by the
 * container (the production worker, URL guard and idempotency), on the memory
 * and the mongo store: `POST /api/webhook_endpoints/{id}/test`,
 * `POST /api/events/{id}/redeliver`, `POST /api/webhook_endpoints/{id}/replay`,
 * their errors, and a receiver that was down getting the window replayed and
 * de-duplicating by `webhook-id`. Every delivery is verified with the
 * `standardwebhooks` verifier. The clock stands still: nothing waits.
 */
import { expect } from 'chai';
import { isRight } from 'fp-ts/lib/Either.js';
import { Webhook } from 'standardwebhooks';
import { CURRENT_VERSION, EVENT_TYPES, type StorePorts } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { webhookEventCodec } from '../src/openapi/openapi-document.js';
import { Receiver, listAll, webhookHarness, type ApiClient, type Json, type Received } from './support/webhook-harness.js';
import { useMongoStores } from './support/mongo-stores.js';

type Harness = Awaited<ReturnType<typeof webhookHarness>>;

const verified = (secret: string, r: Received): Json => {
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
  return JSON.parse(r.body) as Json;
};

const replaySuite = (label: string, makeStore: () => Promise<StorePorts>): void => {
  describe(`test webhooks and replay (docs/sandbox-over-time.md), ${label}`, function () {
    this.timeout(30_000);
    let h: Harness;
    let store: StorePorts;
    const receivers: Receiver[] = [];

    before(async () => {
      store = await makeStore();
      h = await webhookHarness({ store });
    });
    after(async () => {
      await h.worker.stop();
      await store.close();
    });
    afterEach(async () => {
      await Promise.all(receivers.splice(0).map((r) => r.stop()));
    });

    const receiver = async (): Promise<Receiver> => {
      const r = await new Receiver().start();
      receivers.push(r);
      return r;
    };
    const endpointTo = async (client: ApiClient, url: string, events: string[] = ['*']): Promise<{ id: number; secret: string }> => {
      const res = await h.request.post('/api/webhook_endpoints').set(client.auth).send({ url, events });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body as { id: number; secret: string };
    };
    const deliveries = async (client: ApiClient, endpointId: number): Promise<Json[]> => {
      const res = await h.request.get(`/api/webhook_endpoints/${endpointId}/deliveries?limit=100`).set(client.auth);
      expect(res.status).to.equal(200);
      return res.body['deliveries'] as Json[];
    };
    /** A user with a linked card (one `account.created`), then its nickname changed (`account.updated`). */
    const changes = async (client: ApiClient): Promise<void> => {
      const user = await h.request.post('/api/users').set(client.auth).send({ last_name: 'Doe' });
      const card = await h.request.post(`/api/users/${user.body['id']}/accounts`).set(client.auth).send({
        name: 'Card',
        type: 'loan',
        subtype: 'credit_card_loan',
        balance: 120_000,
        institution_apr: 19.99,
        institution_minimum_payment: 3_500,
      });
      expect(card.status).to.equal(201);
      expect(
        (await h.request.patch(`/api/users/${user.body['id']}/accounts/${card.body['id']}`).set(client.auth).send({ nickname: 'Main' }))
          .status,
      ).to.equal(200);
    };
    const expectError = (res: { status: number; body: Json }, status: number, code: string, path?: string): void => {
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body['error']['code']).to.equal(code);
      if (path !== undefined) expect((res.body['error']['details'] as Json[]).map((d) => d['path'])).to.include(path);
      expect(JSON.stringify(res.body)).to.not.match(/at .*\.js|Mongo/);
    };

    describe('POST /api/webhook_endpoints/{endpoint_id}/test', () => {
      it('sends a signed sample event of every type, marked test, recorded as a delivery, realistic for its type', async () => {
        const client = await h.newClient();
        const r = await receiver();
        const hook = await endpointTo(client, r.url, ['account.created']);
        const eventIds: number[] = [];
        for (const type of EVENT_TYPES) {
          const res = await h.request.post(`/api/webhook_endpoints/${hook.id}/test`).set(client.auth).send({ type });
          expect(res.status, JSON.stringify(res.body)).to.equal(202);
          expect(res.body).to.deep.equal({ event_id: res.body['event_id'], deliveries: 1 });
          eventIds.push(res.body['event_id'] as number);
        }
        // Recorded as deliveries of the endpoint (whatever it subscribes to: a test goes where it is sent).
        expect((await deliveries(client, hook.id)).map((d) => [d['event_id'], d['event_type'], d['status']])).to.deep.equal(
          EVENT_TYPES.map((type, i) => [eventIds[i], type, 'pending']),
        );
        await h.worker.drain();
        expect(r.received).to.have.length(EVENT_TYPES.length);
        for (const [i, type] of EVENT_TYPES.entries()) {
          const event = verified(hook.secret, r.received[i]!);
          expect(event).to.include({ id: eventIds[i], type, test: true, api_version: CURRENT_VERSION });
          // The payload is what a real event of the type is: the OpenAPI webhook schema of the type decodes it.
          const { test: _test, ...payload } = event;
          expect(isRight(webhookEventCodec(type).decode(payload)), `${type}: ${JSON.stringify(payload)}`).to.equal(true);
        }
        const plan = JSON.parse(r.received[EVENT_TYPES.indexOf('payment_plan.created')]!.body) as Json;
        // In the latest version a plan carries no schedule (GET .../schedule pages it: docs/api/versions.md).
        expect(plan['data']['object']).not.to.have.property('schedule');
        expect((await deliveries(client, hook.id)).every((d) => d['status'] === 'succeeded' && d['attempts'] === 1)).to.equal(true);
      });

      it('is not one of the client events: not listed, 404 by id and to redeliver, and no other endpoint gets it', async () => {
        const client = await h.newClient();
        const r = await receiver();
        const other = await receiver();
        const hook = await endpointTo(client, r.url);
        const bystander = await endpointTo(client, other.url);
        const res = await h.request.post(`/api/webhook_endpoints/${hook.id}/test`).set(client.auth).send({ type: 'account.created' });
        expect(res.status).to.equal(202);
        await h.worker.drain();
        expect(r.received).to.have.length(1);
        expect(other.received).to.have.length(0);
        expect(await deliveries(client, bystander.id)).to.deep.equal([]);
        expect(await listAll(h.request, client.auth)).to.deep.equal([]);
        expectError(await h.request.get(`/api/events/${res.body['event_id']}`).set(client.auth), 404, 'not_found');
        expectError(await h.request.post(`/api/events/${res.body['event_id']}/redeliver`).set(client.auth).send({}), 404, 'not_found');
      });

      it('errors: unknown or missing type (400 naming type), unknown field, foreign or unknown endpoint (404), disabled endpoint (409); nothing recorded', async () => {
        const client = await h.newClient();
        const stranger = await h.newClient('Stranger');
        const hook = await endpointTo(client, (await receiver()).url);
        const test = (c: ApiClient, id: number | string, body: unknown) =>
          h.request
            .post(`/api/webhook_endpoints/${id}/test`)
            .set(c.auth)
            .send(body as object);
        expectError(await test(client, hook.id, { type: 'account.deleted' }), 400, 'validation_error', 'type');
        expectError(await test(client, hook.id, {}), 400, 'validation_error', 'type');
        expectError(await test(client, hook.id, { type: 'account.created', extra: 1 }), 400, 'validation_error');
        expectError(await test(client, 'x', { type: 'account.created' }), 400, 'validation_error');
        expectError(await test(client, 999_999, { type: 'account.created' }), 404, 'not_found');
        expectError(await test(stranger, hook.id, { type: 'account.created' }), 404, 'not_found');
        expect((await h.request.patch(`/api/webhook_endpoints/${hook.id}`).set(client.auth).send({ status: 'disabled' })).status).to.equal(
          200,
        );
        expectError(await test(client, hook.id, { type: 'account.created' }), 409, 'conflict');
        expect(await deliveries(client, hook.id)).to.deep.equal([]);
      });

      it('with an Idempotency-Key: one test event, the same answer replayed', async () => {
        const client = await h.newClient();
        const hook = await endpointTo(client, (await receiver()).url);
        const send = () =>
          h.request
            .post(`/api/webhook_endpoints/${hook.id}/test`)
            .set(client.auth)
            .set('Idempotency-Key', 'test-once')
            .send({ type: 'user.deleted' });
        const first = await send();
        const again = await send();
        expect(first.status).to.equal(202);
        expect(again.status).to.equal(202);
        expect(again.headers['idempotent-replayed']).to.equal('true');
        expect(again.body).to.deep.equal(first.body);
        expect(await deliveries(client, hook.id)).to.have.length(1);
      });
    });

    describe('POST /api/events/{event_id}/redeliver', () => {
      it('re-arms the delivery to one endpoint (same delivery, same webhook-id, a new series) or to every subscribed enabled endpoint', async () => {
        const client = await h.newClient();
        const a = await receiver();
        const b = await receiver();
        const c = await receiver();
        const hookA = await endpointTo(client, a.url);
        const hookB = await endpointTo(client, b.url, ['account.created']);
        await endpointTo(client, c.url, ['user.deleted']);
        await changes(client);
        await h.worker.drain();
        const [created] = await listAll(h.request, client.auth, '&type=account.created');
        const before = (await deliveries(client, hookA.id)).find((d) => d['event_id'] === created!['id'])!;
        expect(a.received).to.have.length(2);

        const one = await h.request.post(`/api/events/${created!['id']}/redeliver`).set(client.auth).send({ endpoint_id: hookA.id });
        expect(one.status, JSON.stringify(one.body)).to.equal(202);
        expect(one.body).to.deep.equal({ event_id: created!['id'], deliveries: 1 });
        const rearmed = (await deliveries(client, hookA.id)).find((d) => d['event_id'] === created!['id'])!;
        expect(rearmed).to.include({ id: before['id'], status: 'pending', attempts: 0, created_at: before['created_at'] });
        await h.worker.drain();
        expect(a.received).to.have.length(3);
        expect(b.received).to.have.length(1);
        expect(a.received[2]!.headers['webhook-id']).to.equal(a.received[0]!.headers['webhook-id']);
        expect(verified(hookA.secret, a.received[2]!)).to.deep.equal(created);

        const all = await h.request.post(`/api/events/${created!['id']}/redeliver`).set(client.auth).send({});
        expect(all.body).to.deep.equal({ event_id: created!['id'], deliveries: 2 });
        await h.worker.drain();
        expect([a.received.length, b.received.length, c.received.length]).to.deep.equal([4, 2, 0]);
        expect(b.received[1]!.headers['webhook-id']).to.equal(b.received[0]!.headers['webhook-id']);
        expect((await deliveries(client, hookA.id)).find((d) => d['event_id'] === created!['id'])).to.include({
          status: 'succeeded',
          attempts: 1,
        });
      });

      it('with an Idempotency-Key: sent again, the answer is replayed and nothing is re-armed', async () => {
        const client = await h.newClient();
        const r = await receiver();
        await endpointTo(client, r.url);
        await changes(client);
        await h.worker.drain();
        const [event] = await listAll(h.request, client.auth);
        const send = () =>
          h.request.post(`/api/events/${event!['id']}/redeliver`).set(client.auth).set('Idempotency-Key', 'redeliver-once').send({});
        const first = await send();
        expect(first.body).to.deep.equal({ event_id: event!['id'], deliveries: 1 });
        await h.worker.drain();
        const again = await send();
        expect(again.headers['idempotent-replayed']).to.equal('true');
        expect(again.text).to.equal(first.text);
        await h.worker.drain();
        expect(r.received).to.have.length(3);
      });

      it('creates the delivery to an endpoint that had none (registered after the event)', async () => {
        const client = await h.newClient();
        await changes(client);
        h.clock.advance(1000);
        const r = await receiver();
        const late = await endpointTo(client, r.url);
        // The fan-out leaves it out: it did not exist when the event happened.
        await h.worker.drain();
        expect(r.received).to.have.length(0);
        const [event] = await listAll(h.request, client.auth);
        const res = await h.request.post(`/api/events/${event!['id']}/redeliver`).set(client.auth).send({ endpoint_id: late.id });
        expect(res.body).to.deep.equal({ event_id: event!['id'], deliveries: 1 });
        await h.worker.drain();
        expect(r.received).to.have.length(1);
        expect(verified(late.secret, r.received[0]!)).to.deep.equal(event);
      });

      it('errors: unknown or foreign event (404), endpoint_id unknown or not subscribed (400 naming it), disabled (409), bad body (400)', async () => {
        const client = await h.newClient();
        const stranger = await h.newClient('Stranger');
        const hook = await endpointTo(client, (await receiver()).url, ['user.deleted']);
        await changes(client);
        const [event] = await listAll(h.request, client.auth);
        const redeliver = (c: ApiClient, id: number | string, body: unknown) =>
          h.request
            .post(`/api/events/${id}/redeliver`)
            .set(c.auth)
            .send(body as object);
        expectError(await redeliver(client, 999_999, {}), 404, 'not_found');
        expectError(await redeliver(stranger, event!['id'], {}), 404, 'not_found');
        expectError(await redeliver(client, event!['id'], { endpoint_id: 999_999 }), 400, 'validation_error', 'endpoint_id');
        expectError(await redeliver(client, event!['id'], { endpoint_id: hook.id }), 400, 'validation_error', 'endpoint_id');
        expectError(await redeliver(client, event!['id'], { endpoint_id: 'one' }), 400, 'validation_error', 'endpoint_id');
        expectError(await redeliver(client, event!['id'], { endpoint: 1 }), 400, 'validation_error');
        const all = await endpointTo(client, (await receiver()).url);
        expect((await h.request.patch(`/api/webhook_endpoints/${all.id}`).set(client.auth).send({ status: 'disabled' })).status).to.equal(
          200,
        );
        expectError(await redeliver(client, event!['id'], { endpoint_id: all.id }), 409, 'conflict');
        // Without endpoint_id: every enabled endpoint subscribed, here none.
        expect((await redeliver(client, event!['id'], {})).body).to.deep.equal({ event_id: event!['id'], deliveries: 0 });
      });
    });

    describe('POST /api/webhook_endpoints/{endpoint_id}/replay', () => {
      it('a receiver that was down: changes made meanwhile, it comes back, the window is replayed, it de-duplicates by webhook-id', async () => {
        const client = await h.newClient();
        const since = h.clock.now().toISOString();
        // The receiver de-duplicates: it processes a webhook-id once.
        const processed = new Map<string, Json>();
        const r = await receiver();
        const port = Number(new URL(r.url).port);
        const hook = await endpointTo(client, r.url);
        await changes(client);
        await h.worker.drain();
        expect(r.received).to.have.length(2);
        // Down: the next changes' attempts fail, and wait for their retry.
        await r.stop();
        await changes(client);
        h.clock.advance(1000);
        await h.worker.drain();
        const failing = await deliveries(client, hook.id);
        expect(failing.map((d) => [d['status'], d['attempts']])).to.deep.equal([
          ['succeeded', 1],
          ['succeeded', 1],
          ['pending', 1],
          ['pending', 1],
        ]);
        // Back up, on the same address.
        const back = await new Receiver().start('/hooks', port);
        receivers.push(back);
        const until = new Date(h.clock.now().getTime() + 1).toISOString();
        const res = await h.request.post(`/api/webhook_endpoints/${hook.id}/replay`).set(client.auth).send({ since, until });
        expect(res.status, JSON.stringify(res.body)).to.equal(202);
        expect(res.body).to.deep.equal({ since: new Date(since).toISOString(), until, events: 4, deliveries: 4 });
        await h.worker.drain();
        const events = await listAll(h.request, client.auth);
        for (const received of [...r.received, ...back.received])
          processed.set(String(received.headers['webhook-id']), verified(hook.secret, received));
        // Every event once, in order; the two the receiver had before arrived again under the same webhook-id.
        expect(back.received.map((x) => JSON.parse(x.body)['id'])).to.deep.equal(events.map((e) => e['id']));
        expect(back.received.slice(0, 2).map((x) => x.headers['webhook-id'])).to.deep.equal(r.received.map((x) => x.headers['webhook-id']));
        expect([...processed.values()]).to.deep.equal(events);
        const after = await deliveries(client, hook.id);
        expect(after.map((d) => d['id'])).to.deep.equal(failing.map((d) => d['id']));
        expect(after.map((d) => [d['status'], d['attempts']])).to.deep.equal(events.map(() => ['succeeded', 1]));
      });

      it('one replay per endpoint at a time: a second while the first has pending deliveries is 409; once they are done, 202', async () => {
        const client = await h.newClient();
        const since = h.clock.now().toISOString();
        const r = await receiver();
        const port = Number(new URL(r.url).port);
        const hook = await endpointTo(client, r.url);
        await changes(client);
        await r.stop();
        const until = new Date(h.clock.now().getTime() + 1).toISOString();
        const replay = () => h.request.post(`/api/webhook_endpoints/${hook.id}/replay`).set(client.auth).send({ since, until });
        expect((await replay()).body).to.include({ events: 2, deliveries: 2 });
        const second = await replay();
        expectError(second, 409, 'conflict');
        expect(second.body['error']['message']).to.match(/replay/);
        // Another endpoint's replay is not held up.
        const other = await endpointTo(client, (await receiver()).url);
        expect((await h.request.post(`/api/webhook_endpoints/${other.id}/replay`).set(client.auth).send({ since, until })).status).to.equal(
          202,
        );
        await h.worker.drain();
        expectError(await replay(), 409, 'conflict');
        receivers.push(await new Receiver().start('/hooks', port));
        h.clock.advance(10_000);
        await h.worker.drain();
        expect((await replay()).status).to.equal(202);
      });

      it('replays only the window and the types the endpoint subscribes to', async () => {
        const client = await h.newClient();
        const r = await receiver();
        const hook = await endpointTo(client, r.url, ['account.updated']);
        await changes(client);
        h.clock.advance(60_000);
        const since = h.clock.now().toISOString();
        await changes(client);
        await h.worker.drain();
        r.received.length = 0;
        const until = new Date(h.clock.now().getTime() + 1).toISOString();
        const res = await h.request.post(`/api/webhook_endpoints/${hook.id}/replay`).set(client.auth).send({ since, until });
        expect(res.body).to.include({ events: 1, deliveries: 1 });
        await h.worker.drain();
        const updated = await listAll(h.request, client.auth, '&type=account.updated');
        expect(r.received.map((x) => JSON.parse(x.body))).to.deep.equal([updated[1]]);
      });

      it('errors: bad or missing timestamps (400 naming the field), until not after since or over 30 days (400 naming the limit), unknown or foreign endpoint (404), disabled (409)', async () => {
        const client = await h.newClient();
        const stranger = await h.newClient('Stranger');
        const hook = await endpointTo(client, (await receiver()).url);
        const replay = (c: ApiClient, id: number | string, body: unknown) =>
          h.request
            .post(`/api/webhook_endpoints/${id}/replay`)
            .set(c.auth)
            .send(body as object);
        const since = '2026-01-01T00:00:00Z';
        expectError(await replay(client, hook.id, { since: 'yesterday', until: '2026-01-02T00:00:00Z' }), 400, 'validation_error', 'since');
        expectError(await replay(client, hook.id, { since, until: '2026-01-32T00:00:00Z' }), 400, 'validation_error', 'until');
        expectError(await replay(client, hook.id, { since }), 400, 'validation_error', 'until');
        // Impossible moments are refused, not rolled over to another day (2026-02-30 is not 2 March).
        for (const impossible of [
          '2026-02-30T00:00:00Z',
          '2026-02-29T00:00:00Z',
          '2026-04-31T00:00:00.000Z',
          '2026-01-05T24:00:00Z',
          '2026-01-05T10:60:00Z',
          '2026-01-05T10:00:60Z',
        ]) {
          expectError(
            await replay(client, hook.id, { since: impossible, until: '2026-03-10T00:00:00Z' }),
            400,
            'validation_error',
            'since',
          );
        }
        expectError(await replay(client, hook.id, { since, until: since }), 400, 'validation_error', 'until');
        const tooLong = await replay(client, hook.id, { since, until: '2026-01-31T00:00:01Z' });
        expectError(tooLong, 400, 'validation_error', 'until');
        expect(JSON.stringify(tooLong.body)).to.match(/30 days/);
        expect((await replay(client, hook.id, { since, until: '2026-01-31T00:00:00Z' })).status).to.equal(202);
        expectError(await replay(client, 999_999, { since, until: '2026-01-02T00:00:00Z' }), 404, 'not_found');
        expectError(await replay(stranger, hook.id, { since, until: '2026-01-02T00:00:00Z' }), 404, 'not_found');
        expect((await h.request.patch(`/api/webhook_endpoints/${hook.id}`).set(client.auth).send({ status: 'disabled' })).status).to.equal(
          200,
        );
        expectError(await replay(client, hook.id, { since, until: '2026-01-02T00:00:00Z' }), 409, 'conflict');
      });
    });
  });
};

replaySuite('memory store', () => Promise.resolve(createMemoryStore()));

describe('test webhooks and replay on mongo', () => {
  const mongo = useMongoStores('replay');
  replaySuite(mongo.label, () => mongo.connect());
});

describe('test webhooks in production (docs/sandbox-over-time.md: sandbox only)', () => {
  it('answers 404, whatever the endpoint', async () => {
    const h = await webhookHarness({ environment: 'production' });
    const client = await h.newClient();
    const res = await h.request.post('/api/webhook_endpoints/1/test').set(client.auth).send({ type: 'account.created' });
    expect(res.status).to.equal(404);
    expect(res.body['error']['code']).to.equal('not_found');
    // Replay works in production: an unknown endpoint is its own 404, a bad body its 400.
    const replay = await h.request.post('/api/webhook_endpoints/1/replay').set(client.auth).send({ since: 'x', until: 'y' });
    expect(replay.status).to.equal(400);
    await h.worker.stop();
  });
});
