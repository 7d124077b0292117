/**
 * The fair share of the process over HTTP (docs/decisions/tenancy.md): a heavy client's
 * queue does not hold up a light client, the per-client limit, round robin
 * when the process is full, 429 with Retry-After after the wait, and the slot
 * given back when a client leaves. Requests are held in a probe route until
 * the test opens their gate; the queue is observed, never slept on.
 */
import { EventEmitter } from 'node:events';
import { createServer, request as httpRequest, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { versioning } from '@debtkit/core';
import type { RouteDef } from '../src/http/app-context.js';
import {
  createAdmissionQueue,
  type AdmissionQueue,
  type AdmissionSettings,
  type Release,
  type SetTimer,
} from '../src/http/admission-queue.js';
import { createMetrics, type Metrics } from '../src/http/metrics.js';
import { fairAdmission } from '../src/http/pipeline/fair-admission.js';
import type { RequestContext } from '../src/http/app-context.js';
import { deferred, harness, type Harness } from './support/http-harness.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: { readonly [k: string]: unknown };
}

/** The queue, with a way to wait until its state matches (checked on every acquire and release). */
const observed = (queue: AdmissionQueue) => {
  let watchers: Array<{ readonly ok: () => boolean; readonly resolve: () => void }> = [];
  const check = (): void => {
    watchers = watchers.filter((w) => (w.ok() ? (w.resolve(), false) : true));
  };
  const watched =
    (release: Release): Release =>
    () => {
      release();
      check();
    };
  const wrapped: AdmissionQueue = {
    settings: queue.settings,
    inProgress: () => queue.inProgress(),
    waiting: () => queue.waiting(),
    tryAcquire: (key) => {
      const release = queue.tryAcquire(key);
      check();
      return release === undefined ? undefined : watched(release);
    },
    acquire: (key, signal) => {
      const admission = queue.acquire(key, signal);
      check();
      return admission.then((a) => {
        check();
        return a.admitted ? { ...a, release: watched(a.release) } : a;
      });
    },
  };
  const until = (ok: () => boolean): Promise<void> => (ok() ? Promise.resolve() : new Promise((resolve) => watchers.push({ ok, resolve })));
  return { queue: wrapped, until, check };
};

/** `GET /api/probe/:name` waits for its gate; `entered` lists the requests that reached the handler, in order. */
const probe = (onEnter: () => void) => {
  const gates = new Map<string, ReturnType<typeof deferred>>();
  const gate = (name: string) => {
    let g = gates.get(name);
    if (g === undefined) {
      g = deferred();
      gates.set(name, g);
    }
    return g;
  };
  const entered: string[] = [];
  const route: RouteDef = {
    method: 'GET',
    path: '/api/probe/:name',
    auth: 'client',
    handler: async (ctx) => {
      const name = ctx.params['name'] ?? '';
      entered.push(name);
      onEnter();
      await gate(name).promise;
      ctx.body = { name };
    },
  };
  return { route, entered, open: (name: string) => gate(name).resolve(undefined) };
};

