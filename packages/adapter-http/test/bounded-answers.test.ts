/**
 * Bounded answers (docs/decisions/tenancy.md) over HTTP, on the memory store and the mongo
 * store: the largest payment plan the size rule allows (50 accounts × 240
 * months = 12,000 account-months) is created and fetched, and every body that
 * carries it (the plan, its replay under an Idempotency-Key, its event, the
 * webhook payload of that event) stays under 1 MiB; one account more is 400
 * naming the limit in account-months, with nothing written (one month more:
 * core's plan-size test).
 * Lists of such plans and of their events end early, by size, with
 * `has_more: true`, and page on with `starting_after`.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { MAX_PLAN_BODY_BYTES, MAX_RESPONSE_BODY_BYTES, idOf, toEventView, type StorePorts } from '@debtkit/core';
import { aCreditScore, anAccount, cents } from '@debtkit/core/testing';
import { harness, type Harness } from './support/http-harness.js';
import { useMongoStores } from './support/mongo-stores.js';
import type { RouteDef } from '../src/http/app-context.js';
import { ResponseTooLarge, writeJson } from '../src/http/json-response.js';
import { boundedJsonText } from '../src/http/routes/paged-list.js';

/** Debts of $10,000 at 20% paying only $169.89 each take 240 months (core's plan-size test): 50 of them are 12,000 account-months. */
const LARGEST_ALLOWED_MINIMUM = 16_989;

type Json = Record<string, unknown>;

const bytes = (text: string): number => Buffer.byteLength(text);

