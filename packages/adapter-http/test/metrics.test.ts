/**
 * `GET /metrics` (docs/operations.md): Prometheus text format behind the admin token,
 * 404 without one; the counters move with the requests they count.
 */
import { expect } from 'chai';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { unavailable } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { createMetrics } from '../src/http/metrics.js';
import { createRateLimits } from '../src/http/rate-limits.js';
import { ADMIN_TOKEN, Harness, harness } from './support/http-harness.js';
import { Receiver, webhookHarness } from './support/webhook-harness.js';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

// Values as Prometheus reads them (Go's ParseFloat: NaN and Inf in any case).
const METRIC_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|[Nn][Aa][Nn]|[+-]?[Ii]nf)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the text exposition format strictly: every line is a comment (HELP/TYPE) or a sample; anything else fails. */
const parse = (text: string): Sample[] => {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      expect(line, 'a comment line').to.match(/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/);
      continue;
    }
    const match = METRIC_LINE.exec(line);
    expect(match, `not a sample line: ${line}`).not.to.equal(null);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match![2] ?? '').matchAll(LABEL)) labels[key!] = value!;
    samples.push({ name: match![1]!, labels, value: Number(match![3]) });
  }
  return samples;
};

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}): number =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

describe('GET /metrics', () => {
  let h: Harness;
  const scrape = async (): Promise<Sample[]> => {
    const res = await h.request.get('/metrics').set(h.admin);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4; charset=utf-8$/);
    return parse(res.text);
  };

  beforeEach(async () => {
    h = await harness();
  });

  it('needs the admin token: 401 without it or with a client token', async () => {
    expect((await h.request.get('/metrics')).status).to.equal(401);
    const res = await h.request.get('/metrics').set(h.auth);
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('unauthorized');
    expect(res.headers['www-authenticate']).to.equal('Bearer');
  });

  it('does not exist without an admin token (404)', async () => {
    const none = await harness({ adminToken: null });
    const res = await none.request.get('/metrics').set('Authorization', `Bearer ${ADMIN_TOKEN}`);
    expect(res.status).to.equal(404);
  });

  it('counts requests by method, route pattern and status, with durations', async () => {
    const before = await scrape();
    const labels = { method: 'POST', route: '/api/ping', status: '200' };
    const count = value(before, 'debtkit_http_requests_total', labels);
    await h.request.post('/api/ping').set(h.auth).send({ payload: 'a' }).expect(200);
    await h.request.post('/api/ping').set(h.auth).send({ payload: 'b' }).expect(200);
    await h.request.post('/api/ping').set(h.auth).send({ nonsense: true }).expect(400);
    await h.request.get('/no/such/thing').expect(404);

    const after = await scrape();
    expect(value(after, 'debtkit_http_requests_total', labels)).to.equal(count + 2);
    expect(value(after, 'debtkit_http_request_duration_seconds_count', labels)).to.equal(count + 2);
    expect(value(after, 'debtkit_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).to.equal(count + 2);
    expect(value(after, 'debtkit_http_requests_total', { method: 'POST', route: '/api/ping', status: '400' })).to.equal(1);
    // A path no route knows is not a label value of its own.
    expect(value(after, 'debtkit_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).to.equal(1);
    expect(after.some((s) => s.labels['route'] === '/no/such/thing')).to.equal(false);
  });

  it("labels requests answered before routing (401, 415) with their route pattern, and 405 with the path's", async () => {
    await h.request.post('/api/ping').send({ payload: 'no token' }).expect(401);
    await h.request.post('/api/ping').set(h.auth).set('Content-Type', 'text/plain').send('x').expect(415);
    await h.request.get('/api/ping').set(h.auth).expect(405);
    const samples = await scrape();
    expect(value(samples, 'debtkit_http_requests_total', { method: 'POST', route: '/api/ping', status: '401' })).to.equal(1);
    expect(value(samples, 'debtkit_http_requests_total', { method: 'POST', route: '/api/ping', status: '415' })).to.equal(1);
    expect(value(samples, 'debtkit_http_requests_total', { method: 'GET', route: '/api/ping', status: '405' })).to.equal(1);
  });

  it('counts rate-limited requests by limit', async () => {
    const metrics = createMetrics();
    const limited = await harness({
      metrics,
      rateLimits: createRateLimits({ requestsPerSecond: 1, authFailuresPerMinute: 1 }, { kind: 'memory' }),
    });
    for (let i = 0; i < 3; i++) await limited.request.post('/api/ping').set(limited.auth).send({ payload: 'p' });
    await limited.request.get('/api/users/1').set('Authorization', 'Bearer nope');
    await limited.request.get('/api/users/1').set('Authorization', 'Bearer nope');
    const samples = parse(await metrics.registry.metrics());
    expect(value(samples, 'debtkit_rate_limited_total', { limit: 'client' })).to.equal(1);
    expect(value(samples, 'debtkit_rate_limited_total', { limit: 'auth_failure' })).to.equal(1);
  });

  it('counts store failures by kind', async () => {
    const metrics = createMetrics();
    const store = { ...createMemoryStore(), health: { ping: () => TE.left(unavailable('connection refused')) } };
    const down = await harness({ metrics, store });
    await down.request.get('/readyz').expect(503);
    expect(value(parse(await metrics.registry.metrics()), 'debtkit_store_errors_total', { kind: 'unavailable' })).to.equal(1);
  });

  it('counts responses replayed for a repeated Idempotency-Key, and nothing for a first request', async () => {
    const metrics = createMetrics();
    const h = await harness({ metrics });
    const post = (key: string) => h.request.post('/api/users').set(h.auth).set('Idempotency-Key', key).send({ last_name: 'Hopper' });
    expect((await post('signup-1')).status).to.equal(201);
    expect((await post('signup-2')).status).to.equal(201);
    expect(value(parse(await metrics.registry.metrics()), 'debtkit_idempotent_replays_total')).to.equal(0);
    const again = await post('signup-1');
    expect(again.headers['idempotent-replayed']).to.equal('true');
    await post('signup-1');
    expect(value(parse(await metrics.registry.metrics()), 'debtkit_idempotent_replays_total')).to.equal(2);
  });

  it('counts webhook delivery attempts by outcome: delivered, retrying, failed', async () => {
    const metrics = createMetrics();
    const ok = await new Receiver(() => 204).start();
    const broken = await new Receiver(() => 500).start();
    try {
      const h = await webhookHarness({ metrics, retrySeconds: [1] });
      const client = await h.newClient();
      for (const url of [ok.url, broken.url])
        expect((await h.request.post('/api/webhook_endpoints').set(client.auth).send({ url })).status).to.equal(201);
      const user = await h.request.post('/api/users').set(client.auth).send({ last_name: 'Doe' });
      expect(
        (
          await h.request
            .post(`/api/users/${user.body['id']}/accounts`)
            .set(client.auth)
            .send({ name: 'A', type: 'loan', subtype: 'auto_loan', balance: 1 })
        ).status,
      ).to.equal(201);
      const outcomes = async () => {
        const samples = parse(await metrics.registry.metrics());
        return Object.fromEntries(
          ['delivered', 'retrying', 'failed'].map((outcome) => [outcome, value(samples, 'debtkit_webhook_deliveries_total', { outcome })]),
        );
      };
      await h.worker.drain();
      expect(await outcomes()).to.deep.equal({ delivered: 1, retrying: 1, failed: 0 });
      h.clock.advance(1000);
      await h.worker.drain();
      expect(broken.received).to.have.length(2);
      expect(await outcomes()).to.deep.equal({ delivered: 1, retrying: 1, failed: 1 });
    } finally {
      await Promise.all([ok.stop(), broken.stop()]);
    }
  });

  it('offers the counters other features increment, and process metrics when asked', async () => {
    const metrics = createMetrics({ processMetrics: true });
    metrics.idempotentReplays.inc();
    metrics.webhookDeliveries.inc({ outcome: 'delivered' });
    const samples = parse(await metrics.registry.metrics());
    expect(value(samples, 'debtkit_idempotent_replays_total')).to.equal(1);
    expect(value(samples, 'debtkit_webhook_deliveries_total', { outcome: 'delivered' })).to.equal(1);
    expect(samples.map((s) => s.name)).to.include.members([
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ]);
  });
});