describe('fair share of the process over HTTP (docs/decisions/tenancy.md)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    const s = server;
    server = undefined;
    if (s === undefined) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  });

  const setUp = async (settings: AdmissionSettings, options: { readonly setTimer?: SetTimer } = {}) => {
    const q = observed(createAdmissionQueue(settings, options.setTimer === undefined ? {} : { setTimer: options.setTimer }));
    const p = probe(q.check);
    const metrics: Metrics = createMetrics();
    const h: Harness = await harness({ routes: [p.route], admission: q.queue, metrics });
    const light = await h.clientAccess.createClient({ name: 'Light app', environment: 'sandbox', apiVersion: versioning.latest })();
    if (E.isLeft(light)) throw new Error(light.left.message);
    const lightAuth = `Bearer ${light.right.token}`;
    const s = createServer(h.app.callback());
    server = s;
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const port = (s.address() as AddressInfo).port;
    const send = (name: string, auth: string): { readonly req: ClientRequest; readonly answer: Promise<Answer> } => {
      const req = httpRequest({ host: '127.0.0.1', port, path: `/api/probe/${name}`, headers: { Authorization: auth }, agent: false });
      const answer = new Promise<Answer>((resolve, reject) => {
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'),
            }),
          );
        });
        req.on('error', reject);
      });
      req.end();
      return { req, answer };
    };
    return {
      ...p,
      ...q,
      metrics,
      heavy: (name: string) => send(name, h.auth.Authorization),
      light: (name: string) => send(name, lightAuth),
    };
  };

  it("admits a light client's request at once while a heavy client's own queue is full", async () => {
    const t = await setUp({ maxInProgress: 8, clientConcurrency: 2, queueWaitMs: 60_000 });
    const heavy = ['h1', 'h2', 'h3', 'h4', 'h5'].map((n) => t.heavy(n));
    await t.until(() => t.queue.inProgress() === 2 && t.queue.waiting() === 3);
    expect([...t.entered].sort()).to.deep.equal(['h1', 'h2']);

    t.open('l1');
    const light = await t.light('l1').answer;
    expect(light.status).to.equal(200);
    expect(light.body).to.deep.equal({ name: 'l1' });
    // The heavy client's queue is still full: none of its waiting requests ran.
    expect(t.queue.waiting()).to.equal(3);
    expect(t.entered).to.have.length(3);

    for (const n of ['h1', 'h2', 'h3', 'h4', 'h5']) t.open(n);
    expect((await Promise.all(heavy.map((r) => r.answer))).map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200]);
    const waited = await t.metrics.registry.getSingleMetricAsString('debtkit_admission_wait_seconds');
    expect(waited).to.include('debtkit_admission_wait_seconds_count 6');
  });

  it('holds a client to its own limit: its next request enters only when one of its requests has been answered', async () => {
    const t = await setUp({ maxInProgress: 8, clientConcurrency: 2, queueWaitMs: 60_000 });
    const [r1, , r3] = ['a', 'b', 'c'].map((n) => t.heavy(n));
    await t.until(() => t.queue.waiting() === 1);
    expect(t.entered).to.have.length(2);
    const first = t.entered[0]!;
    t.open(first);
    await t.until(() => t.entered.length === 3);
    expect(t.queue.inProgress()).to.equal(2);
    for (const n of ['a', 'b', 'c']) t.open(n);
    expect((await r3!.answer).status).to.equal(200);
    expect((await r1!.answer).status).to.equal(200);
  });

  it('admits waiting requests round robin across clients when the process is full', async () => {
    const t = await setUp({ maxInProgress: 2, clientConcurrency: 4, queueWaitMs: 60_000 });
    const h = ['h1', 'h2'].map((n) => t.heavy(n));
    await t.until(() => t.queue.inProgress() === 2);
    const queued = ['h3', 'h4'].map((n) => t.heavy(n));
    await t.until(() => t.queue.waiting() === 2);
    const light = t.light('l1');
    await t.until(() => t.queue.waiting() === 3);
    // The heavy client queued first, so its turn comes first; then the light client's, before heavy's second.
    t.open(t.entered[0]!);
    await t.until(() => t.entered.length === 3);
    t.open(t.entered[1]!);
    await t.until(() => t.entered.length === 4);
    expect(t.entered.slice(2)).to.deep.equal(['h3', 'l1']);
    for (const n of ['h1', 'h2', 'h3', 'h4', 'l1']) t.open(n);
    const answers = await Promise.all([...h, ...queued, light].map((r) => r.answer));
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200]);
  });

  it('answers 429 rate_limited with Retry-After when a request waited DEBTKIT_QUEUE_WAIT_MS', async () => {
    const fire: Array<() => void> = [];
    const setTimer: SetTimer = (callback) => {
      fire.push(callback);
      return () => undefined;
    };
    const t = await setUp({ maxInProgress: 1, clientConcurrency: 1, queueWaitMs: 10_000 }, { setTimer });
    const held = t.heavy('h1');
    await t.until(() => t.queue.inProgress() === 1);
    const late = t.light('l1');
    await t.until(() => t.queue.waiting() === 1);
    for (const f of fire) f();
    const refused = await late.answer;
    expect(refused.status).to.equal(429);
    expect(refused.headers['retry-after']).to.equal('1');
    expect(refused.body['error']).to.deep.include({ code: 'rate_limited' });
    expect(t.entered).to.deep.equal(['h1']);
    const limited = await t.metrics.registry.getSingleMetricAsString('debtkit_rate_limited_total');
    expect(limited).to.include('debtkit_rate_limited_total{limit="queue"} 1');
    t.open('h1');
    expect((await held.answer).status).to.equal(200);
  });

  it('gives the slot back when the client leaves before its answer (close), so the next request is admitted', async () => {
    const t = await setUp({ maxInProgress: 1, clientConcurrency: 1, queueWaitMs: 60_000 });
    const gone = t.heavy('h1');
    gone.answer.catch(() => undefined);
    await t.until(() => t.entered.length === 1);
    const next = t.light('l1');
    await t.until(() => t.queue.waiting() === 1);
    t.open('l1');
    gone.req.destroy();
    // Released on the response's `close`, while the handler of h1 still waits for its gate.
    const answer = await next.answer;
    expect(answer.status).to.equal(200);
    expect(t.entered).to.deep.equal(['h1', 'l1']);
    t.open('h1');
    await t.until(() => t.queue.inProgress() === 0);
  });

  it('goes on with a request admitted from its queue only after the event loop has read what else arrived', async () => {
    // A request admitted from the queue is admitted in the turn where another response finished. Were it to go on
    // at once, a client's queue would run request after request in that one turn, each finish admitting the next,
    // and no other client's request could be read meanwhile (a flood's 88–150 ms stalls, docs/performance.md).
    const queue = createAdmissionQueue({ maxInProgress: 8, clientConcurrency: 1, queueWaitMs: 60_000 });
    const admission = fairAdmission({ queue });
    const contextOf = (): RequestContext => {
      const res = Object.assign(new EventEmitter(), { writableFinished: false, destroyed: false });
      return { state: { area: 'client', client: { id: 7 } }, res } as unknown as RequestContext;
    };
    const order: string[] = [];
    const first = contextOf();
    await admission(first, async () => void order.push('first'));
    const second = admission(contextOf(), async () => void order.push('second'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.waiting()).to.equal(1);
    first.res.emit('finish');
    // What the event loop would read next (another client's request), arrived before the queued one goes on.
    setImmediate(() => order.push('other client'));
    await second;
    expect(order).to.deep.equal(['first', 'other client', 'second']);
  });
});