const boundedAnswersSuite = (label: string, makeStore: () => Promise<StorePorts | undefined>): void => {
  describe(`bounded answers (${label})`, function () {
    this.timeout(60_000);
    let h: Harness;

    beforeEach(async () => {
      const store = await makeStore();
      h = await harness(store === undefined ? {} : { store });
    });
    afterEach(async () => {
      await h.store.close();
    });

    /** A user with `n` loans of $10,000 at 20% paying $169.89 a month, stored directly (linking is not what is tested). */
    const userWithLoans = async (n: number): Promise<number> => {
      const user = ((await h.request.post('/api/users').set(h.auth).send({ last_name: 'Largest' }).expect(201)).body as Json)[
        'id'
      ] as number;
      for (let i = 0; i < n; i++) await addLoan(user);
      return user;
    };
    const addLoan = async (user: number): Promise<void> => {
      const account = anAccount(idOf('user', user), {
        type: 'loan',
        subtype: 'personal_loan',
        balance: cents(1_000_000),
        apr: 20,
        minimum_payment: cents(LARGEST_ALLOWED_MINIMUM),
      });
      const stored = await h.store.accounts.create(account)();
      if (E.isLeft(stored)) throw new Error(stored.left.message);
    };
    const createPlan = (user: number, key?: string) => {
      const req = h.request.post(`/api/users/${user}/payment_plans`).set(h.auth);
      return (key === undefined ? req : req.set('Idempotency-Key', key)).send({
        strategy: 'minimum_only',
        monthly_payment: 51 * LARGEST_ALLOWED_MINIMUM,
      });
    };

    it('the largest plan allowed is created and fetched; it, its replay, its event, its webhook payload and lists of them stay under the bound; one account more is 400', async () => {
      const user = await userWithLoans(50);
      const created = await createPlan(user, 'largest-plan').expect(201);
      const plan = created.body as Json;
      expect((plan['order'] as unknown[]).length * (plan['months'] as number)).to.equal(12_000);
      expect(bytes(created.text)).to.be.within(900_000, MAX_PLAN_BODY_BYTES);
      const fetched = await h.request
        .get(`/api/users/${user}/payment_plans/${plan['id'] as number}`)
        .set(h.auth)
        .expect(200);
      expect(fetched.text).to.equal(created.text);
      const replayed = await createPlan(user, 'largest-plan').expect(201);
      expect(replayed.headers['idempotent-replayed']).to.equal('true');
      expect(replayed.text).to.equal(created.text);
      const [event] = ((await h.request.get('/api/events?type=payment_plan.created').set(h.auth).expect(200)).body as { events: Json[] })
        .events;
      const one = await h.request
        .get(`/api/events/${event!['id'] as number}`)
        .set(h.auth)
        .expect(200);
      expect(bytes(one.text)).to.be.within(900_000, MAX_RESPONSE_BODY_BYTES);
      // The webhook payload is the stored event's view, as the delivery worker serialises it.
      const stored = await h.store.events.get(h.client.id, idOf('event', event!['id'] as number), new Date('2026-03-15T12:00:00.000Z'))();
      if (E.isLeft(stored) || O.isNone(stored.right)) throw new Error('the event is not stored');
      expect(bytes(JSON.stringify(toEventView(stored.right.value)))).to.be.below(MAX_RESPONSE_BODY_BYTES);

      // Two such plans: each list ends after the first, by size, and pages on.
      const second = ((await createPlan(user).expect(201)).body as Json)['id'] as number;
      const page1 = await h.request.get(`/api/users/${user}/payment_plans?limit=100`).set(h.auth).expect(200);
      expect(bytes(page1.text)).to.be.at.most(MAX_RESPONSE_BODY_BYTES);
      expect(page1.body).to.deep.include({ has_more: true });
      expect((page1.body as { payment_plans: Json[] }).payment_plans.map((p) => p['id'])).to.deep.equal([plan['id']]);
      const page2 = await h.request
        .get(`/api/users/${user}/payment_plans?limit=100&starting_after=${plan['id'] as number}`)
        .set(h.auth)
        .expect(200);
      expect(page2.body).to.deep.include({ has_more: false });
      expect((page2.body as { payment_plans: Json[] }).payment_plans.map((p) => p['id'])).to.deep.equal([second]);
      const events = await h.request.get('/api/events?type=payment_plan.created&limit=100').set(h.auth).expect(200);
      expect(bytes(events.text)).to.be.at.most(MAX_RESPONSE_BODY_BYTES);
      expect(events.body).to.deep.include({ has_more: true });
      expect((events.body as { events: Json[] }).events.map((e) => e['id'])).to.deep.equal([event!['id']]);
      const rest = await h.request
        .get(`/api/events?type=payment_plan.created&limit=100&starting_after=${event!['id'] as number}`)
        .set(h.auth)
        .expect(200);
      expect(rest.body).to.deep.include({ has_more: false });
      expect((rest.body as { events: unknown[] }).events).to.have.length(1);

      // One account more: 51 × 240 = 12,240 account-months, refused; nothing written.
      await addLoan(user);
      const refused = await createPlan(user).expect(400);
      expect((refused.body as { error: Json }).error).to.include({
        code: 'validation_error',
        message:
          'The payment plan is too large: 51 accounts over 240 months is 12,240 account-months; the limit is 12,000 account-months (accounts × months of schedule)',
      });
      const plans = (await h.request.get(`/api/users/${user}/payment_plans?limit=1&starting_after=${second}`).set(h.auth).expect(200)).body;
      expect(plans).to.deep.equal({ payment_plans: [], has_more: false });
      expect(
        (
          (
            await h.request
              .get(`/api/events?type=payment_plan.created&starting_after=${event!['id'] as number}`)
              .set(h.auth)
              .expect(200)
          ).body as { events: unknown[] }
        ).events,
      ).to.have.length(1);
    });
  });
};

boundedAnswersSuite('memory store', async () => undefined);

describe('bounded answers: the credit score history (memory store)', () => {
  it('a history over 1 MiB ends early by size with has_more: true; starting_after the last id gives the older scores', async () => {
    const h = await harness();
    const user = ((await h.request.post('/api/users').set(h.auth).send({ last_name: 'Often' }).expect(201)).body as Json)['id'] as number;
    const one = JSON.stringify(aCreditScore(idOf('user', user))).length;
    const scores = Math.ceil((1.5 * MAX_RESPONSE_BODY_BYTES) / one);
    for (let i = 0; i < scores; i++) {
      const added = await h.store.creditScores.add(aCreditScore(idOf('user', user)))();
      if (E.isLeft(added)) throw new Error(added.left.message);
    }
    const seen: number[] = [];
    let path = `/api/users/${user}/credit_scores/history`;
    for (let page = 0; page < 5; page++) {
      const res = await h.request.get(path).set(h.auth).expect(200);
      expect(bytes(res.text)).to.be.at.most(MAX_RESPONSE_BODY_BYTES);
      const body = res.body as { credit_scores: Json[]; has_more: boolean };
      seen.push(...body.credit_scores.map((c) => c['id'] as number));
      if (!body.has_more) break;
      path = `/api/users/${user}/credit_scores/history?starting_after=${seen[seen.length - 1]!}`;
    }
    // Every score once, newest first, over more than one page.
    expect(seen).to.have.length(scores);
    expect(seen).to.deep.equal([...seen].sort((a, b) => b - a));
    expect(path).to.contain('starting_after');
  });
});

