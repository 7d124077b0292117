/**
 * Two API versions, end to end (docs/decisions/versioning.md, issue 34), on both stores: a
 * 2024-07-01 client's unchanged requests get today's answers byte for byte
 * (against bodies captured before the 2026-11-26 release, in
 * test/fixtures/answers-2024-07-01.json, captured at cca38c9); the latest
 * version's plan has no schedule and the schedule is paged at its own
 * endpoint; the link request takes the Account's names and an old client's
 * errors name its own fields; a keyed POST is replayed in the version of its
 * first answer; `GET /api/versions` and `GET /openapi.json?version=`. Every
 * response is checked against its own version's OpenAPI document.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { versioning, type StorePorts } from '@debtkit/core';
import { resourceHarness, type ResourceHarness } from './support/resource-app.js';
import { expectResponseMatchesOpenApi } from './support/openapi-assert.js';
import { useMongoStores } from './support/mongo-stores.js';

type Answer = { readonly status: number; readonly text: string };
const FIXTURE = fileURLToPath(
  new URL(`${import.meta.url.includes('/dist/test/') ? '../../' : '../'}test/fixtures/answers-2024-07-01.json`, import.meta.url),
);
const captured = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, Answer>;
const OLD = { 'API-Version': '2024-07-01' };
const NEW = { 'API-Version': '2026-11-26' };
const DEMO = '/api/users/1';
const card = { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 120000 };
const withoutRequestId = (text: string): string => {
  const body = JSON.parse(text) as { error: Record<string, unknown> };
  return JSON.stringify({ ...body, error: { ...body.error, request_id: 'X' } });
};

/**
 * The keys round 5 added to answers (docs/decisions/payoff-and-outlook.md: the Account's statement terms, a plan's
 * warnings), removed after checking that they are absent values (null, or an
 * empty list): with them gone, an answer is the captured one byte for byte.
 */
const ADDED_KEYS: Readonly<Record<string, null | readonly never[]>> = {
  interest_method: null,
  minimum_payment_formula: null,
  apr_segments: null,
  escrow_payment: null,
  accrued_interest: null,
  warnings: [],
};
const withoutAddedKeys = (answer: Answer): Answer => {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (Object.hasOwn(ADDED_KEYS, key)) expect(v, key).to.deep.equal(ADDED_KEYS[key]);
      else out[key] = strip(v);
    }
    return out;
  };
  return { status: answer.status, text: JSON.stringify(strip(JSON.parse(answer.text))) };
};

