/**
 * Events and webhooks (docs/decisions/webhooks.md) over `app.callback()`, composed by the
 * container: the events API, the webhook endpoints API with its validation and
 * SSRF guard, and delivery to local receivers, every signature checked with
 * the `standardwebhooks` verifier. The clock is the test's: retries are made
 * due by moving it, never by waiting.
 */
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { EVENT_RETENTION_MS } from '@debtkit/core';
import { WebhookUrlGuard, isAllowedAddress } from '../src/webhooks/webhook-url-guard.js';
import {
  EXPECTED_TYPES,
  MovableClock,
  Receiver,
  listAll,
  scenario,
  webhookHarness,
  type ApiClient,
  type Json,
} from './support/webhook-harness.js';

describe('events API (docs/decisions/webhooks.md)', () => {
  it('each change records exactly its event, in order, with the object as its endpoint answers it', async () => {
    const h = await webhookHarness();
    const client = await h.newClient();
    let live: Json[] = [];
    const { userId, planId } = await scenario(h.request, client.auth, async () => void (live = await listAll(h.request, client.auth)));
    const events = await listAll(h.request, client.auth);
    expect(events.map((e) => e['type'])).to.deep.equal(EXPECTED_TYPES);
    const ids = events.map((e) => e['id'] as number);
    expect(ids).to.deep.equal([...ids].sort((x, y) => x - y));
    for (const e of events) {
      expect(Object.keys(e)).to.have.members(['id', 'type', 'created_at', 'api_version', 'data']);
      expect(e['api_version']).to.equal('2026-11-26'); // The client's pinned version: clients created now are pinned to the latest.
      expect(e['data']['user_id']).to.equal(userId);
    }
    expect(live[3]!['data']['object']).to.include({ status: 'closed', nickname: 'Old card' });
    expect(live[4]!['data']['object']).to.include({ last_name: 'Doe' }).and.to.have.property('score');
    // After the user's delete, the same events with the personal fields emptied (docs/decisions/tenancy.md).
    expect(events.slice(0, live.length).map((e) => [e['id'], e['type']])).to.deep.equal(live.map((e) => [e['id'], e['type']]));
    expect(events[3]!['data']['object']).to.include({ status: 'closed', nickname: null, name: '' });
    expect(events[4]!['data']['object']).to.include({ last_name: null }).and.to.have.property('score');
    expect(events[5]!['data']['object']).to.deep.equal({ status: 'authenticated', step: null });
    expect(events[8]!['data']['object']).to.include({ id: planId, strategy: 'avalanche' });
    // Ids only in 2026-11-26, the client's version (docs/decisions/tenancy.md, docs/decisions/versioning.md).
    expect(events[9]!['data']['object']).to.deep.equal({ id: userId });
    const one = await h.request.get(`/api/events/${ids[4]}`).set(client.auth);
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.equal(events[4]);
  });

  it('a failed change records no event', async () => {
    const h = await webhookHarness();
    const client = await h.newClient();
    const user = (await h.request.post('/api/users').set(client.auth).send({ last_name: 'Doe' })).body as Json;
    expect((await h.request.post(`/api/users/${user['id']}/accounts`).set(client.auth).send({ name: 'X' })).status).to.equal(400);
    expect((await h.request.patch(`/api/users/${user['id']}/accounts/99`).set(client.auth).send({ nickname: 'n' })).status).to.equal(404);
    expect(
      (
        await h.request
          .post(`/api/users/${user['id']}/payment_plans`)
          .set(client.auth)
          .send({ strategy: 'avalanche', monthly_payment: 100 })
      ).status,
    ).to.equal(400);
    expect(await listAll(h.request, client.auth)).to.deep.equal([]);
  });

  it('pages ascending by id and filters by type and user_id', async () => {
    const h = await webhookHarness();
    const client = await h.newClient();
    const { userId } = await scenario(h.request, client.auth);
    const second = await scenario(h.request, client.auth);
    const all = await listAll(h.request, client.auth);
    expect(all).to.have.length(20);
    const page1 = await h.request.get('/api/events?limit=3').set(client.auth);
    expect(page1.body['events'].map((e: Json) => e['id'])).to.deep.equal(all.slice(0, 3).map((e) => e['id']));
    expect(page1.body['has_more']).to.equal(true);
    const last = await h.request.get(`/api/events?limit=5&starting_after=${all[16]!['id']}`).set(client.auth);
    expect(last.body['events'].map((e: Json) => e['id'])).to.deep.equal(all.slice(17).map((e) => e['id']));
    expect(last.body['has_more']).to.equal(false);
    const closed = await listAll(h.request, client.auth, '&type=account.closed');
    expect(closed.map((e) => e['data']['user_id'])).to.deep.equal([userId, second.userId]);
    const mine = await listAll(h.request, client.auth, `&user_id=${second.userId}`);
    expect(mine.map((e) => e['type'])).to.deep.equal(EXPECTED_TYPES);
    expect(await listAll(h.request, client.auth, `&user_id=${second.userId}&type=user.deleted`)).to.have.length(1);
  });

  it("another client's events are invisible: not listed, and 404 by id", async () => {
    const h = await webhookHarness();
    const mine = await h.newClient('Mine');
    const theirs = await h.newClient('Theirs');
    await scenario(h.request, theirs.auth);
    const their = await listAll(h.request, theirs.auth);
    expect(await listAll(h.request, mine.auth)).to.deep.equal([]);
    const res = await h.request.get(`/api/events/${their[0]!['id']}`).set(mine.auth);
    expect(res.status).to.equal(404);
    expect(res.body['error']['code']).to.equal('not_found');
    expect((await h.request.get('/api/events/999999').set(mine.auth)).status).to.equal(404);
  });

  it('bad input is 400 validation_error', async () => {
    const h = await webhookHarness();
    const client = await h.newClient();
    for (const query of ['type=account.deleted', 'user_id=0', 'user_id=x', 'limit=0', 'limit=101', 'starting_after=-1', 'colour=red']) {
      const res = await h.request.get(`/api/events?${query}`).set(client.auth);
      expect(res.status, query).to.equal(400);
      expect(res.body['error']['code'], query).to.equal('validation_error');
    }
    expect((await h.request.get('/api/events/abc').set(client.auth)).status).to.equal(400);
    expect((await h.request.get('/api/events').set('Authorization', 'Bearer nope')).status).to.equal(401);
  });

  it('events are kept 30 days: answered the day before, gone after', async () => {
    const clock = new MovableClock(new Date('2026-03-15T12:00:00.000Z'));
    const h = await webhookHarness({ clock });
    const client = await h.newClient();
    await scenario(h.request, client.auth);
    const [first] = await listAll(h.request, client.auth);
    clock.advance(EVENT_RETENTION_MS - 1000);
    expect((await h.request.get(`/api/events/${first!['id']}`).set(client.auth)).status).to.equal(200);
    clock.advance(1000);
    expect((await h.request.get(`/api/events/${first!['id']}`).set(client.auth)).status).to.equal(404);
    expect(await listAll(h.request, client.auth)).to.deep.equal([]);
  });
});

