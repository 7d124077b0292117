/**
 * The OpenAPI document's examples are captured, never written: this test
 * drives every operation over `app.callback()` on a frozen clock, a seeded
 * memory store and a deterministic secret generator, once per API version
 * (the demo client pinned to it), and compares what the server answered (and
 * what was sent) with that version's data file, `openapi-examples/<version>.json`
 * (shipped with the package, read when a document is built). A handler, codec
 * or seed change that alters an answer makes the examples stale and this test
 * fails; `DEBTKIT_UPDATE_OPENAPI_EXAMPLES=1` rewrites the files from the real
 * answers instead (no rebuild needed: they are data, not source).
 *
 * The webhook payload examples come from the same run: one event of each type,
 * as `GET /api/events` answers it (what the delivery POSTs).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'chai';
import supertest from 'supertest';
import * as E from 'fp-ts/lib/Either.js';
import { ContainerModule } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import {
  EVENT_TYPES,
  FAILING_ENDPOINT_DISABLE_MS,
  PORTS,
  recordEndpointAttempt,
  versioning,
  type SecretGenerator,
  type Timestamp,
} from '@debtkit/core';
import { seedDemo } from '@debtkit/adapter-memory';
import { compose } from '../src/main/composition.js';
import { resolve } from '../src/main/container.js';
import { buildOpenApiDocument, examplesFile } from '../src/openapi/openapi-document.js';
import { offlineResolveHost } from './support/webhook-harness.js';
import { templateOf } from './support/openapi-assert.js';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const ADMIN_TOKEN = 'admin-token-for-openapi-examples-01';
const DEMO_TOKEN = `dk_sandbox_${createHash('sha256').update('demo').digest('base64url')}`;
const clock = { now: () => new Date('2026-03-15T12:00:00.000Z') };

/** 32 bytes in base64url, as the random generator gives, but the same on every run. */
class CountingSecrets implements SecretGenerator {
  private n = 0;
  secret(): string {
    this.n += 1;
    return createHash('sha256').update(`example secret ${this.n}`).digest('base64url');
  }
}

/** What each version's link request calls the institution's terms (2026-11-26 renamed them: accounts/account-institution-fields.ts). */
const institutionTerms = (version: string): Record<string, number> =>
  version === '2024-07-01' ? { apr: 19.99, minimum_payment: 3_500 } : { institution_apr: 19.99, institution_minimum_payment: 3_500 };

/** The metric lines an example shows: the debtkit counters (durations and process metrics differ on every run). */
const metricsExample = (text: string): string =>
  text
    .split('\n')
    .filter((line) =>
      /^(# (HELP|TYPE) )?debtkit_(http_requests|rate_limited|store_errors|idempotent_replays|webhook_deliveries)_total\b/.test(line),
    )
    .join('\n') + '\n';

const operationIndex = (): Map<string, string> => {
  const index = new Map<string, string>();
  for (const [path, item] of Object.entries(buildOpenApiDocument()['paths'] as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item))
      if (METHODS.includes(method)) index.set(`${method.toUpperCase()} ${path}`, op['operationId']);
  }
  return index;
};

interface Captured {
  readonly operations: Record<string, { request?: unknown; response?: unknown }>;
  readonly webhooks: Record<string, unknown>;
}

