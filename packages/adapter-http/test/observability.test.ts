/**
 * What an operator reads (issue 24, logs and metrics), over `app.callback()`
 * on the production composition: the request line names the client; every
 * webhook attempt is one info line with the endpoint, event, status and
 * duration; the metrics' `method` label takes only the methods the API serves
 * (else `_OTHER`); the labelled counters have their known series at 0 from
 * the start.
 */
import { expect } from 'chai';
import pino from 'pino';
import supertest from 'supertest';
import { compose } from '../src/main/composition.js';
import { HTTP, resolve } from '../src/main/container.js';
import { KNOWN_LABELS, methodLabel } from '../src/http/metrics.js';
import { ADMIN_TOKEN, CapturedLog } from './support/http-harness.js';
import { MovableClock, Receiver, offlineResolveHost } from './support/webhook-harness.js';

const setup = async () => {
  const log = new CapturedLog();
  const clock = new MovableClock(new Date('2026-03-15T12:00:00.000Z'));
  const composition = await compose({
    config: { adminToken: ADMIN_TOKEN, rateLimit: 0, authFailureLimit: 0, webhookRetrySeconds: [5] },
    logger: pino({ level: 'info' }, log),
    clock,
    webhooks: { resolveHost: offlineResolveHost },
  });
  const request = supertest(composition.app.callback());
  const created = await request.post('/admin/clients').set('Authorization', `Bearer ${ADMIN_TOKEN}`).send({ name: 'Acme' });
  expect(created.status).to.equal(201);
  const client = created.body as { client: { id: number }; token: string };
  return { ...composition, log, clock, request, clientId: client.client.id, auth: { Authorization: `Bearer ${client.token}` } };
};

const metricsText = async (request: ReturnType<typeof supertest>): Promise<string> => {
  const res = await request.get('/metrics').set('Authorization', `Bearer ${ADMIN_TOKEN}`);
  expect(res.status).to.equal(200);
  return res.text;
};

describe('observability: logs and metrics', () => {
  describe('the request line', () => {
    it("carries the authenticated client's id", async () => {
      const t = await setup();
      await t.request.get('/api/users').set(t.auth).set('X-Request-Id', 'with-client');
      const line = await t.log.next((l) => l['request_id'] === 'with-client');
      expect(line).to.deep.include({ msg: 'request', client_id: t.clientId, route: '/api/users', status: 200 });
    });

    it('has no client id where no client was authenticated (a probe, a refused token)', async () => {
      const t = await setup();
      await t.request.get('/healthz').set('X-Request-Id', 'probe');
      await t.request.get('/api/users').set('Authorization', 'Bearer dk_sandbox_nope').set('X-Request-Id', 'refused');
      for (const id of ['probe', 'refused']) {
        const line = await t.log.next((l) => l['request_id'] === id);
        expect(line, id).to.not.have.property('client_id');
      }
    });
  });

  describe('webhook attempts', () => {
    it('each attempt is one info line with the endpoint id, event id, status and duration, failed or not', async () => {
      const receiver = await new Receiver((n) => (n === 0 ? 500 : 204)).start();
      try {
        const t = await setup();
        const hook = await t.request
          .post('/api/webhook_endpoints')
          .set(t.auth)
          .send({ url: receiver.url, events: ['account.created'] });
        expect(hook.status).to.equal(201);
        const user = await t.request.post('/api/users').set(t.auth).send({ last_name: 'Doe' });
        await t.request.post(`/api/users/${user.body.id}/accounts`).set(t.auth).send({
          name: 'Card',
          type: 'loan',
          subtype: 'credit_card_loan',
          balance: 1_000,
          institution_apr: 10,
          institution_minimum_payment: 100,
          opened_at: '2020-01-01',
        });
        const event = (await t.request.get('/api/events?type=account.created').set(t.auth)).body.events[0];
        const worker = resolve(t.container, HTTP.DeliveryWorker);
        await worker.drain();
        t.clock.advance(5_000);
        await worker.drain();
        expect(receiver.received).to.have.length(2);
        const attempts = t.log.lines.filter((l) => l.msg === 'webhook attempt');
        expect(attempts.map((l) => [l.level, l['endpoint_id'], l['event_id'], l['status'], l['attempt'], l['outcome']])).to.deep.equal([
          [30, hook.body.id, event.id, 500, 1, 'retrying'],
          [30, hook.body.id, event.id, 204, 2, 'delivered'],
        ]);
        for (const line of attempts) expect(line['duration_ms']).to.be.a('number').and.at.least(0);
      } finally {
        await receiver.stop();
      }
    });
  });

  describe('metrics', () => {
    it("counts a method the API does not serve as _OTHER, never under the client's own name", async () => {
      const t = await setup();
      await t.request.get('/healthz');
      const propfind = await supertest(t.app.callback())['propfind' as 'get']('/api/users').set(t.auth);
      expect(propfind.status).to.be.within(400, 499);
      const text = await metricsText(t.request);
      expect(text).to.match(/debtkit_http_requests_total\{method="_OTHER",route="\/api\/users",status="\d+"\} 1/);
      expect(text).to.match(/debtkit_http_requests_total\{method="GET",route="\/healthz",status="200"\} 1/);
      expect(text).to.not.include('PROPFIND');
      expect(['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS', 'PUT', 'MKCOL', 'get'].map(methodLabel)).to.deep.equal([
        'GET',
        'HEAD',
        'POST',
        'PATCH',
        'DELETE',
        'OPTIONS',
        '_OTHER',
        '_OTHER',
        '_OTHER',
      ]);
    });

    it('has every known series of the labelled counters at 0 before anything happened', async () => {
      const t = await setup();
      const text = await metricsText(t.request);
      for (const limit of KNOWN_LABELS.rateLimited) expect(text).to.include(`debtkit_rate_limited_total{limit="${limit}"} 0`);
      for (const kind of KNOWN_LABELS.storeErrors) expect(text).to.include(`debtkit_store_errors_total{kind="${kind}"} 0`);
      for (const outcome of KNOWN_LABELS.webhookDeliveries)
        expect(text).to.include(`debtkit_webhook_deliveries_total{outcome="${outcome}"} 0`);
    });
  });
});
