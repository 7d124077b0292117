/**
 * What the webhook tests share: the whole API composed by the container (so
 * the URL guard and the delivery worker are the production ones) on a memory
 * store with a clock the test moves, and a local receiver on 127.0.0.1.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import supertest from 'supertest';
import { ContainerModule } from 'inversify';
import type { Clock, Environment, StorePorts } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import type { Config } from '../../src/main/config.js';
import { HTTP, resolve } from '../../src/main/container.js';
import { compose } from '../../src/main/composition.js';
import type { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import type { ResolveHost } from '../../src/webhooks/webhook-url-guard.js';
import type { Metrics } from '../../src/http/metrics.js';
import { ADMIN_TOKEN } from './http-harness.js';

/** A clock that stands still until the test moves it. */
export class MovableClock implements Clock {
  constructor(private at: Date = new Date()) {}
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at = new Date(this.at.getTime() + ms);
  }
}

export interface WebhookHarnessOptions {
  readonly environment?: Environment;
  readonly store?: StorePorts;
  readonly resolveHost?: ResolveHost;
  readonly timeoutMs?: number;
  readonly retrySeconds?: ReadonlyArray<number>;
  readonly clock?: MovableClock;
  /** A registry the test reads, rebound as an embedding service would. */
  readonly metrics?: Metrics;
}

export interface ApiClient {
  readonly id: number;
  readonly auth: { readonly Authorization: string };
}

/** Name resolution without the network: example.com and its subdomains are one public address; every other name does not exist. */
export const offlineResolveHost: ResolveHost = async (host) => {
  if (host === 'example.com' || host.endsWith('.example.com')) return [{ address: '93.184.216.34', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

export const webhookHarness = async (options: WebhookHarnessOptions = {}) => {
  const store = options.store ?? createMemoryStore();
  const clock = options.clock ?? new MovableClock();
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    environment: options.environment ?? 'sandbox',
    store: 'memory',
    seed: false,
    logLevel: 'silent',
    adminToken: ADMIN_TOKEN,
    maxConnections: 10_000,
    // Production here still runs on the simulated bureau, as an operator may say explicitly (DEBTKIT_BUREAU=sandbox).
    bureau: 'sandbox',
    // Rate limits are not what these tests are about (0 disables them, docs/decisions/rate-limits.md).
    rateLimit: 0,
    authFailureLimit: 0,
    idempotencyClaimTimeoutSeconds: 60,
    ...(options.retrySeconds === undefined ? {} : { webhookRetrySeconds: options.retrySeconds }),
  };
  // The production composition, as the server and every other HTTP test use it.
  const { app, container } = await compose({
    config,
    store,
    clock,
    logger: pino({ level: 'silent' }),
    webhooks: {
      resolveHost: options.resolveHost ?? offlineResolveHost,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    },
    ...(options.metrics === undefined
      ? {}
      : { modules: [new ContainerModule(({ rebind }) => void rebind(HTTP.Metrics).toConstantValue(options.metrics!))] }),
  });
  const request = supertest(app.callback());
  const worker: DeliveryWorker = resolve(container, HTTP.DeliveryWorker);
  const newClient = async (name = 'Acme'): Promise<ApiClient> => {
    const res = await request.post('/admin/clients').set('Authorization', `Bearer ${ADMIN_TOKEN}`).send({ name });
    if (res.status !== 201) throw new Error(`client creation answered ${res.status}`);
    const body = res.body as { client: { id: number }; token: string };
    return { id: body.client.id, auth: { Authorization: `Bearer ${body.token}` } };
  };
  return { store, clock, request, worker, newClient };
};

export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly answered: number | 'hang';
}

/**
 * A webhook receiver on 127.0.0.1 (ephemeral port). `answer(n, headers)` decides the
 * status of the n-th request (0-based), or `hang` to never answer.
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  private server: Server | undefined;
  url = '';

  constructor(private readonly answer: (n: number, headers: IncomingHttpHeaders) => number | 'hang' = () => 200) {}

  /** Listen on `port` (default: one the OS picks; a receiver restarted on its old port keeps its URL). */
  async start(path = '/hooks', port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c));
      req.on('end', () => {
        const answered = this.answer(this.received.length, req.headers);
        this.received.push({ headers: req.headers, body, answered });
        this.waiters = this.waiters.filter((w) => (this.received.length >= w.count ? (w.resolve(), false) : true));
        if (answered === 'hang') this.hanging.add(res);
        else res.writeHead(answered).end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
    return this;
  }

  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<void> {
    return this.received.length >= count ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Answer every request left hanging so far with `status`. */
  release(status: number): void {
    for (const res of this.hanging) res.writeHead(status).end();
    this.hanging.clear();
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server === undefined ? r() : this.server.close(() => r())));
  }
}

