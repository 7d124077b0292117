/**
 * The replay's event limit at its edge (docs/webhook-replay.md: at most 10,000 events in
 * the window, counted over all types), over HTTP on the memory store: a window
 * of 10,001 events is 400 naming `until` and the limit, and arms nothing; the
 * same window narrowed to 10,000 is 202 and arms 10,000 deliveries. The events
 * are written straight to the store (10,001 requests would test the API's
 * rate of writing, not the limit); the store's part, `listWindow` answering at
 * most its `limit`, is in the webhook stores' contract suite on both stores.
 */
import { expect } from 'chai';
import { CURRENT_VERSION, REPLAY_MAX_EVENTS, type ClientId, type StorePorts, type Timestamp } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { Receiver, webhookHarness } from './support/webhook-harness.js';

type Harness = Awaited<ReturnType<typeof webhookHarness>>;

describe(`a replay of at most ${REPLAY_MAX_EVENTS} events (docs/webhook-replay.md), memory store`, function () {
  this.timeout(60_000);
  let h: Harness;
  let store: StorePorts;
  let receiver: Receiver;

  before(async () => {
    store = createMemoryStore();
    h = await webhookHarness({ store });
    receiver = await new Receiver().start();
  });
  after(async () => {
    await h.worker.stop();
    await receiver.stop();
    await store.close();
  });

  it(`${REPLAY_MAX_EVENTS + 1} events in the window: 400 naming until and the limit, nothing armed; narrowed to ${REPLAY_MAX_EVENTS}: 202, ${REPLAY_MAX_EVENTS} armed`, async () => {
    const client = await h.newClient();
    const hook = await h.request
      .post('/api/webhook_endpoints')
      .set(client.auth)
      .send({ url: receiver.url, events: ['*'] });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    // The endpoint existed before the window; each event is one millisecond after the previous.
    const start = h.clock.now().getTime() + 1000;
    const at = (i: number): Timestamp => new Date(start + i).toISOString() as Timestamp;
    const expires = new Date(start + 30 * 86_400_000).toISOString() as Timestamp;
    for (let i = 0; i <= REPLAY_MAX_EVENTS; i++) {
      const appended = await store.events.append({
        client_id: client.id as ClientId,
        type: i % 2 === 0 ? 'account.created' : 'account.updated',
        created_at: at(i),
        api_version: CURRENT_VERSION,
        data: { user_id: null, object: { id: i + 1 } },
        expires_at: expires,
      })();
      if (appended._tag === 'Left') throw new Error(appended.left.message);
    }
    h.clock.advance(REPLAY_MAX_EVENTS + 2000);
    const replay = (since: Timestamp) =>
      h.request
        .post(`/api/webhook_endpoints/${hook.body.id}/replay`)
        .set(client.auth)
        .send({ since, until: at(REPLAY_MAX_EVENTS + 1) });
    const deliveries = async (): Promise<number> =>
      (await h.request.get(`/api/webhook_endpoints/${hook.body.id}/deliveries?limit=1`).set(client.auth)).body.deliveries.length;

    const over = await replay(at(0));
    expect(over.status, JSON.stringify(over.body)).to.equal(400);
    expect(over.body.error.code).to.equal('validation_error');
    expect(over.body.error.details.map((d: { path: string }) => d.path)).to.deep.equal(['until']);
    expect(over.body.error.message).to.include(String(REPLAY_MAX_EVENTS));
    expect(await deliveries()).to.equal(0);

    const edge = await replay(at(1));
    expect(edge.status, JSON.stringify(edge.body)).to.equal(202);
    expect(edge.body).to.include({ events: REPLAY_MAX_EVENTS, deliveries: REPLAY_MAX_EVENTS });
    expect(await deliveries()).to.equal(1);
  });
});
