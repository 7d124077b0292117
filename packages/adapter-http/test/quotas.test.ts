/**
 * Quotas over HTTP (docs/decisions/tenancy.md "Quotas per client", 4.1): accounts and
 * payment plans per user, webhook endpoints per client. The creation over the
 * quota is 409 `quota_exceeded` naming the quota and its value, as documented
 * in the OpenAPI document, and writes nothing: no record, no event. The races
 * themselves are proved on both stores by core's quota contract and across two
 * processes in quotas-two-processes-mongo.test.ts.
 */
import { expect } from 'chai';
import { harness, type Harness } from './support/http-harness.js';
import { expectResponseMatchesOpenApi } from './support/openapi-assert.js';

const QUOTAS = { accountsPerUser: 2, paymentPlansPerUser: 2, webhookEndpointsPerClient: 2, armedDeliveriesPerClient: 3 };

type Json = Record<string, unknown>;

describe('quotas (HTTP, memory store)', () => {
  let h: Harness;
  let userId: number;

  beforeEach(async () => {
    h = await harness({ quotas: QUOTAS });
    userId = ((await h.request.post('/api/users').set(h.auth).send({ last_name: 'Quota' }).expect(201)).body as Json)['id'] as number;
  });

  const linkAccount = () =>
    h.request
      .post(`/api/users/${userId}/accounts`)
      .set(h.auth)
      .send({ name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 100_000, apr: 20, minimum_payment: 5_000 });
  const events = async (type: string) =>
    ((await h.request.get(`/api/events?type=${type}&limit=100`).set(h.auth).expect(200)).body as { events: unknown[] }).events.length;

  const expectQuotaExceeded = (res: { status: number; body: unknown }, message: string): void => {
    expect(res.status).to.equal(409);
    expect((res.body as { error: Json }).error).to.include({ code: 'quota_exceeded', message });
  };

  it('an account over accounts per user is 409 quota_exceeded naming the quota and its value; nothing is written', async () => {
    for (let i = 0; i < QUOTAS.accountsPerUser; i++) expect((await linkAccount()).status).to.equal(201);
    const over = await linkAccount();
    expectQuotaExceeded(over, 'Quota reached: at most 2 accounts per user');
    expectResponseMatchesOpenApi(over);
    const listed = (await h.request.get(`/api/users/${userId}/accounts?limit=100`).set(h.auth).expect(200)).body as { accounts: unknown[] };
    expect(listed.accounts).to.have.length(QUOTAS.accountsPerUser);
    expect(await events('account.created')).to.equal(QUOTAS.accountsPerUser);
    // Closing an account does not free its place: closed accounts stay listed and count.
    const [first] = listed.accounts as Json[];
    await h.request.patch(`/api/users/${userId}/accounts/${first!['id']}`).set(h.auth).send({ status: 'closed' }).expect(200);
    expect((await linkAccount()).status).to.equal(409);
  });

  it('a payment plan over plans per user is 409 quota_exceeded; deleting a plan frees its place', async () => {
    expect((await linkAccount()).status).to.equal(201);
    const create = () =>
      h.request.post(`/api/users/${userId}/payment_plans`).set(h.auth).send({ strategy: 'avalanche', monthly_payment: 20_000 });
    const created: number[] = [];
    for (let i = 0; i < QUOTAS.paymentPlansPerUser; i++) created.push(((await create().expect(201)).body as Json)['id'] as number);
    const over = await create();
    expectQuotaExceeded(over, 'Quota reached: at most 2 payment plans per user');
    expectResponseMatchesOpenApi(over);
    expect(await events('payment_plan.created')).to.equal(QUOTAS.paymentPlansPerUser);
    await h.request.delete(`/api/users/${userId}/payment_plans/${created[0]}`).set(h.auth).expect(204);
    expect((await create()).status).to.equal(201);
  });

  it('a webhook endpoint over endpoints per client is 409 quota_exceeded; kept for its Idempotency-Key like any domain answer', async () => {
    const register = (key?: string) => {
      const req = h.request.post('/api/webhook_endpoints').set(h.auth);
      return (key === undefined ? req : req.set('Idempotency-Key', key)).send({ url: 'http://127.0.0.1:9/debtkit' });
    };
    for (let i = 0; i < QUOTAS.webhookEndpointsPerClient; i++) expect((await register()).status).to.equal(201);
    const over = await register('over-the-quota');
    expectQuotaExceeded(over, 'Quota reached: at most 2 webhook endpoints per client');
    expectResponseMatchesOpenApi(over);
    const again = await register('over-the-quota');
    expect(again.status).to.equal(409);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    const listed = (await h.request.get('/api/webhook_endpoints?limit=100').set(h.auth).expect(200)).body as { webhook_endpoints: Json[] };
    expect(listed.webhook_endpoints).to.have.length(QUOTAS.webhookEndpointsPerClient);
    // Another client's endpoints are its own.
    const other = await h.clientAccess.createClient({ name: 'Other app', environment: 'sandbox', apiVersion: '2024-07-01' })();
    if (other._tag === 'Left') throw new Error(other.left.message);
    await h.request
      .post('/api/webhook_endpoints')
      .set({ Authorization: `Bearer ${other.right.token}` })
      .send({ url: 'http://127.0.0.1:9/x' })
      .expect(201);
    // Deleting one frees its place.
    await h.request.delete(`/api/webhook_endpoints/${listed.webhook_endpoints[0]!['id']}`).set(h.auth).expect(204);
    expect((await register()).status).to.equal(201);
  });

  it('a window replay that would pass armed deliveries per client is 409 quota_exceeded and arms nothing', async () => {
    const hook = (await h.request.post('/api/webhook_endpoints').set(h.auth).send({ url: 'http://127.0.0.1:9/debtkit' }).expect(201))
      .body as Json;
    await h.request.post('/api/webhook_endpoints').set(h.auth).send({ url: 'http://127.0.0.1:9/other' }).expect(201);
    // Two events; no delivery worker runs here, so what a redelivery arms stays armed.
    for (const name of ['A', 'B'])
      await h.request
        .post(`/api/users/${userId}/accounts`)
        .set(h.auth)
        .send({ name, type: 'loan', subtype: 'auto_loan', balance: 1 })
        .expect(201);
    const events = ((await h.request.get('/api/events?limit=100').set(h.auth).expect(200)).body as { events: Json[] }).events;
    expect(events).to.have.length(2);
    // The first event to both endpoints: 2 armed of the quota's 3.
    expect(
      ((await h.request.post(`/api/events/${events[0]!['id']}/redeliver`).set(h.auth).send({}).expect(202)).body as Json)['deliveries'],
    ).to.equal(2);
    const deliveries = async () =>
      (
        (await h.request.get(`/api/webhook_endpoints/${hook['id']}/deliveries?limit=100`).set(h.auth).expect(200)).body as {
          deliveries: Json[];
        }
      ).deliveries;
    const before = await deliveries();
    const since = new Date(Date.parse(events[0]!['created_at'] as string) - 60_000).toISOString();
    const until = new Date(Date.parse(events[1]!['created_at'] as string) + 60_000).toISOString();
    const over = await h.request.post(`/api/webhook_endpoints/${hook['id']}/replay`).set(h.auth).send({ since, until });
    expectQuotaExceeded(over, 'Quota reached: at most 3 armed webhook deliveries per client');
    expect(await deliveries(), 'nothing armed').to.deep.equal(before);
    // One more fits: the second event to one endpoint.
    expect(
      (
        (await h.request.post(`/api/events/${events[1]!['id']}/redeliver`).set(h.auth).send({ endpoint_id: hook['id'] }).expect(202))
          .body as Json
      )['deliveries'],
    ).to.equal(1);
    expectQuotaExceeded(
      await h.request.post(`/api/events/${events[1]!['id']}/redeliver`).set(h.auth).send({}),
      'Quota reached: at most 3 armed webhook deliveries per client',
    );
  });

  it("the default quotas are docs/decisions/tenancy.md's: 200 accounts, 50 plans per user, 16 endpoints per client", async () => {
    const d = await harness();
    for (let i = 0; i < 16; i++)
      await d.request.post('/api/webhook_endpoints').set(d.auth).send({ url: 'http://127.0.0.1:9/a' }).expect(201);
    expectQuotaExceeded(
      await d.request.post('/api/webhook_endpoints').set(d.auth).send({ url: 'http://127.0.0.1:9/a' }),
      'Quota reached: at most 16 webhook endpoints per client',
    );
  });

  it('the OpenAPI document lists 409 quota_exceeded on the three creations', async () => {
    const doc = (await h.request.get('/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
    };
    for (const path of ['/api/users/{id}/accounts', '/api/users/{id}/payment_plans', '/api/webhook_endpoints']) {
      expect(JSON.stringify(doc.paths[path]!['post']!.responses['409']), path).to.contain('quota_exceeded');
    }
  });
});