/** Drive every operation once, successfully, as a client pinned to `version`, recording the first request and answer of each. */
const captureExamples = async (version: string): Promise<Captured> => {
  const { app, store, container } = await compose({
    config: { adminToken: ADMIN_TOKEN, rateLimit: 0, authFailureLimit: 0, publicUrl: 'https://api.example.com' },
    clock,
    webhooks: { resolveHost: offlineResolveHost },
    modules: [new ContainerModule(({ rebind }) => void rebind(PORTS.SecretGenerator).toConstantValue(new CountingSecrets()))],
  });
  const seeded = await seedDemo(
    { ...store, clock, tokenHasher: resolve(container, PORTS.TokenHasher) },
    { token: DEMO_TOKEN, apiVersion: version },
  )();
  if (E.isLeft(seeded)) throw new Error(`seed failed: ${seeded.left.message}`);
  const demo = seeded.right;
  const request = supertest(app.callback());
  const index = operationIndex();
  const operations: Captured['operations'] = {};
  const auth = { Authorization: `Bearer ${DEMO_TOKEN}` };
  // A fixed request id: the audit log's example shows it, and examples must not change from run to run.
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'X-Request-Id': 'req_admin_example' };

  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Json> => {
    let req = request[method.toLowerCase() as 'get'](url).set(headers);
    if (body !== undefined) req = req.send(body as object);
    const res = await req;
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).to.be.within(200, 299);
    const template = templateOf(url);
    const id = index.get(`${method} ${template}`);
    if (id === undefined) throw new Error(`${method} ${url} is no operation of the document`);
    if (template?.startsWith('/api/') === true)
      expect(res.headers['api-version'], `${method} ${url} answered in ${version}`).to.equal(version);
    if (operations[id] === undefined) {
      const response =
        res.status === 204
          ? undefined
          : template === '/metrics'
            ? metricsExample(res.text)
            : template === '/openapi.json'
              ? { ...(res.body as Json), tags: (res.body as Json)['tags'].slice(0, 1), paths: {}, webhooks: {}, components: {} }
              : template?.endsWith('/credit_outlook') === true
                ? { ...(res.body as Json), months: (res.body as Json)['months'].slice(0, 3) }
                : res.body;
      // A POST without fields is sent without a body, which is decoded as the empty object its example shows.
      const sent = body ?? (method === 'POST' ? {} : undefined);
      operations[id] = { ...(sent === undefined ? {} : { request: sent }), ...(response === undefined ? {} : { response }) };
    }
    return res.body as Json;
  };

  const demoUser = `/api/users/${demo.user.id}`;
  await call('POST', '/api/ping', auth, { payload: 'hello' });
  await call('GET', '/healthz', {});
  await call('GET', '/readyz', {});
  await call('GET', version === versioning.latest ? '/openapi.json' : `/openapi.json?version=${version}`, {});
  await call('GET', '/api/versions', auth);

  const created = await call('POST', '/api/users', auth, {
    last_name: 'Doe',
    first_name: 'Jane',
    email: 'jane@example.com',
    date_of_birth: '1990-01-02',
    phone: '+1 555 0101',
  });
  const jane = `/api/users/${created['id']}`;
  await call('GET', '/api/users?limit=2', auth);
  await call('GET', jane, auth);
  await call('PATCH', jane, auth, { first_name: 'Janet' });

  const hook = await call('POST', '/api/webhook_endpoints', auth, { url: 'https://hooks.example.com/debtkit', description: 'Ledger sync' });
  const account = await call('POST', `${jane}/accounts`, auth, {
    name: 'Card',
    type: 'loan',
    subtype: 'credit_card_loan',
    balance: 120_000,
    ...institutionTerms(version),
    limit: 500_000,
    opened_at: '2020-01-01',
    payments_history: ['1', '1', '2'],
    mask: '1234',
    // Statement terms (docs/decisions/payoff-and-outlook.md#statement-grade-money), so the Account's examples show them filled in.
    interest_method: 'daily_compound',
    minimum_payment_formula: { floor: 2_500, terms: [{ percent_of_balance: 1, plus_interest: true, plus_amount: 0 }] },
    apr_segments: [
      { kind: 'purchase', balance: 70_000, apr: 19.99 },
      {
        kind: 'promotional',
        balance: 50_000,
        apr: 0,
        promo_ends_on: '2026-09-15',
        go_to_apr: 26.99,
        deferred_interest: true,
        accrued_deferred_interest: 0,
      },
    ],
  });
  await call('GET', `${jane}/accounts?type=loan`, auth);
  await call('GET', `${jane}/accounts/${account['id']}`, auth);
  await call('PATCH', `${jane}/accounts/${account['id']}`, auth, { nickname: 'Main card' });
  // A plan and a comparison on that card first, so their examples show warnings from a real answer: avalanche pays the
  // deferred promotion before its end (deferred_interest_avoided), minimum_only does not (deferred_interest_charged).
  await call('POST', `${jane}/payment_plans`, auth, { strategy: 'avalanche', monthly_payment: 30_000 });
  await call('POST', `${jane}/payment_plans/compare`, auth, { monthly_payment: 30_000 });
  await call('PATCH', `${jane}/accounts/${account['id']}`, auth, { status: 'closed' });

  await call('GET', `${jane}/bureau/auth`, auth);
  await call('POST', `${jane}/bureau/auth/invoke`, auth, { device_ip: '203.0.113.7' });
  await call('POST', `${jane}/bureau/auth/consent`, auth, { accepted: true });
  await call('POST', `${jane}/bureau/auth/validate_otp`, auth, { code: '123456' });
  await call('POST', `${jane}/bureau/auth/identity`, auth, { ssn_last4: '1234', date_of_birth: '1990-01-02' });
  await call('GET', `${jane}/credit_scores`, auth);
  await call('GET', `${jane}/credit_scores/history`, auth);
  await call('POST', `${jane}/bureau/auth/abort`, auth);

  const plan = await call('POST', `${demoUser}/payment_plans`, auth, { strategy: 'avalanche', monthly_payment: 500_000 });
  const planPath = `${demoUser}/payment_plans/${plan['id']}`;
  await call('GET', `${demoUser}/payment_plans`, auth);
  await call('GET', planPath, auth);
  await call('GET', `${planPath}/schedule?limit=2&starting_after=1`, auth);
  await call('POST', `${planPath}/payments`, auth, { account_id: demo.accounts[0]?.id, amount: 10_000 });
  await call('GET', `${planPath}/payments`, auth);
  await call('GET', `${planPath}/progress`, auth);
  await call('GET', `${planPath}/credit_outlook`, auth);
  // The demo's Visa: its Minimum Payment Warning and a payoff quote good through ten days from now (both only read).
  await call('GET', `${demoUser}/accounts/${demo.accounts[0]?.id}/repayment_disclosure`, auth);
  await call('GET', `${demoUser}/accounts/${demo.accounts[0]?.id}/payoff_quote?date=2026-03-25`, auth);
  await call('POST', `${demoUser}/payment_plans/compare`, auth, {
    monthly_payment: 500_000,
    custom_order: plan['account_ids'],
    extra_payments: [{ month: 2, amount: 25_000 }],
  });
  await call('DELETE', planPath, auth);

  await call('POST', '/api/debt_calculator', auth, { balance: 1_000_000, apr: 20, monthly_payment: 50_000 });
  await call('GET', '/api/learning_modules?category=investing', auth);
  const articles = await call('GET', '/api/articles?limit=2', auth);
  await call('GET', `/api/articles/${articles['articles'][0]['id']}`, auth);
  // The events as they are before Jane's delete: after it, hers are redacted (docs/decisions/tenancy.md).
  const events = await call('GET', '/api/events?limit=100', auth);
  await call('GET', `/api/events/${events['events'][0]['id']}`, auth);
  // Test webhooks and replay (docs/sandbox-over-time.md).
  await call('POST', `/api/webhook_endpoints/${hook['id']}/test`, auth, { type: 'account.created' });
  await call('POST', `/api/events/${events['events'][0]['id']}/redeliver`, auth, { endpoint_id: hook['id'] });
  await call('POST', `/api/webhook_endpoints/${hook['id']}/replay`, auth, {
    since: '2026-03-15T00:00:00.000Z',
    until: '2026-03-16T00:00:00.000Z',
  });
  await call('DELETE', jane, auth);
  const afterDelete = (await request.get('/api/events?limit=100').set(auth)).body as Json;
  // The sandbox over time (docs/sandbox-over-time.md): a month of minimum payments for the demo user.
  await call('POST', `${demoUser}/sandbox/advance`, auth, { months: 1, payments: 'minimum' });

  await call('GET', '/api/webhook_endpoints', auth);
  await call('GET', `/api/webhook_endpoints/${hook['id']}`, auth);
  await call('PATCH', `/api/webhook_endpoints/${hook['id']}`, auth, { status: 'disabled', description: 'Paused during the migration' });
  await call('GET', `/api/webhook_endpoints/${hook['id']}/deliveries?limit=2`, auth);
  await call('DELETE', `/api/webhook_endpoints/${hook['id']}`, auth);

  const client = await call('POST', '/admin/clients', admin, { name: 'Acme' });
  await call('GET', '/admin/clients', admin);
  const issued = await call('POST', `/admin/clients/${client['client']['id']}/tokens`, admin);
  const rolled = await call('POST', `/admin/tokens/${issued['token_id']}/roll`, admin, { expires_in_seconds: 3600 });
  await call('GET', `/admin/clients/${client['client']['id']}/tokens`, admin);
  await call('PATCH', `/admin/clients/${client['client']['id']}`, admin, { api_version: '2024-07-01' });
  await call('DELETE', `/admin/tokens/${rolled['token_id']}`, admin);
  await call('GET', '/admin/audit_events?limit=3', admin);
  await call('GET', '/metrics', admin);

  // An endpoint whose attempts have failed for 3 days: the delivery worker's health step disables it, with its event (docs/decisions/tenancy.md).
  const failing = await call('POST', '/api/webhook_endpoints', auth, { url: 'https://hooks.example.com/old', description: 'Old receiver' });
  const streak = await store.webhookEndpoints.update(demo.client.id, failing['id'], 1, {
    failing_since: new Date(clock.now().getTime() - FAILING_ENDPOINT_DISABLE_MS).toISOString() as Timestamp,
  })();
  if (E.isLeft(streak) || O.isNone(streak.right)) throw new Error('the failing endpoint could not be set up');
  const disabled = await recordEndpointAttempt({ ...store, clock, versioning })(streak.right.value, false)();
  expect(disabled).to.deep.equal(E.right('disable'));
  const disabledEvents = await call('GET', '/api/events?type=webhook_endpoint.disabled', auth);

  const webhooks: Captured['webhooks'] = {};
  for (const event of [...(events['events'] as Json[]), ...(disabledEvents['events'] as Json[]), ...(afterDelete['events'] as Json[])])
    webhooks[event['type']] ??= event;
  return { operations, webhooks };
};