describe('webhook endpoints API (docs/decisions/webhooks.md)', () => {
  it('create shows the secret once; get, list, patch, delete; deliveries list', async () => {
    const h = await webhookHarness();
    const client = await h.newClient();
    const created = await h.request.post('/api/webhook_endpoints').set(client.auth).send({ url: 'http://127.0.0.1:9/hooks' });
    expect(created.status).to.equal(201);
    const body = created.body as Json;
    expect(body['secret']).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from((body['secret'] as string).slice(6), 'base64')).to.have.length(32);
    const { secret: _secret, ...view } = body;
    expect(view).to.deep.equal({
      id: body['id'],
      url: 'http://127.0.0.1:9/hooks',
      events: ['*'],
      description: null,
      status: 'enabled',
      api_version: '2026-11-26',
      disabled_reason: null,
      created_at: body['created_at'],
    });
    const path = `/api/webhook_endpoints/${body['id']}`;
    expect((await h.request.get(path).set(client.auth)).body).to.deep.equal(view);
    const second = (
      await h.request
        .post('/api/webhook_endpoints')
        .set(client.auth)
        .send({ url: 'https://example.com/h', events: ['user.deleted', 'account.closed'], description: 'ops' })
    ).body as Json;
    expect(second['secret']).to.not.equal(body['secret']);
    const page = await h.request.get('/api/webhook_endpoints?limit=1').set(client.auth);
    expect(page.body).to.deep.equal({ webhook_endpoints: [view], has_more: true });
    expect(JSON.stringify((await h.request.get('/api/webhook_endpoints').set(client.auth)).body)).to.not.contain('whsec_');
    const patched = await h.request
      .patch(path)
      .set(client.auth)
      .send({ status: 'disabled', events: ['account.created'], description: 'paused' });
    expect(patched.status).to.equal(200);
    expect(patched.body).to.deep.equal({ ...view, status: 'disabled', events: ['account.created'], description: 'paused' });
    expect((await h.request.patch(path).set(client.auth).send({ description: null })).body['description']).to.equal(null);
    // Why debtkit disabled an endpoint is not the client's to write (docs/decisions/tenancy.md).
    const reason = await h.request.patch(path).set(client.auth).send({ disabled_reason: null });
    expect(reason.status).to.equal(400);
    expect(reason.body['error']['code']).to.equal('validation_error');
    expect((await h.request.get(`${path}/deliveries`).set(client.auth)).body).to.deep.equal({ deliveries: [], has_more: false });
    expect((await h.request.delete(path).set(client.auth)).status).to.equal(204);
    expect((await h.request.get(path).set(client.auth)).status).to.equal(404);
    expect((await h.request.delete(path).set(client.auth)).status).to.equal(404);
  });

  it("another client's endpoint is 404 for every operation, and unchanged", async () => {
    const h = await webhookHarness();
    const mine = await h.newClient('Mine');
    const theirs = await h.newClient('Theirs');
    const their = (await h.request.post('/api/webhook_endpoints').set(theirs.auth).send({ url: 'https://example.com/h' })).body as Json;
    const path = `/api/webhook_endpoints/${their['id']}`;
    for (const res of [
      await h.request.get(path).set(mine.auth),
      await h.request.patch(path).set(mine.auth).send({ status: 'disabled' }),
      await h.request.get(`${path}/deliveries`).set(mine.auth),
      await h.request.delete(path).set(mine.auth),
    ]) {
      expect(res.status).to.equal(404);
      expect(res.body['error']['code']).to.equal('not_found');
    }
    expect((await h.request.get('/api/webhook_endpoints').set(mine.auth)).body).to.deep.equal({ webhook_endpoints: [], has_more: false });
    expect((await h.request.get(path).set(theirs.auth)).body['status']).to.equal('enabled');
  });

  it('strict validation: 400 validation_error naming the field, nothing stored', async () => {
    const h = await webhookHarness();
    const client = await h.newClient();
    const bad: Array<[Json, string]> = [
      [{}, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'ftp://example.com/h' }, 'url'],
      [{ url: 'https://user:pw@example.com/h' }, 'url'],
      [{ url: `https://example.com/${'a'.repeat(2048)}` }, 'url'],
      [{ url: 42 }, 'url'],
      [{ url: 'https://example.com/h', events: ['account.deleted'] }, 'events'],
      [{ url: 'https://example.com/h', events: [] }, 'events'],
      [{ url: 'https://example.com/h', events: ['*', 'account.created'] }, 'events'],
      [{ url: 'https://example.com/h', events: ['user.deleted', 'user.deleted'] }, 'events'],
      [{ url: 'https://example.com/h', description: 'x'.repeat(501) }, 'description'],
      [{ url: 'https://example.com/h', secret: 'whsec_mine' }, 'secret'],
    ];
    for (const [body, field] of bad) {
      const res = await h.request.post('/api/webhook_endpoints').set(client.auth).send(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
      expect(res.body['error']['code']).to.equal('validation_error');
      expect(JSON.stringify(res.body['error']['details']), JSON.stringify(body).slice(0, 80)).to.contain(field);
    }
    expect(
      (
        await h.request
          .post('/api/webhook_endpoints')
          .set(client.auth)
          .send({ url: 'https://example.com/h', description: 'x'.repeat(500) })
      ).status,
    ).to.equal(201);
    const id = ((await h.request.get('/api/webhook_endpoints').set(client.auth)).body['webhook_endpoints'] as Json[])[0]!['id'];
    for (const body of [{ status: 'paused' }, { url: 'gopher://x' }, { events: ['nope'] }, { id: 3 }]) {
      const res = await h.request.patch(`/api/webhook_endpoints/${id}`).set(client.auth).send(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
    }
    expect((await h.request.get('/api/webhook_endpoints').set(client.auth)).body['webhook_endpoints']).to.have.length(1);
  });
});