export type Json = Record<string, any>;

export const EXPECTED_TYPES = [
  'account.created',
  'account.created',
  'account.updated',
  'account.closed',
  'credit_score.created',
  'bureau_auth.completed',
  'payment_plan.created',
  'plan_payment.created',
  'payment_plan.deleted',
  'user.deleted',
];

/**
 * Every kind of change, once (two account links), each answered as the spec says.
 * `beforeDelete` runs before the user's DELETE, the last step (after it the user's
 * events are redacted and their pending deliveries canceled, docs/decisions/tenancy.md).
 */
export const scenario = async (
  request: ReturnType<typeof supertest>,
  auth: ApiClient['auth'],
  beforeDelete?: () => Promise<void>,
): Promise<{ userId: number; planId: number }> => {
  const ok = (res: supertest.Response, status: number): Json => {
    expect(res.status, `${res.status} ${JSON.stringify(res.body)}`).to.equal(status);
    return res.body as Json;
  };
  const user = ok(await request.post('/api/users').set(auth).send({ last_name: 'Doe', date_of_birth: '1990-01-02' }), 201);
  const u = `/api/users/${user['id']}`;
  const loan = { type: 'loan', subtype: 'credit_card_loan', balance: 120_000, institution_apr: 19.99, institution_minimum_payment: 3_500 };
  const a = ok(
    await request
      .post(`${u}/accounts`)
      .set(auth)
      .send({ name: 'Card A', ...loan }),
    201,
  );
  const b = ok(
    await request
      .post(`${u}/accounts`)
      .set(auth)
      .send({ name: 'Card B', ...loan }),
    201,
  );
  ok(await request.patch(`${u}/accounts/${a['id']}`).set(auth).send({ nickname: 'Old card' }), 200);
  ok(await request.patch(`${u}/accounts/${a['id']}`).set(auth).send({ status: 'closed' }), 200);
  ok(await request.post(`${u}/bureau/auth/invoke`).set(auth).send({ device_ip: '203.0.113.7' }), 200);
  ok(await request.post(`${u}/bureau/auth/consent`).set(auth).send({ accepted: true }), 200);
  ok(await request.post(`${u}/bureau/auth/validate_otp`).set(auth).send({ code: '123456' }), 200);
  ok(await request.post(`${u}/bureau/auth/identity`).set(auth).send({ ssn_last4: '1234', date_of_birth: '1990-01-02' }), 200);
  const plan = ok(
    await request
      .post(`${u}/payment_plans`)
      .set(auth)
      .send({ strategy: 'avalanche', monthly_payment: 50_000, account_ids: [b['id']] }),
    201,
  );
  ok(await request.post(`${u}/payment_plans/${plan['id']}/payments`).set(auth).send({ account_id: b['id'], amount: 10_000 }), 201);
  ok(await request.delete(`${u}/payment_plans/${plan['id']}`).set(auth), 204);
  await beforeDelete?.();
  ok(await request.delete(u).set(auth), 204);
  return { userId: user['id'] as number, planId: plan['id'] as number };
};

export const listAll = async (request: ReturnType<typeof supertest>, auth: ApiClient['auth'], query = ''): Promise<Json[]> => {
  const res = await request.get(`/api/events?limit=100${query}`).set(auth);
  expect(res.status).to.equal(200);
  return (res.body as Json)['events'] as Json[];
};
