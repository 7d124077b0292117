/**
 * Fair webhooks (docs/decisions/tenancy.md), on the memory and the mongo store (the
 * wire-protocol test server, or MONGODB_URL): a client whose receivers never
 * answer cannot delay another client's delivery; at most 2 attempts in
 * flight per client, 1 per endpoint, 8 per process, handed out in turn
 * across clients; an endpoint failing for 3 days is disabled, with a
 * `webhook_endpoint.disabled` event, and a client's PATCH enables it afresh.
 * The receivers are real servers on 127.0.0.1; the clock is the test's.
 */
import { expect } from 'chai';
import type { StorePorts } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { connectMongoStore } from '@debtkit/adapter-mongo';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { MovableClock, Receiver, listAll, webhookHarness, type ApiClient, type Json } from './support/webhook-harness.js';

type Harness = Awaited<ReturnType<typeof webhookHarness>>;

const DAY_MS = 86_400_000;

/** Resolves with `promise`, or fails after `ms` naming `what`. */
const within = async <A>(ms: number, what: string, promise: Promise<A>): Promise<A> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

for (const kind of ['memory', 'mongo'] as const) {
  describe(`fair webhooks on the ${kind} store (docs/decisions/tenancy.md)`, function () {
    this.timeout(30_000);
    let wire: WireServer | undefined;
    let url = '';
    let n = 0;
    const stores: StorePorts[] = [];
    const receivers: Receiver[] = [];
    const harnesses: Harness[] = [];
    const realUrl = process.env['MONGODB_URL'];

    before(async () => {
      if (kind !== 'mongo') return;
      if (realUrl === undefined || realUrl === '') {
        wire = await startWireServer();
        url = wire.url;
      } else url = realUrl;
    });
    after(async () => {
      await wire?.stop();
    });
    afterEach(async () => {
      // Receivers first: their hanging requests end, so the workers' attempts do too.
      await Promise.all(receivers.splice(0).map((r) => r.stop()));
      await Promise.all(harnesses.splice(0).map((h) => h.worker.stop(50)));
      for (const store of stores.splice(0)) await store.close();
    });

    const harness = async (options: { retrySeconds?: ReadonlyArray<number>; clock?: MovableClock } = {}): Promise<Harness> => {
      let store: StorePorts;
      if (kind === 'memory') store = createMemoryStore();
      else {
        store = await connectMongoStore(url, { dbName: `debtkit_fair_webhooks_${process.pid}_${Date.now().toString(36)}_${++n}` });
        stores.push(store);
      }
      const h = await webhookHarness({ store, ...options });
      harnesses.push(h);
      return h;
    };
    const receiver = async (answer?: (n: number) => number | 'hang'): Promise<Receiver> => {
      const r = await new Receiver(answer).start();
      receivers.push(r);
      return r;
    };
    const register = async (h: Harness, client: ApiClient, body: Json): Promise<Json> => {
      const res = await h.request.post('/api/webhook_endpoints').set(client.auth).send(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body as Json;
    };
    /** One change: a new user with a linked account (one account.created event). */
    const oneChange = async (h: Harness, client: ApiClient): Promise<void> => {
      const user = await h.request.post('/api/users').set(client.auth).send({ last_name: 'Doe' });
      expect(user.status).to.equal(201);
      const res = await h.request
        .post(`/api/users/${user.body['id']}/accounts`)
        .set(client.auth)
        .send({ name: 'A', type: 'loan', subtype: 'auto_loan', balance: 1 });
      expect(res.status).to.equal(201);
    };
    /** The endpoint id of a received request (`webhook-id` is `msg_{event}_{endpoint}`). */
    const endpointOf = (r: Receiver['received'][number]): number => Number(String(r.headers['webhook-id']).split('_')[2]);

    it("one client's 16 never-answering endpoints do not delay another client's delivery beyond 2 s", async () => {
      const h = await harness();
      const heavy = await h.newClient('Heavy');
      const light = await h.newClient('Light');
      const silent = await receiver(() => 'hang');
      const prompt = await receiver();
      for (let i = 0; i < 16; i++) await register(h, heavy, { url: `${silent.url}/${i}` });
      await register(h, light, { url: prompt.url });
      // 3 events × 16 endpoints: 48 attempts of the heavy client due at once, each held up to the 10 s timeout.
      for (let i = 0; i < 3; i++) await oneChange(h, heavy);
      h.worker.start();
      await within(5000, 'the heavy client’s first attempts', silent.waitFor(2));

      await oneChange(h, light);
      const started = performance.now();
      // The worker's next pass (it polls every second; this pass is asked for at once, so the timing is the claim's, not the poll's).
      await h.worker.pump();
      await within(2000, 'the light client’s delivery', prompt.waitFor(1));
      expect(performance.now() - started).to.be.below(2000);
      expect(JSON.parse(prompt.received[0]!.body)['type']).to.equal('account.created');
      // The heavy client holds its 2 slots, no more.
      expect(silent.received).to.have.length(2);
    });

    it("10 sandbox advances of a client with no webhooks do not hold back another client's webhook: fanned out and sent in the next pass, within 2 s", async () => {
      const h = await harness();
      const advancing = await h.newClient('Advancing');
      const light = await h.newClient('Light');
      const prompt = await receiver();
      await register(h, light, { url: prompt.url });
      const user = (await h.request.post('/api/users').set(advancing.auth).send({ last_name: 'Busy' }).expect(201)).body as Json;
      for (let i = 0; i < 4; i++) {
        await h.request
          .post(`/api/users/${user['id']}/accounts`)
          .set(advancing.auth)
          .send({
            name: `Loan ${i}`,
            type: 'loan',
            subtype: 'personal_loan',
            balance: 500_000,
            institution_apr: 12,
            institution_minimum_payment: 10_000,
          })
          .expect(201);
      }
      for (let i = 0; i < 10; i++) {
        const res = await h.request
          .post(`/api/users/${user['id']}/sandbox/advance`)
          .set(advancing.auth)
          .send({ months: 6, payments: 'minimum' });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      let written = 0;
      for (let after = 0, more = true; more;) {
        const page = (
          await h.request
            .get(`/api/events?limit=100${after === 0 ? '' : `&starting_after=${after}`}`)
            .set(advancing.auth)
            .expect(200)
        ).body as { events: Json[]; has_more: boolean };
        written += page.events.length;
        more = page.has_more;
        after = (page.events[page.events.length - 1]?.['id'] as number | undefined) ?? after;
      }
      expect(written, 'events the advances wrote (more than a pass took before: 100)').to.be.greaterThan(250);
      await oneChange(h, light);
      const started = performance.now();
      // One pass of the worker, asked for at once (no poll): the light client's event is fanned out and its attempt started in it.
      expect(await h.worker.pump(), 'attempts the pass started').to.equal(1);
      await within(2000, 'the light client’s delivery', prompt.waitFor(1));
      expect(performance.now() - started).to.be.below(2000);
      expect(JSON.parse(prompt.received[0]!.body)['type']).to.equal('account.created');
    });

    it('at most 2 attempts in flight per client, 1 per endpoint and 8 per process, handed out in turn across clients', async () => {
      const h = await harness();
      // Every request hangs until released; after the release every answer is 200.
      let released = false;
      const silent = await receiver(() => (released ? 200 : 'hang'));
      const clientOf = new Map<number, string>();
      const clients: Array<{ name: string; client: ApiClient }> = [];
      for (const name of ['A', 'B', 'C', 'D', 'E']) {
        const client = await h.newClient(name);
        clients.push({ name, client });
        for (let i = 0; i < 3; i++) clientOf.set((await register(h, client, { url: `${silent.url}/${name}${i}` }))['id'], name);
      }
      // F: one endpoint, two events due on it.
      const f = await h.newClient('F');
      clientOf.set((await register(h, f, { url: `${silent.url}/F` }))['id'], 'F');
      for (const { client } of clients) await oneChange(h, client);
      await oneChange(h, f);
      await oneChange(h, f);

      expect(await h.worker.pump(), 'attempts started').to.equal(8);
      await within(5000, 'the attempts to arrive', silent.waitFor(8));
      expect(await h.worker.pump(), 'nothing more while 8 are in flight').to.equal(0);
      const perClient = new Map<string, number>();
      for (const r of silent.received) perClient.set(clientOf.get(endpointOf(r))!, (perClient.get(clientOf.get(endpointOf(r))!) ?? 0) + 1);
      // In turn: every client with due deliveries got a slot before any got a second; none more than 2; F one (one endpoint).
      expect([...perClient.keys()].sort()).to.deep.equal(['A', 'B', 'C', 'D', 'E', 'F']);
      expect(Math.max(...perClient.values())).to.equal(2);
      expect(perClient.get('F')).to.equal(1);
      expect(new Set(silent.received.map(endpointOf)).size, 'one attempt per endpoint').to.equal(8);

      released = true;
      silent.release(200);
      await h.worker.drain();
      // 5 clients × 3 endpoints + F's two events on its one endpoint, each once.
      expect(silent.received).to.have.length(17);
      expect(new Set(silent.received.map((r) => String(r.headers['webhook-id']))).size).to.equal(17);
    });

    it('an endpoint failing for 3 days in a row is disabled (disabled_reason: failing) with a webhook_endpoint.disabled event; a PATCH enables it afresh', async () => {
      const clock = new MovableClock(new Date('2030-01-01T00:00:00.000Z'));
      const h = await harness({ retrySeconds: [60], clock });
      const client = await h.newClient();
      let failing = true;
      const flaky = await receiver(() => (failing ? 500 : 200));
      const healthy = await receiver();
      const hook = await register(h, client, { url: flaky.url });
      await register(h, client, { url: healthy.url });
      const getHook = async (): Promise<Json> => {
        const res = await h.request.get(`/api/webhook_endpoints/${hook['id']}`).set(client.auth);
        expect(res.status).to.equal(200);
        return res.body as Json;
      };
      const changeAndDeliver = async (): Promise<void> => {
        await oneChange(h, client);
        await h.worker.drain();
      };
      expect(hook['disabled_reason']).to.equal(null);

      // Fails at day 0; succeeds at day 1 (the failing streak ends); fails again from day 1 + 1 ms.
      await changeAndDeliver();
      clock.advance(DAY_MS);
      failing = false;
      await changeAndDeliver();
      failing = true;
      clock.advance(1);
      const streakStart = clock.now().getTime();
      await changeAndDeliver();
      // Day 3 + 1 ms counted from the first failure, but not from the streak's: still enabled.
      clock.advance(2 * DAY_MS + 1);
      await changeAndDeliver();
      expect(await getHook()).to.include({ status: 'enabled', disabled_reason: null });
      // 3 days less 1 ms into the streak: enabled.
      clock.advance(streakStart + 3 * DAY_MS - 1 - clock.now().getTime());
      await changeAndDeliver();
      expect(await getHook()).to.include({ status: 'enabled', disabled_reason: null });
      expect(await listAll(h.request, client.auth, '&type=webhook_endpoint.disabled')).to.deep.equal([]);

      // 3 days into the streak: the next failed attempt disables it.
      clock.advance(1);
      const sentBefore = flaky.received.length;
      await changeAndDeliver();
      const disabled = await getHook();
      expect(disabled).to.include({ status: 'disabled', disabled_reason: 'failing' });
      const events = await listAll(h.request, client.auth, '&type=webhook_endpoint.disabled');
      expect(events).to.have.length(1);
      expect(events[0]).to.deep.include({
        type: 'webhook_endpoint.disabled',
        created_at: clock.now().toISOString(),
        data: { user_id: null, object: disabled },
      });
      // Its other endpoint got the event; the disabled one gets nothing more (one attempt made it fail, no more after).
      expect(healthy.received.map((r) => JSON.parse(r.body)['type'])).to.include('webhook_endpoint.disabled');
      expect(flaky.received.length - sentBefore).to.equal(1);
      clock.advance(DAY_MS);
      await changeAndDeliver();
      expect(flaky.received.length - sentBefore).to.equal(1);
      expect(await listAll(h.request, client.auth, '&type=webhook_endpoint.disabled')).to.have.length(1);

      // The client enables it: no reason, and a failure now starts a new streak instead of disabling it again.
      const enabled = await h.request.patch(`/api/webhook_endpoints/${hook['id']}`).set(client.auth).send({ status: 'enabled' });
      expect(enabled.status).to.equal(200);
      expect(enabled.body).to.include({ status: 'enabled', disabled_reason: null });
      await changeAndDeliver();
      expect(flaky.received.length - sentBefore).to.be.greaterThan(1);
      expect(await getHook()).to.include({ status: 'enabled', disabled_reason: null });
      // Disabled by the client: no reason either.
      const paused = await h.request.patch(`/api/webhook_endpoints/${hook['id']}`).set(client.auth).send({ status: 'disabled' });
      expect(paused.body).to.include({ status: 'disabled', disabled_reason: null });
      expect(await listAll(h.request, client.auth, '&type=webhook_endpoint.disabled')).to.have.length(1);
    });
  });
}