describe('webhook URL guard (SSRF, docs/decisions/webhooks.md)', () => {
  const names: Record<string, string[]> = {
    'hooks.example.test': ['93.184.216.34'],
    'v6.example.test': ['2606:2800:220:1:248:1893:25c8:1946'],
    'sneaky.example.test': ['127.0.0.1'],
    'mixed.example.test': ['93.184.216.34', '10.0.0.7'],
    'internal.example.test': ['fd00::1'],
  };
  const resolveHost = async (host: string) => {
    const found = names[host];
    if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it('production: https to a public host only; every non-public address refused, by literal or by name', async () => {
    const h = await webhookHarness({ environment: 'production', resolveHost });
    const client = await h.newClient();
    const create = (url: string) => h.request.post('/api/webhook_endpoints').set(client.auth).send({ url });
    for (const url of [
      'https://hooks.example.test/h',
      'https://v6.example.test/h',
      'https://93.184.216.34/h',
      'https://[2606:2800:220:1:248:1893:25c8:1946]/h',
    ]) {
      expect((await create(url)).status, url).to.equal(201);
    }
    const refused = [
      'http://hooks.example.test/h',
      'https://127.0.0.1/h',
      'https://127.1.2.3/h',
      'https://localhost/h',
      'https://10.1.2.3/h',
      'https://172.16.0.1/h',
      'https://192.168.1.1/h',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/h',
      'https://224.0.0.1/h',
      'https://0.0.0.0/h',
      'https://255.255.255.255/h',
      'https://[::1]/h',
      'https://[::]/h',
      'https://[fe80::1]/h',
      'https://[fd12:3456::1]/h',
      'https://[ff02::1]/h',
      'https://[::ffff:127.0.0.1]/h',
      'https://[::ffff:10.0.0.1]/h',
      'https://[::ffff:a9fe:a9fe]/h',
      'https://sneaky.example.test/h',
      'https://mixed.example.test/h',
      'https://internal.example.test/h',
      'https://nowhere.example.test/h',
    ];
    for (const url of refused) {
      const res = await create(url);
      expect(res.status, url).to.equal(400);
      expect(res.body['error']['code']).to.equal('validation_error');
      expect(res.body['error']['details'][0]['path']).to.equal('url');
    }
    const id = ((await create('https://hooks.example.test/ok')).body as Json)['id'];
    expect(
      (await h.request.patch(`/api/webhook_endpoints/${id}`).set(client.auth).send({ url: 'https://sneaky.example.test/h' })).status,
    ).to.equal(400);
    expect((await h.request.get(`/api/webhook_endpoints/${id}`).set(client.auth)).body['url']).to.equal('https://hooks.example.test/ok');
  });

  it('sandbox: http and loopback allowed for local receivers; private and link-local still refused', async () => {
    const h = await webhookHarness({ environment: 'sandbox', resolveHost });
    const client = await h.newClient();
    const create = (url: string) => h.request.post('/api/webhook_endpoints').set(client.auth).send({ url });
    for (const url of ['http://127.0.0.1:8080/h', 'http://[::1]:8080/h', 'http://sneaky.example.test/h', 'http://hooks.example.test/h']) {
      expect((await create(url)).status, url).to.equal(201);
    }
    for (const url of ['http://10.0.0.1/h', 'http://169.254.169.254/h', 'http://[::ffff:192.168.0.1]/h', 'http://mixed.example.test/h']) {
      expect((await create(url)).status, url).to.equal(400);
    }
  });

  // Each IPv6 form that embeds an IPv4 address, judged as that IPv4 (docs/decisions/webhooks.md, "IPv4 inside IPv6").
  const EMBEDDED_REFUSED = [
    '::127.0.0.1', // IPv4-compatible (::/96)
    '::169.254.169.254',
    '::10.0.0.1',
    '::a9fe:a9fe',
    '::ffff:0:7f00:1', // IPv4-translated (::ffff:0:0:0/96) 127.0.0.1
    '::ffff:0:a9fe:a9fe',
    '::ffff:7f00:1', // IPv4-mapped, hex spelling
    '64:ff9b::127.0.0.1', // NAT64 well-known prefix
    '64:ff9b::a00:1',
    '64:ff9b:1::5db8:d822', // a network's own NAT64 prefix: refused outright
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254
    '2002:a00:1:1::1', // 6to4 of 10.0.0.1
    '2001:0:5db8:d822:0:0:80ff:fffe', // Teredo: public server, client 127.0.0.1 (inverted)
    '2001:0:5db8:d822:0:0:f5ff:fffe', // Teredo: client 10.0.0.1
    '2001:0:a00:1:0:0:a247:27dd', // Teredo: private server 10.0.0.1, public client
  ];
  const EMBEDDED_PUBLIC = [
    '::5db8:d822',
    '::ffff:0:5db8:d822',
    '64:ff9b::93.184.216.34',
    '2002:5db8:d822::1',
    '2001:0:5db8:d822:0:0:a247:27dd',
  ];
  const embeddedName = (i: number, kind: string) => `${kind}-${i}.embedded.example.test`;
  const embeddedResolve = async (host: string) => {
    const m = /^(refused|public)-(\d+)\.embedded\.example\.test$/.exec(host);
    const address = m === null ? undefined : (m[1] === 'refused' ? EMBEDDED_REFUSED : EMBEDDED_PUBLIC)[Number(m[2])];
    if (address === undefined) return resolveHost(host);
    return [{ address, family: 6 }];
  };

  it('production: every IPv6 form embedding a non-public IPv4 is refused, as a literal and as a DNS answer', async () => {
    const h = await webhookHarness({ environment: 'production', resolveHost: embeddedResolve });
    const client = await h.newClient();
    const create = (url: string) => h.request.post('/api/webhook_endpoints').set(client.auth).send({ url });
    for (const [i, address] of EMBEDDED_REFUSED.entries()) {
      for (const url of [`https://[${address}]/h`, `https://${embeddedName(i, 'refused')}/h`]) {
        const res = await create(url);
        expect(res.status, `${url} (${address})`).to.equal(400);
        expect(res.body['error']['details'][0]).to.include({ path: 'url' });
      }
    }
    // The same forms embedding a public IPv4 are judged as that address, and pass.
    for (const [i, address] of EMBEDDED_PUBLIC.entries()) {
      for (const url of [`https://[${address}]/h`, `https://${embeddedName(i, 'public')}/h`]) {
        expect((await create(url)).status, `${url} (${address})`).to.equal(201);
      }
    }
  });

  it('the delivery-time lookup refuses a name answering an embedded non-public IPv4 too', async () => {
    for (const address of EMBEDDED_REFUSED) {
      const guard = new WebhookUrlGuard({ environment: 'production', resolveHost: async () => [{ address, family: 6 }] });
      const outcome = await new Promise<{ err: NodeJS.ErrnoException | null; address: string }>((resolve) =>
        guard.guardedLookup('rebind.example.test', {}, (err, addr) => resolve({ err, address: String(addr) })),
      );
      expect(outcome.err?.code, address).to.equal('EWEBHOOKADDRESS');
    }
    expect(isAllowedAddress('::1', 'sandbox'), 'IPv6 loopback stays loopback (sandbox receivers)').to.equal(true);
    expect(isAllowedAddress('::1', 'production')).to.equal(false);
    expect(isAllowedAddress('::', 'sandbox')).to.equal(false);
    expect(isAllowedAddress('::127.0.0.1', 'sandbox'), 'judged as 127.0.0.1: loopback, allowed in sandbox').to.equal(true);
    expect(isAllowedAddress('::10.0.0.1', 'sandbox')).to.equal(false);
  });

  it('checked again at delivery: a name that now resolves to loopback gets nothing', async () => {
    const receiver = await new Receiver().start();
    try {
      const port = new URL(receiver.url).port;
      let target = '93.184.216.34';
      const h = await webhookHarness({
        environment: 'production',
        resolveHost: async () => [{ address: target, family: 4 }],
      });
      const client = await h.newClient();
      const hook = (
        await h.request
          .post('/api/webhook_endpoints')
          .set(client.auth)
          .send({ url: `https://rebind.example.test:${port}/hooks` })
      ).body as Json;
      target = '127.0.0.1';
      await h.request
        .post('/api/users')
        .set(client.auth)
        .send({ last_name: 'Doe' })
        .then(async (res) =>
          h.request
            .post(`/api/users/${res.body['id']}/accounts`)
            .set(client.auth)
            .send({ name: 'A', type: 'loan', subtype: 'auto_loan', balance: 1 }),
        );
      await h.worker.drain();
      const deliveries = (await h.request.get(`/api/webhook_endpoints/${hook['id']}/deliveries`).set(client.auth)).body[
        'deliveries'
      ] as Json[];
      expect(deliveries).to.have.length(1);
      expect(deliveries[0]).to.include({ status: 'pending', attempts: 1, last_response_status: null });
      expect(receiver.received).to.deep.equal([]);
    } finally {
      await receiver.stop();
    }
  });
});

describe('webhook delivery (docs/decisions/webhooks.md)', () => {
  const receivers: Receiver[] = [];
  const receiver = async (answer?: (n: number) => number | 'hang'): Promise<Receiver> => {
    const r = await new Receiver(answer).start();
    receivers.push(r);
    return r;
  };
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
  });

  const register = async (h: Awaited<ReturnType<typeof webhookHarness>>, client: ApiClient, body: Json): Promise<Json> => {
    const res = await h.request.post('/api/webhook_endpoints').set(client.auth).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as Json;
  };
  const deliveriesOf = async (h: Awaited<ReturnType<typeof webhookHarness>>, client: ApiClient, endpoint: Json): Promise<Json[]> =>
    (await h.request.get(`/api/webhook_endpoints/${endpoint['id']}/deliveries`).set(client.auth)).body['deliveries'] as Json[];
  /** One change: a new user with a linked account (one account.created event). */
  const oneChange = async (h: Awaited<ReturnType<typeof webhookHarness>>, client: ApiClient): Promise<void> => {
    const user = await h.request.post('/api/users').set(client.auth).send({ last_name: 'Doe' });
    const res = await h.request
      .post(`/api/users/${user.body['id']}/accounts`)
      .set(client.auth)
      .send({ name: 'A', type: 'loan', subtype: 'auto_loan', balance: 1 });
    expect(res.status).to.equal(201);
  };
  const verified = (secret: string, r: { headers: Json; body: string }): Json =>
    new Webhook(secret).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    }) as Json;

  it('delivers every event in order, signed (standardwebhooks verifies each), to the endpoints that subscribe; a disabled endpoint gets nothing', async () => {
    const h = await webhookHarness();
    const client = await h.newClient();
    const all = await receiver();
    const some = await receiver();
    const off = await receiver();
    const allHook = await register(h, client, { url: all.url });
    const someHook = await register(h, client, { url: some.url, events: ['user.deleted', 'account.closed'] });
    const offHook = await register(h, client, { url: off.url });
    expect(
      (await h.request.patch(`/api/webhook_endpoints/${offHook['id']}`).set(client.auth).send({ status: 'disabled' })).status,
    ).to.equal(200);
    // Delivered before the user's delete: after it, the user's pending deliveries are canceled (docs/decisions/tenancy.md).
    let live: Json[] = [];
    await scenario(h.request, client.auth, async () => {
      await h.worker.drain();
      live = await listAll(h.request, client.auth);
    });
    await h.worker.drain();

    const events = [...live, ...(await listAll(h.request, client.auth)).slice(live.length)];
    expect(all.received.map((r) => verified(allHook['secret'], r))).to.deep.equal(events);
    expect(all.received.map((r) => JSON.parse(r.body)['type'])).to.deep.equal(EXPECTED_TYPES);
    expect(new Set(all.received.map((r) => r.headers['webhook-id'])).size).to.equal(EXPECTED_TYPES.length);
    for (const r of all.received) {
      expect(r.headers['content-type']).to.equal('application/json');
      expect(r.headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - h.clock.now().getTime() / 1000)).to.be.below(2);
    }
    // Signed with that endpoint's secret, not another's.
    expect(() => verified(someHook['secret'], all.received[0]!)).to.throw();
    expect(some.received.map((r) => verified(someHook['secret'], r)['type'])).to.deep.equal(['account.closed', 'user.deleted']);
    expect(off.received).to.deep.equal([]);
    expect(await deliveriesOf(h, client, offHook)).to.deep.equal([]);
    const delivered = await deliveriesOf(h, client, allHook);
    expect(
      delivered.map((d) => [d['event_id'], d['event_type'], d['status'], d['attempts'], d['last_response_status'], d['next_attempt_at']]),
    ).to.deep.equal(events.map((e) => [e['id'], e['type'], 'succeeded', 1, 200, null]));
  });

  it('fails twice, then succeeds: three attempts with the same webhook-id, retried after the configured delays', async () => {
    const h = await webhookHarness({ retrySeconds: [1, 2, 3] });
    const client = await h.newClient();
    const flaky = await receiver((n) => (n < 2 ? 500 : 200));
    const hook = await register(h, client, { url: flaky.url });
    await oneChange(h, client);
    await h.worker.drain();
    expect(flaky.received).to.have.length(1);
    const [first] = await deliveriesOf(h, client, hook);
    expect(first).to.include({
      status: 'pending',
      attempts: 1,
      last_response_status: 500,
      next_attempt_at: new Date(h.clock.now().getTime() + 1000).toISOString(),
    });
    await h.worker.drain();
    expect(flaky.received, 'not due yet').to.have.length(1);
    h.clock.advance(1000);
    await h.worker.drain();
    expect(flaky.received).to.have.length(2);
    expect((await deliveriesOf(h, client, hook))[0]).to.include({ status: 'pending', attempts: 2, last_response_status: 500 });
    h.clock.advance(1999);
    await h.worker.drain();
    expect(flaky.received).to.have.length(2);
    h.clock.advance(1);
    await h.worker.drain();
    expect(flaky.received).to.have.length(3);
    expect(new Set(flaky.received.map((r) => r.headers['webhook-id'])).size).to.equal(1);
    for (const r of flaky.received) expect(verified(hook['secret'], r)['type']).to.equal('account.created');
    expect((await deliveriesOf(h, client, hook))[0]).to.include({
      status: 'succeeded',
      attempts: 3,
      last_response_status: 200,
      next_attempt_at: null,
    });
  });

  it('after the last delay the delivery is failed and never tried again; a redirect is not followed', async () => {
    const h = await webhookHarness({ retrySeconds: [1] });
    const client = await h.newClient();
    const target = await receiver();
    const redirecting = await receiver(() => 307);
    const hook = await register(h, client, { url: redirecting.url });
    await oneChange(h, client);
    await h.worker.drain();
    h.clock.advance(1000);
    await h.worker.drain();
    h.clock.advance(86_400_000);
    await h.worker.drain();
    expect(redirecting.received).to.have.length(2);
    expect(target.received).to.deep.equal([]);
    expect((await deliveriesOf(h, client, hook))[0]).to.include({
      status: 'failed',
      attempts: 2,
      last_response_status: 307,
      next_attempt_at: null,
    });
  });

  it('a receiver that never answers is cut at the timeout, and the attempt is recorded for a retry', async () => {
    const h = await webhookHarness({ timeoutMs: 300 });
    const client = await h.newClient();
    const silent = await receiver(() => 'hang');
    const hook = await register(h, client, { url: silent.url });
    await oneChange(h, client);
    const started = Date.now();
    await h.worker.drain();
    const elapsed = Date.now() - started;
    expect(elapsed).to.be.at.least(250).and.below(3000);
    expect(silent.received).to.have.length(1);
    expect((await deliveriesOf(h, client, hook))[0]).to.include({ status: 'pending', attempts: 1, last_response_status: null });
  });

  it('a slow receiver does not hold up another endpoint; stop() lets the attempt in flight finish and records it', async () => {
    const h = await webhookHarness();
    const client = await h.newClient();
    const slow = await receiver(() => 'hang');
    const fast = await receiver();
    const slowHook = await register(h, client, { url: slow.url });
    await register(h, client, { url: fast.url });
    await oneChange(h, client);
    await oneChange(h, client);
    h.worker.start();
    // Both events reach the fast receiver while the slow one still holds its first attempt.
    await fast.waitFor(2);
    await slow.waitFor(1);
    expect(slow.received).to.have.length(1);
    let stopped = false;
    const stopping = h.worker.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    expect(stopped, 'stop waits for the attempt in flight').to.equal(false);
    slow.release(204);
    await stopping;
    const deliveries = await deliveriesOf(h, client, slowHook);
    expect(deliveries[0]).to.include({ status: 'succeeded', attempts: 1, last_response_status: 204 });
    expect(deliveries[1]).to.include({ status: 'pending', attempts: 0 });
    expect(slow.received).to.have.length(1);
  });

  it('stop(cutAfterMs) cuts an attempt that outlasts it and records it as a failed attempt, retried later', async () => {
    // An attempt timeout far beyond the test's own: only the cut can end this attempt in time.
    const h = await webhookHarness({ timeoutMs: 60_000 });
    const client = await h.newClient();
    const silent = await receiver(() => 'hang');
    const hook = await register(h, client, { url: silent.url });
    await oneChange(h, client);
    h.worker.start();
    await silent.waitFor(1);
    // The receiver never answers: the attempt would run to its timeout, the cut ends it first.
    await h.worker.stop(20);
    const [delivery] = await deliveriesOf(h, client, hook);
    expect(delivery).to.include({ status: 'pending', attempts: 1, last_response_status: null });
    expect(delivery?.next_attempt_at).to.be.a('string');
  });

  it('at most 2 attempts of one client in flight per process (docs/decisions/tenancy.md; more in webhook-fairness.test.ts)', async () => {
    const h = await webhookHarness();
    const client = await h.newClient();
    const silent = await receiver((n) => (n < 2 ? 'hang' : 200));
    for (let i = 0; i < 10; i++) await register(h, client, { url: `${silent.url}/${i}` });
    await oneChange(h, client);
    expect(await h.worker.pump()).to.equal(2);
    await silent.waitFor(2);
    expect(await h.worker.pump()).to.equal(0);
    silent.release(200);
    await h.worker.drain();
    expect(silent.received).to.have.length(10);
  });
});