/** A version's data file: what the document of that version shows as examples (read by openapi-document.ts). */
const render = (captured: Captured): string =>
  `${JSON.stringify({ operations: captured.operations, webhooks: captured.webhooks }, null, 2)}\n`;

for (const version of versioning.known)
  describe(`OpenAPI examples of ${version}`, function () {
    this.timeout(20_000);
    let captured: Captured;
    before(async () => {
      captured = await captureExamples(version);
      if (process.env['DEBTKIT_UPDATE_OPENAPI_EXAMPLES'] === '1') writeFileSync(examplesFile(version), render(captured));
    });

    it('cover every operation: a response example on each, a request example on each that takes a body', () => {
      const doc = buildOpenApiDocument(version) as Json;
      for (const [path, item] of Object.entries(doc['paths'] as Record<string, Json>)) {
        for (const [method, op] of Object.entries(item)) {
          if (!METHODS.includes(method)) continue;
          const where = `${method.toUpperCase()} ${path}`;
          expect(captured.operations[op['operationId']], `${where} was driven`).to.not.equal(undefined);
          for (const [status, response] of Object.entries(op['responses'] as Record<string, Json>)) {
            if (Number(status) >= 300 || response['content'] === undefined) continue;
            const media = Object.values(response['content'] as Record<string, Json>)[0]!;
            expect(media['example'], `${where} ${status} has an example`).to.not.equal(undefined);
          }
          for (const media of Object.values((op['requestBody']?.['content'] ?? {}) as Record<string, Json>)) {
            expect(media['example'], `${where} has a request example`).to.not.equal(undefined);
          }
        }
      }
      for (const type of EVENT_TYPES) {
        expect(
          doc['webhooks'][type]['post']['requestBody']['content']['application/json']['example'],
          `webhook ${type} has an example`,
        ).to.not.equal(undefined);
      }
    });

    it('are what the server answers today (stale examples fail: regenerate with DEBTKIT_UPDATE_OPENAPI_EXAMPLES=1)', () => {
      expect(existsSync(examplesFile(version)), `${examplesFile(version)} exists`).to.equal(true);
      const kept = JSON.parse(readFileSync(examplesFile(version), 'utf8')) as Captured;
      expect(kept.operations, 'operation examples').to.deep.equal(JSON.parse(JSON.stringify(captured.operations)));
      expect(kept.webhooks, 'webhook examples').to.deep.equal(JSON.parse(JSON.stringify(captured.webhooks)));
    });

    it('an event of every type was captured for the webhooks section', () => {
      expect(Object.keys(captured.webhooks).sort()).to.deep.equal([...EVENT_TYPES].sort());
    });
  });