describe('bounded answers: the net under the rules', () => {
  it('a body over 1 MiB is never sent: 500 internal_server_error, logged with the request id', async () => {
    const huge: RouteDef = {
      method: 'GET',
      path: '/huge',
      auth: 'none',
      handler: async (ctx) => writeJson(ctx, 200, { text: 'x'.repeat(MAX_RESPONSE_BODY_BYTES) }),
    };
    const justUnder: RouteDef = {
      method: 'GET',
      path: '/just-under',
      auth: 'none',
      handler: async (ctx) => writeJson(ctx, 200, 'x'.repeat(MAX_RESPONSE_BODY_BYTES - 2)),
    };
    const h = await harness({ routes: [huge, justUnder] });
    const refused = await h.request.get('/huge').expect(500);
    expect((refused.body as { error: Json }).error).to.include({ code: 'internal_server_error' });
    expect(refused.headers).to.include({
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    const logged = h.log.lines.find((l) => l.msg === 'answer over the 1 MiB bound: answered 500');
    expect(JSON.stringify(logged))
      .to.contain('over the 1 MiB bound')
      .and.to.contain(refused.headers['x-request-id'] as string);
    expect(h.log.text, 'no stack is logged for the net').not.to.contain('"stack"');
    const sent = await h.request.get('/just-under').set('Accept-Encoding', 'identity').expect(200);
    expect(bytes(sent.text)).to.equal(MAX_RESPONSE_BODY_BYTES);
  });

  it('an error never grows with the request: 30,000 unknown fields are 400 with 20 details and the count, a few KB, the usual headers, no stack logged', async () => {
    const h = await harness();
    const body: Json = { last_name: 'Many' };
    for (let i = 0; i < 30_000; i++) body[`unknown_field_${i}`] = 1;
    const huge = 'n'.repeat(500_000);
    for (const sent of [body, { last_name: 'Long', [huge]: 1 }]) {
      const res = await h.request.post('/api/users').set(h.auth).send(sent).expect(400);
      expect(res.headers).to.include({
        'content-type': 'application/json; charset=utf-8',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
      const error = (res.body as { error: { code: string; message: string; details: Array<{ path: string; message: string }> } }).error;
      expect(error.code).to.equal('validation_error');
      expect(error.details.length).to.be.at.most(20);
      for (const d of error.details) expect(d.path.length + d.message.length).to.be.at.most(400);
      expect(bytes(res.text), 'a small multiple of a normal error').to.be.at.most(8_192);
    }
    const many = await h.request.post('/api/users').set(h.auth).send(body).expect(400);
    expect(many.body.error.message).to.contain('30000 problems; the first 20 are listed');
    expect(many.body.error.details).to.have.length(20);
    // Under an Idempotency-Key too.
    const keyed = await h.request.post('/api/users').set(h.auth).set('Idempotency-Key', 'many-fields').send(body).expect(400);
    expect(keyed.body.error.details).to.have.length(20);
    expect(h.log.text).not.to.contain('"stack"');
  });

  it('a list ends before the item that would pass the bound, whatever the items; a first item alone over it is refused', () => {
    const item = (id: number, size: number) => ({ id, text: 'é'.repeat(size) });
    const fits = boundedJsonText({ things: [item(1, 300), item(2, 300), item(3, 300)], has_more: false }, 1_500);
    expect(JSON.parse(fits)).to.deep.equal({ things: [item(1, 300), item(2, 300)], has_more: true });
    expect(Buffer.byteLength(fits)).to.be.at.most(1_500);
    expect(boundedJsonText({ things: [item(1, 10)], has_more: false }, 1_500)).to.equal(
      JSON.stringify({ things: [item(1, 10)], has_more: false }),
    );
    expect(() => boundedJsonText({ things: [item(1, 1_000)], has_more: false }, 1_500)).to.throw(ResponseTooLarge);
  });
});

describe('bounded answers on the mongo store', () => {
  const mongo = useMongoStores('bounded');
  boundedAnswersSuite(mongo.label, mongo.connect);
});