const versionSuite = (name: string, makeStore: () => Promise<StorePorts | undefined>): void => {
  describe(`API versions end to end (${name})`, function () {
    this.timeout(20_000);
    let h: ResourceHarness;
    let store: StorePorts | undefined;
    beforeEach(async () => {
      store = await makeStore();
      // The demo as it was at the capture: user 1 alone (the second demo user's accounts would take the ids the capture shows).
      h = await resourceHarness(store, undefined, {}, versioning.latest, false);
    });
    afterEach(async function () {
      await store?.close();
      if (this.currentTest?.state !== 'passed') return;
      // Every answer against the document of the version it was given in.
      for (const res of h.responses) expectResponseMatchesOpenApi(res);
    });

    const send = async (method: 'get' | 'post', url: string, headers: Record<string, string>, body?: object): Promise<Answer> => {
      let req = h.request[method](url).set(h.auth).set(headers);
      if (body !== undefined) req = req.send(body);
      const res = await req;
      return { status: res.status, text: res.text };
    };

    it("answers a 2024-07-01 client's unchanged requests byte for byte as before the release", async () => {
      // The very requests, in the very order, of the capture.
      // Compared with the keys added since (ADDED_KEYS) removed.
      const create = await send('post', `${DEMO}/payment_plans`, OLD, { strategy: 'avalanche', monthly_payment: 500000 });
      expect(withoutAddedKeys(create), 'POST plan').to.deep.equal(captured['create']);
      const id = (JSON.parse(create.text) as { id: number }).id;
      expect(withoutAddedKeys(await send('get', `${DEMO}/payment_plans/${id}`, OLD)), 'GET plan').to.deep.equal(captured['get']);
      expect(withoutAddedKeys(await send('get', `${DEMO}/payment_plans`, OLD)), 'GET plans').to.deep.equal(captured['list']);
      expect(
        withoutAddedKeys(await send('post', `${DEMO}/accounts`, OLD, { ...card, apr: 19.99, minimum_payment: 3500, mask: '1234' })),
        'POST account with apr',
      ).to.deep.equal(captured['account']);
      const bad = await send('post', `${DEMO}/accounts`, OLD, { ...card, apr: 190, minimum_payment: -1 });
      expect({ ...bad, text: withoutRequestId(bad.text) }, 'its errors name apr and minimum_payment').to.deep.equal(captured['accountBad']);
      const unknown = await send('post', `${DEMO}/accounts`, OLD, { ...card, institution_apr: 3 });
      expect({ ...unknown, text: withoutRequestId(unknown.text) }, 'the new name is unknown to it').to.deep.equal(
        captured['accountUnknown'],
      );
      expect(withoutAddedKeys(await send('get', `${DEMO}/accounts`, OLD)), 'GET accounts').to.deep.equal(captured['accountList']);
    });

    it('serves the latest plan without its schedule, and the schedule paged by month in both versions', async () => {
      const plan = (
        await h.request.post(`${DEMO}/payment_plans`).set(h.auth).send({ strategy: 'avalanche', monthly_payment: 500000 }).expect(201)
      ).body;
      expect(plan).to.not.have.property('schedule');
      const path = `${DEMO}/payment_plans/${plan.id}`;
      expect((await h.request.get(path).set(h.auth).expect(200)).body).to.deep.equal(plan);
      expect((await h.request.get(`${DEMO}/payment_plans`).set(h.auth).expect(200)).body.payment_plans[0]).to.not.have.property('schedule');
      const full = (await h.request.get(path).set(h.auth).set(OLD).expect(200)).body.schedule as Array<{ month: number }>;
      expect(full.length).to.equal(plan.months);

      const months: unknown[] = [];
      let after = 0;
      for (;;) {
        const page = (await h.request.get(`${path}/schedule?limit=7&starting_after=${after}`).set(h.auth).expect(200)).body;
        expect(page.months.length).to.be.at.most(7);
        months.push(...page.months);
        if (!page.has_more) break;
        after = page.months[page.months.length - 1].month;
      }
      expect(months, 'the pages, joined, are the 2024-07-01 schedule').to.deep.equal(full);
      const first = await h.request.get(`${path}/schedule`).set(h.auth).set(OLD).expect(200);
      expect(first.headers['api-version']).to.equal('2024-07-01');
      expect(first.body.months).to.deep.equal(full.slice(0, 12));
      expect(first.body.has_more).to.equal(full.length > 12);

      for (const query of ['limit=0', 'limit=121', 'starting_after=-1', 'starting_after=601', 'starting_after=x', 'page=2']) {
        const res = await h.request.get(`${path}/schedule?${query}`).set(h.auth).expect(400);
        expect(res.body.error.code, query).to.equal('validation_error');
      }
      await h.request.get(`${DEMO}/payment_plans/999999/schedule`).set(h.auth).expect(404);
      const other = (await h.request.post('/api/users').set(h.auth).send({ last_name: 'Other', first_name: 'O' }).expect(201)).body.id;
      const res = await h.request.get(`/api/users/${other}/payment_plans/${plan.id}/schedule`).set(h.auth).expect(404);
      expect(res.body.error.code).to.equal('not_found');
    });

    it("links an account with the institution's terms by the Account's own names in the latest version", async () => {
      const res = await h.request
        .post(`${DEMO}/accounts`)
        .set(h.auth)
        .send({ ...card, institution_apr: 19.99, institution_minimum_payment: 3500 })
        .expect(201);
      expect(res.body).to.include({
        institution_apr: 19.99,
        institution_minimum_payment: 3500,
        effective_apr: 19.99,
        effective_minimum_payment: 3500,
      });
      const old = (await h.request.get(`${DEMO}/accounts/${res.body.id}`).set(h.auth).set(OLD).expect(200)).body;
      expect(old).to.not.have.any.keys('institution_apr', 'institution_minimum_payment');
      expect(old).to.include({ effective_apr: 19.99, effective_minimum_payment: 3500 });
      const stale = await h.request
        .post(`${DEMO}/accounts`)
        .set(h.auth)
        .send({ ...card, apr: 19.99 })
        .expect(400);
      expect(stale.body.error.details).to.deep.equal([{ path: 'apr', message: 'is not a known field' }]);
    });

    it('replays a keyed POST in the version of its first answer', async () => {
      const key = { 'Idempotency-Key': 'versions-replay-1' };
      const body = { strategy: 'snowball', monthly_payment: 400000 };
      const first = await h.request.post(`${DEMO}/payment_plans`).set(h.auth).set(OLD).set(key).send(body).expect(201);
      expect(first.body).to.have.property('schedule');
      const again = await h.request.post(`${DEMO}/payment_plans`).set(h.auth).set(NEW).set(key).send(body).expect(201);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      expect(again.headers['api-version']).to.equal('2024-07-01');
      expect(again.text).to.equal(first.text);
    });

    it("lists the versions newest first with their changes, and the caller's pin", async () => {
      const res = await h.request.get('/api/versions').set(h.auth).expect(200);
      expect(res.body.latest).to.equal('2026-11-26');
      expect(res.body.pinned).to.equal('2026-11-26');
      expect(res.body.versions.map((v: { version: string }) => v.version)).to.deep.equal(['2026-11-26', '2024-07-01']);
      expect(res.body.versions[0].release_date).to.equal('2026-11-26');
      expect(res.body.versions[0].changes.map((c: { description: string }) => c.description).join(' '))
        .to.contain('schedule')
        .and.contain('institution_apr');
      expect(res.body.versions[1].changes).to.deep.equal([]);
      await h.request.get('/api/versions').expect(401);
    });
  });
};

