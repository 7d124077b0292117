/**
 * OpenTelemetry (issue 24): spans made by hand with `@opentelemetry/api`,
 * recorded here by the SDK's in-memory exporter: one SERVER span per request
 * named by its route (status and client id attributes, an incoming
 * `traceparent` honoured), a child span per store port call on the memory and
 * the mongo store, a CLIENT span per webhook attempt whose `traceparent`
 * reaches the receiver. Then the `debtkit` server with
 * `OTEL_TRACES_EXPORTER=otlp` exporting to an OTLP/HTTP receiver written here.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import supertest from 'supertest';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { PORTS, type StorePorts } from '@debtkit/core';
import { createMemoryStore, seedDemo } from '@debtkit/adapter-memory';
import { mongoStorePorts, openMongoContext } from '@debtkit/adapter-mongo';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { compose } from '../src/main/composition.js';
import { HTTP, resolve } from '../src/main/container.js';
import { startTracing } from '../src/main/tracing.js';
import { StartupError } from '../src/main/startup-error.js';
import { generateToken } from '../src/http/token-issuer.js';
import { CLIENT_ID_ATTRIBUTE } from '../src/http/pipeline/tracing.js';
import { CLI, cliIsBuilt, demoTokenOf, startCli } from './support/cli-process.js';
import { Receiver, offlineResolveHost } from './support/webhook-harness.js';

const SERVER = 1; // SpanKind.SERVER
const CLIENT = 2; // SpanKind.CLIENT
const clock = { now: () => new Date('2026-03-15T12:00:00.000Z') };
const INCOMING_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const INCOMING_SPAN = '00f067aa0ba902b7';

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** A payment on the seeded demo user's first plan, on `store`; answers the finished spans of that one request. */
const spansOfOnePayment = async (exporter: InMemorySpanExporter, store: StorePorts) => {
  const { app, container, close } = await compose({ store, clock, config: { rateLimit: 0, authFailureLimit: 0 } });
  try {
    const token = generateToken('sandbox');
    const seeded = await seedDemo(
      { ...store, clock, tokenHasher: resolve(container, PORTS.TokenHasher) },
      { token, apiVersion: '2024-07-01' },
    )();
    if (E.isLeft(seeded)) throw new Error(seeded.left.message);
    const request = supertest(app.callback());
    const auth = { Authorization: `Bearer ${token}` };
    const user = `/api/users/${seeded.right.user.id}`;
    const plan = await request.post(`${user}/payment_plans`).set(auth).send({ strategy: 'avalanche', monthly_payment: 400_000 });
    expect(plan.status).to.equal(201);
    exporter.reset();
    const paid = await request
      .post(`${user}/payment_plans/${plan.body.id}/payments`)
      .set(auth)
      .set('traceparent', `00-${INCOMING_TRACE}-${INCOMING_SPAN}-01`)
      .send({ account_id: seeded.right.accounts[0]?.id, amount: 10_000 });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    return { spans: exporter.getFinishedSpans(), clientId: seeded.right.client.id };
  } finally {
    await close();
  }
};

const expectTracedPayment = (spans: ReadonlyArray<ReadableSpan>, clientId: number): void => {
  const servers = spans.filter((s) => s.kind === SERVER);
  expect(servers.map((s) => s.name)).to.deep.equal(['POST /api/users/:id/payment_plans/:payment_plan_id/payments']);
  const [request] = servers;
  expect(request!.attributes).to.deep.include({
    'http.response.status_code': 201,
    [CLIENT_ID_ATTRIBUTE]: clientId,
    'http.route': '/api/users/:id/payment_plans/:payment_plan_id/payments',
  });
  // The caller's trace continues: same trace id, the caller's span as parent.
  expect(request!.spanContext().traceId).to.equal(INCOMING_TRACE);
  expect(parentOf(request!)).to.equal(INCOMING_SPAN);
  const store = spans.filter((s) => s.name.startsWith('store '));
  const names = store.map((s) => s.name);
  expect(names).to.include.members(['store planPayments.create']);
  expect(
    names.some((n) => n.startsWith('store paymentPlans.')),
    names.join(', '),
  ).to.equal(true);
  expect(
    names.some((n) => n.startsWith('store events.')),
    names.join(', '),
  ).to.equal(true);
  for (const span of store) {
    expect(span.spanContext().traceId, span.name).to.equal(INCOMING_TRACE);
    expect(parentOf(span), span.name).to.equal(request!.spanContext().spanId);
  }
  expect(spans.length).to.equal(servers.length + store.length);
};

