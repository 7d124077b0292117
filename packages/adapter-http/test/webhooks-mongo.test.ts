/**
 * The events API and webhook delivery on the mongo store (the wire-protocol
 * test server, or MONGODB_URL): the same scenario as webhooks.test.ts, its
 * deliveries signed and verified, and a retried delivery keeping its webhook-id.
 */
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import type { StorePorts } from '@debtkit/core';
import { connectMongoStore } from '@debtkit/adapter-mongo';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { EXPECTED_TYPES, Receiver, listAll, scenario, webhookHarness, type Json } from './support/webhook-harness.js';

describe('events and webhooks on the mongo store', () => {
  let wire: WireServer | undefined;
  let url = '';
  let n = 0;
  const stores: StorePorts[] = [];
  const receivers: Receiver[] = [];
  const realUrl = process.env['MONGODB_URL'];

  before(async () => {
    if (realUrl === undefined || realUrl === '') {
      wire = await startWireServer();
      url = wire.url;
    } else url = realUrl;
  });
  after(async () => {
    await wire?.stop();
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
    for (const store of stores.splice(0)) await store.close();
  });
  const mongoStore = async (): Promise<StorePorts> => {
    const store = await connectMongoStore(url, { dbName: `debtkit_webhooks_${process.pid}_${Date.now().toString(36)}_${++n}` });
    stores.push(store);
    return store;
  };
  const receiver = async (answer?: (n: number) => number): Promise<Receiver> => {
    const r = await new Receiver(answer).start();
    receivers.push(r);
    return r;
  };

  it('records the events of every change in order and delivers each, signed, once', async () => {
    const h = await webhookHarness({ store: await mongoStore() });
    const client = await h.newClient();
    const r = await receiver();
    const hook = (await h.request.post('/api/webhook_endpoints').set(client.auth).send({ url: r.url })).body as Json;
    // Delivered before the user's delete: after it, the user's pending deliveries are canceled (docs/decisions/tenancy.md).
    let live: Json[] = [];
    await scenario(h.request, client.auth, async () => {
      await h.worker.drain();
      live = await listAll(h.request, client.auth);
    });
    await h.worker.drain();
    const events = [...live, ...(await listAll(h.request, client.auth)).slice(live.length)];
    expect(events.map((e) => e['type'])).to.deep.equal(EXPECTED_TYPES);
    const wh = new Webhook(hook['secret']);
    expect(r.received.map((x) => wh.verify(x.body, x.headers as Record<string, string>))).to.deep.equal(events);
    const deliveries = (await h.request.get(`/api/webhook_endpoints/${hook['id']}/deliveries?limit=100`).set(client.auth)).body[
      'deliveries'
    ] as Json[];
    expect(deliveries.map((d) => [d['status'], d['attempts']])).to.deep.equal(EXPECTED_TYPES.map(() => ['succeeded', 1]));
  });

  it('retries after the configured delay with the same webhook-id, then succeeds', async () => {
    const h = await webhookHarness({ store: await mongoStore(), retrySeconds: [2] });
    const client = await h.newClient();
    const r = await receiver((k) => (k === 0 ? 502 : 200));
    const hook = (await h.request.post('/api/webhook_endpoints').set(client.auth).send({ url: r.url })).body as Json;
    const user = (await h.request.post('/api/users').set(client.auth).send({ last_name: 'Doe' })).body as Json;
    await h.request.delete(`/api/users/${user['id']}`).set(client.auth);
    await h.worker.drain();
    h.clock.advance(1999);
    await h.worker.drain();
    expect(r.received).to.have.length(1);
    h.clock.advance(1);
    await h.worker.drain();
    expect(r.received.map((x) => x.headers['webhook-id'])).to.deep.equal([
      r.received[0]!.headers['webhook-id'],
      r.received[0]!.headers['webhook-id'],
    ]);
    const [delivery] = (await h.request.get(`/api/webhook_endpoints/${hook['id']}/deliveries`).set(client.auth)).body[
      'deliveries'
    ] as Json[];
    expect(delivery).to.include({ event_type: 'user.deleted', status: 'succeeded', attempts: 2, last_response_status: 200 });
  });
});