versionSuite('memory', async () => undefined);
describe('API versions on the mongo store', () => {
  const mongo = useMongoStores('versions');
  versionSuite(mongo.label, mongo.connect);
});

describe('GET /openapi.json?version=', function () {
  this.timeout(20_000);
  let h: ResourceHarness;
  before(async () => {
    h = await resourceHarness(undefined, undefined, {}, versioning.latest);
  });

  it("serves each version's own document: schemas, request names, examples", async () => {
    const latest = (await h.request.get('/openapi.json').expect(200)).body;
    const same = (await h.request.get('/openapi.json?version=2026-11-26').expect(200)).body;
    const old = (await h.request.get('/openapi.json?version=2024-07-01').expect(200)).body;
    expect(same).to.deep.equal(latest);
    expect(latest.components.schemas.PaymentPlan.properties).to.not.have.property('schedule');
    expect(old.components.schemas.PaymentPlan.properties).to.have.property('schedule');
    expect(latest.components.schemas.LinkAccountBody.properties)
      .to.have.all.keys(...Object.keys(latest.components.schemas.LinkAccountBody.properties))
      .and.include.keys('institution_apr');
    expect(latest.components.schemas.LinkAccountBody.properties).to.not.have.property('apr');
    expect(old.components.schemas.LinkAccountBody.properties).to.include.keys('apr', 'minimum_payment');
    expect(old.components.schemas.LinkAccountBody.properties).to.not.have.property('institution_apr');
    expect(old.components.schemas.Account.properties).to.not.have.property('institution_apr');
    expect(old.info.description).to.contain('describes version 2024-07-01');
    const example = (doc: typeof old) =>
      doc.paths['/api/users/{id}/payment_plans/{payment_plan_id}'].get.responses['200'].content['application/json'].example;
    expect(example(old)).to.have.property('schedule');
    expect(example(latest)).to.not.have.property('schedule');
    expect(old.paths['/api/users/{id}/payment_plans/{payment_plan_id}/schedule'], 'the schedule endpoint is in both').to.not.equal(
      undefined,
    );
  });

  it('answers 400 unsupported_version for an unknown version, and keeps an ETag and 304 per version', async () => {
    for (const version of ['2025-01-01', 'latest', '']) {
      const res = await h.request.get(`/openapi.json?version=${version}`).expect(400);
      expect(res.body.error.code).to.equal('unsupported_version');
      expect(res.body.error.message).to.contain('2024-07-01, 2026-11-26');
    }
    const a = await h.request.get('/openapi.json?version=2024-07-01').set('Accept-Encoding', 'gzip').expect(200);
    const b = await h.request.get('/openapi.json').set('Accept-Encoding', 'gzip').expect(200);
    expect(a.headers['content-encoding']).to.equal('gzip');
    expect(a.headers['etag']).to.be.a('string').and.not.equal(b.headers['etag']);
    await h.request
      .get('/openapi.json?version=2024-07-01')
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', a.headers['etag'] as string)
      .expect(304);
    await h.request
      .get('/openapi.json')
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', a.headers['etag'] as string)
      .expect(200);
  });
});
