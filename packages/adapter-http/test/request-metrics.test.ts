/**
 * The per-request recorder (src/http/request-metrics.ts) against prom-client
 * itself: the same requests recorded through it and through a plain
 * prom-client Counter and Histogram (the way they were recorded before) must
 * scrape to the same text, byte for byte, including after resets; and a
 * method Node's parser does not know never becomes a series. The unlabelled
 * histogram (the admission wait) likewise, against prom-client's `Histogram`.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Counter, Histogram, Registry } from 'prom-client';
import { ADMISSION_WAIT_BUCKETS, DURATION_BUCKETS } from '../src/http/metrics.js';
import { createRequestMetrics, createUnlabelledHistogram } from '../src/http/request-metrics.js';
import { harness } from './support/http-harness.js';

type Request = readonly [method: string, route: string, status: number, seconds: number];

const COUNTER = { name: 'debtkit_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status' };
const HISTOGRAM = {
  name: 'debtkit_http_request_duration_seconds',
  help: 'Time from the request to its answer, by method, route pattern and status',
};
const ODD_ROUTE = '/odd "route" \\ with\nnewline';

/** `registry` scrapes as `reference` does, as text and as JSON; the text. */
const expectSameScrape = async (registry: Registry, reference: Registry): Promise<string> => {
  const text = await registry.metrics();
  expect(text).to.equal(await reference.metrics());
  // getMetricsAsJSON goes through get(); prom-client's histogram adds an empty `exemplar` to each sample.
  const json = (r: Registry) =>
    r.getMetricsAsJSON().then((m) => JSON.parse(JSON.stringify(m, (k, v: unknown) => (k === 'exemplar' ? undefined : v))) as unknown);
  expect(await json(registry)).to.deep.equal(await json(reference));
  return text;
};

/** The two families both ways, each in a registry of its own. */
const pair = () => {
  const reference = new Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const counter = new Counter({ ...COUNTER, labelNames, registers: [reference] });
  const histogram = new Histogram({ ...HISTOGRAM, labelNames, buckets: [...DURATION_BUCKETS], registers: [reference] });
  const registry = new Registry();
  const { record } = createRequestMetrics({ registry, buckets: DURATION_BUCKETS });
  const both = (requests: readonly Request[]): void => {
    for (const [method, route, status, seconds] of requests) {
      const labels = { method, route, status: String(status) };
      counter.inc(labels);
      histogram.observe(labels, seconds);
      record(method, route, status, seconds);
    }
  };
  return { registry, reference, both, expectSame: () => expectSameScrape(registry, reference) };
};

const SCORES = '/api/users/:id/credit_scores';
const REQUESTS: readonly Request[] = [
  ['GET', SCORES, 200, 0.001], // exactly on the first bound
  ['GET', SCORES, 200, 0.0004],
  ['POST', '/api/ping', 400, 10], // on the largest bound
  ['POST', '/api/ping', 400, 12.5], // above every bound: +Inf only
  ['GET', 'unmatched', 404, 0.1],
  ['GET', 'unmatched', 404, 0.2], // a sum that is not exact in binary (0.30000000000000004)
  ['DELETE', ODD_ROUTE, 204, 0.003],
  ['GET', SCORES, 500, 0],
  ['GET', SCORES, 200, 0.25], // on a middle bound, after other series
];