/**
 * A composed app with a client whose webhook endpoint is `receiver`, and one
 * event waiting for it (a user created and deleted); the function answered
 * delivers it (the worker drained) and closes the app.
 */
const oneEventFor = async (receiver: { readonly url: string }): Promise<() => Promise<void>> => {
  const { app, container, close } = await compose({
    clock,
    config: { rateLimit: 0, authFailureLimit: 0, adminToken: 'admin-token-for-tracing-tests-01' },
    webhooks: { resolveHost: offlineResolveHost },
  });
  const request = supertest(app.callback());
  const created = await request
    .post('/admin/clients')
    .set('Authorization', 'Bearer admin-token-for-tracing-tests-01')
    .send({ name: 'Acme' });
  const auth = { Authorization: `Bearer ${created.body.token}` };
  expect((await request.post('/api/webhook_endpoints').set(auth).send({ url: receiver.url })).status).to.equal(201);
  expect((await request.post('/api/users').set(auth).send({ last_name: 'Doe' })).status).to.equal(201);
  expect((await request.delete('/api/users/1').set(auth)).status).to.equal(204);
  return async () => {
    await resolve(container, HTTP.DeliveryWorker).drain();
    await close();
  };
};

describe('OpenTelemetry tracing', function () {
  this.timeout(30_000);

  describe('with the SDK registered (in-memory exporter)', () => {
    const exporter = new InMemorySpanExporter();
    let provider: NodeTracerProvider;
    let wire: WireServer;
    before(async () => {
      provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      provider.register();
      wire = await startWireServer();
    });
    after(async () => {
      await wire.stop();
      await provider.shutdown();
      // Leave the process as the other tests expect it: no global provider, context manager or propagator.
      trace.disable();
      context.disable();
      propagation.disable();
    });

    it('one payment request on the memory store: a span named by its route, a child span per store call', async () => {
      const { spans, clientId } = await spansOfOnePayment(exporter, createMemoryStore());
      expectTracedPayment(spans, clientId);
    });

    it('the same on the mongo store (wire-protocol test server)', async () => {
      const ctx = await openMongoContext(wire.url, { dbName: `debtkit_tracing_${process.pid}`, serverSelectionTimeoutMS: 2000 });
      try {
        const { spans, clientId } = await spansOfOnePayment(exporter, mongoStorePorts(ctx));
        expectTracedPayment(spans, clientId);
      } finally {
        await ctx.close();
      }
    });

    it('a request without traceparent starts its own trace; an unmatched one is named by its method', async () => {
      const { app, close } = await compose({ clock });
      exporter.reset();
      await supertest(app.callback()).get('/healthz');
      await supertest(app.callback()).get('/no/such/path');
      const [health, unmatched] = exporter.getFinishedSpans().filter((s) => s.kind === SERVER);
      expect(health!.name).to.equal('GET /healthz');
      expect(parentOf(health!)).to.equal(undefined);
      expect(health!.attributes).to.not.have.property(CLIENT_ID_ATTRIBUTE);
      expect(unmatched!.attributes['http.response.status_code']).to.equal(404);
      await close();
    });

    it('a span per webhook attempt, whose W3C traceparent the receiver gets', async () => {
      const receiver = await new Receiver(() => 200).start();
      try {
        const deliver = await oneEventFor(receiver);
        exporter.reset();
        await deliver();
        expect(receiver.received).to.have.length(1);
        const attempts = exporter.getFinishedSpans().filter((s) => s.name === 'webhook delivery attempt');
        expect(attempts).to.have.length(1);
        const [attempt] = attempts;
        expect(attempt!.kind).to.equal(CLIENT);
        expect(attempt!.attributes).to.deep.include({ 'http.response.status_code': 200, 'debtkit.webhook.outcome': 'delivered' });
        const { traceId, spanId } = attempt!.spanContext();
        expect(receiver.received[0]!.headers['traceparent']).to.equal(`00-${traceId}-${spanId}-01`);
        // The store calls of the attempt are its children.
        const children = exporter
          .getFinishedSpans()
          .filter((s) => parentOf(s) === spanId)
          .map((s) => s.name);
        expect(children).to.include.members(['store webhookEndpoints.get', 'store events.get', 'store webhookDeliveries.complete']);
      } finally {
        await receiver.stop();
      }
    });
  });

  describe('a provider registered after the app was made', () => {
    it('traces the requests that follow: whether tracing is on is asked per request, not once at startup', async () => {
      const { app, close } = await compose({ clock });
      const exporter = new InMemorySpanExporter();
      const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      try {
        await supertest(app.callback()).get('/healthz');
        expect(exporter.getFinishedSpans()).to.have.length(0);
        provider.register();
        await supertest(app.callback()).get('/healthz');
        expect(
          exporter
            .getFinishedSpans()
            .filter((s) => s.kind === SERVER)
            .map((s) => s.name),
        ).to.deep.equal(['GET /healthz']);
      } finally {
        await close();
        await provider.shutdown();
        trace.disable();
        context.disable();
        propagation.disable();
      }
    });
  });

  describe('off by default', () => {
    it('records nothing and sends no traceparent without a tracer provider', async () => {
      const receiver = await new Receiver(() => 200).start();
      try {
        await (
          await oneEventFor(receiver)
        )();
        expect(receiver.received).to.have.length(1);
        expect(receiver.received[0]!.headers).to.not.have.property('traceparent');
      } finally {
        await receiver.stop();
      }
    });

    it('startTracing: nothing without OTEL_TRACES_EXPORTER or with none; one line for an exporter it does not know', async () => {
      await (await startTracing({})).shutdown();
      await (await startTracing({ OTEL_TRACES_EXPORTER: 'none' })).shutdown();
      expect(trace.getTracer('probe').startSpan('x').isRecording()).to.equal(false);
      const refused = await startTracing({ OTEL_TRACES_EXPORTER: 'jaeger' }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused).to.be.instanceOf(StartupError);
      expect((refused as Error).message).to.equal('OTEL_TRACES_EXPORTER must be otlp, console or none (got "jaeger")');
    });
  });

  describe('the debtkit server with OTEL_TRACES_EXPORTER=otlp', () => {
    let receiver: Server;
    const bodies: Array<{ path: string; type: string; body: string }> = [];
    before(async function () {
      if (!cliIsBuilt()) {
        console.log(`    (skipped: ${CLI} is not built; run \`npx tsc -b\` first)`);
        this.skip();
      }
      receiver = createServer((req, res) => {
        let body = '';
        req.setEncoding('utf8').on('data', (c: string) => (body += c));
        req.on('end', () => {
          bodies.push({ path: req.url ?? '', type: String(req.headers['content-type']), body });
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    });
    after(async () => {
      receiver?.closeAllConnections();
      await new Promise((r) => (receiver === undefined ? r(undefined) : receiver.close(r)));
    });

    it('exports the spans of its requests to the OTLP/HTTP endpoint (flushed at shutdown)', async () => {
      const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces`;
      const cli = await startCli({
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint,
        OTEL_SERVICE_NAME: 'debtkit-under-test',
      });
      const token = demoTokenOf(cli);
      const res = await fetch(`${cli.url}/api/users`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).to.equal(200);
      expect(await cli.stop()).to.equal(0);
      expect(bodies.length, cli.stderr()).to.be.greaterThan(0);
      expect(bodies.every((b) => b.path === '/v1/traces' && b.type.startsWith('application/json'))).to.equal(true);
      type Otlp = {
        resourceSpans: Array<{
          scopeSpans: Array<{
            spans: Array<{ name: string; kind: number; attributes: Array<{ key: string; value: Record<string, unknown> }> }>;
          }>;
        }>;
      };
      const spans = bodies.flatMap((b) => (JSON.parse(b.body) as Otlp).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
      const names = spans.map((s) => s.name);
      expect(names).to.include('GET /api/users');
      expect(names).to.include('store users.list');
      const request = spans.find((s) => s.name === 'GET /api/users')!;
      expect(request.attributes.find((a) => a.key === 'http.response.status_code')?.value).to.deep.equal({ intValue: 200 });
    });
  });
});