describe('request metrics recorder', () => {
  it('scrapes exactly as a prom-client Counter and Histogram fed the same requests', async () => {
    const { both, expectSame } = pair();
    expect(await expectSame()).to.include('# TYPE debtkit_http_requests_total counter');
    both(REQUESTS);
    const text = await expectSame();
    expect(text).to.include('debtkit_http_requests_total{method="GET",route="/api/users/:id/credit_scores",status="200"} 3\n');
    expect(text).to.include(
      'debtkit_http_request_duration_seconds_bucket{le="0.001",method="GET",route="/api/users/:id/credit_scores",status="200"} 2\n',
    );
    expect(text).to.include('debtkit_http_request_duration_seconds_bucket{le="10",method="POST",route="/api/ping",status="400"} 1\n');
    expect(text).to.include('debtkit_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/ping",status="400"} 2\n');
    expect(text).to.include('debtkit_http_request_duration_seconds_sum{method="GET",route="unmatched",status="404"} 0.30000000000000004\n');
    expect(text).to.include('debtkit_http_requests_total{method="DELETE",route="/odd \\"route\\" \\\\ with\\nnewline",status="204"} 1\n');
  });

  it('resets as prom-client does: all at once, or one family, and lists series in the order recorded since', async () => {
    const { registry, reference, both, expectSame } = pair();
    both(REQUESTS);
    for (const r of [registry, reference]) r.resetMetrics();
    expect(await expectSame()).not.to.include('method=');
    both([...REQUESTS].reverse());
    await expectSame();

    for (const r of [registry, reference]) r.getSingleMetric(COUNTER.name)!.reset();
    both(REQUESTS.slice(4));
    await expectSame();

    for (const r of [registry, reference]) r.getSingleMetric(HISTOGRAM.name)!.reset();
    both(REQUESTS.slice(0, 3));
    const text = await expectSame();
    // The counter kept its series since its reset, the histogram only the last three requests'.
    expect(text).to.include('debtkit_http_requests_total{method="GET",route="unmatched",status="404"} 2\n');
    expect(text).not.to.include('debtkit_http_request_duration_seconds_count{method="GET",route="unmatched"');
  });

  it('makes no series of a method Node does not know: its parser answers 400 before the app', async () => {
    const h = await harness();
    await h.request.post('/api/ping').set(h.auth).send({ payload: 'p' }).expect(200);
    const server = createServer(h.app.callback()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      socket.end('INVENTED /api/ping HTTP/1.1\r\nHost: localhost\r\n\r\n');
      let answer = '';
      for await (const chunk of socket) answer += String(chunk);
      expect(answer).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
    } finally {
      server.close();
    }
    const res = await h.request.get('/metrics').set(h.admin).expect(200);
    expect(res.text).to.include('debtkit_http_requests_total{method="POST",route="/api/ping",status="200"} 1\n');
    expect(res.text).not.to.include('INVENTED');
  });

  describe('an unlabelled histogram', () => {
    const WAIT = {
      name: 'debtkit_admission_wait_seconds',
      help: "Seconds each admitted /api request waited in its client's queue for a slot (0: admitted at once)",
    };
    const twins = () => {
      const reference = new Registry();
      const histogram = new Histogram({ ...WAIT, buckets: [...ADMISSION_WAIT_BUCKETS], registers: [reference] });
      const registry = new Registry();
      const record = createUnlabelledHistogram({ registry, ...WAIT, buckets: ADMISSION_WAIT_BUCKETS });
      const both = (values: readonly number[]): void => {
        for (const v of values) {
          histogram.observe(v);
          record(v);
        }
      };
      return { registry, reference, both, expectSame: () => expectSameScrape(registry, reference) };
    };
    // At once (0), on a bound, between bounds, on the largest, above every bound, and a sum not exact in binary.
    const WAITS = [0, 0, 0.001, 0.0004, 0.1, 0.2, 10, 12.5, 0.003];

    it('scrapes exactly as a prom-client Histogram fed the same values, zeros listed before the first value', async () => {
      const { both, expectSame } = twins();
      expect(await expectSame()).to.include('debtkit_admission_wait_seconds_count 0\n');
      both(WAITS);
      const text = await expectSame();
      expect(text).to.include('debtkit_admission_wait_seconds_bucket{le="0.001"} 4\n');
      expect(text).to.include('debtkit_admission_wait_seconds_bucket{le="+Inf"} 9\n');
      expect(text).to.include('debtkit_admission_wait_seconds_count 9\n');
    });

    it('resets as prom-client does: no series until it observes again', async () => {
      const { registry, reference, both, expectSame } = twins();
      both(WAITS);
      for (const r of [registry, reference]) r.resetMetrics();
      expect(await expectSame()).not.to.include('_count');
      both([0.05, 0]);
      expect(await expectSame()).to.include('debtkit_admission_wait_seconds_count 2\n');
      for (const r of [registry, reference]) r.getSingleMetric(WAIT.name)!.reset();
      expect(await expectSame()).not.to.include('_count');
    });
  });
});
