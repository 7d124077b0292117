/**
 * The keyed path down and back up once (docs/decisions/transaction-owner.md): under an
 * Idempotency-Key the route hands core the use case's `Change`, and the answer
 * that is sent and kept is made by ONE renderer, core's `AnswerRenderer` port,
 * bound at composition (`HTTP.AnswerRenderer`, answer-renderer.ts). Over HTTP
 * (`app.callback()`), on the memory store and on the mongo store through the
 * real driver (the wire-protocol test server, or MONGODB_URL), one app per store.
 */
import { expect } from 'chai';
import pino from 'pino';
import supertest from 'supertest';
import * as E from 'fp-ts/lib/Either.js';
import { ContainerModule } from 'inversify';
import { PORTS, versioning, type AnswerRenderer, type StorePorts, type StoredResponse } from '@debtkit/core';
import { createMemoryStore, seedDemo } from '@debtkit/adapter-memory';
import { compose } from '../src/main/composition.js';
import { HTTP, resolve } from '../src/main/container.js';
import { answerRenderer } from '../src/http/answer-renderer.js';
import type { AnswerForm } from '../src/http/pipeline/keyed-answer.js';
import { generateToken } from '../src/http/token-issuer.js';
import { useMongoStores } from './support/mongo-stores.js';
import { SUITE_API_VERSION, fixedClock } from './support/resource-app.js';
import { offlineResolveHost } from './support/webhook-harness.js';
import { CapturedLog } from './support/http-harness.js';
import { expectResponseMatchesOpenApi } from './support/openapi-assert.js';

/** The production renderer, watched: how often it was made and called, what it made; armed, it throws once (a bug). */
class WatchedRenderer {
  built = 0;
  readonly rendered: StoredResponse[] = [];
  failNext = false;

  module(): ContainerModule {
    return new ContainerModule(({ rebind }) => {
      rebind(HTTP.AnswerRenderer).toResolvedValue(
        (renderCache): AnswerRenderer<AnswerForm> => {
          this.built += 1;
          const real = answerRenderer({ renderCache });
          return {
            render: (answer, form, apiVersion) => {
              if (this.failNext) {
                this.failNext = false;
                throw new Error('the renderer failed');
              }
              const made = real.render(answer, form, apiVersion);
              this.rendered.push(made);
              return made;
            },
          };
        },
        [HTTP.RenderCache],
      );
    });
  }
}

/** Headers that differ between any two answers (the request's id, the time); the rest of a replay is the first answer's. */
const PER_REQUEST = new Set(['x-request-id', 'date', 'idempotent-replayed']);
const lasting = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_REQUEST.has(name)));

/** A body with its ids and request id written the same, to compare two answers about two resources of one kind. */
const sameShape = (text: string): string => text.replace(/"(id|request_id)":("[^"]*"|\d+)/g, '"$1":0');

function keyedAnswerSuite(name: string, makeStore: () => Promise<StorePorts>): void {
  describe(`the keyed path, one renderer bound at composition (${name})`, function () {
    this.timeout(30_000);
    const watched = new WatchedRenderer();
    const log = new CapturedLog();
    let store: StorePorts;
    let request: ReturnType<typeof supertest>;
    let auth: { Authorization: string };
    let payments: string;
    let accountId: number;
    let keys = 0;
    const key = (): string => `keyed-${(keys += 1)}`;
    const paymentCount = async (): Promise<number> =>
      ((await request.get(payments).query({ limit: 100 }).set(auth).expect(200)).body as { payments: unknown[] }).payments.length;

    before(async () => {
      store = await makeStore();
      const clock = fixedClock();
      const { app, container } = await compose({
        config: { adminToken: 'admin-secret-token-for-tests', rateLimit: 0, authFailureLimit: 0 },
        clock,
        logger: pino({ level: 'info' }, log),
        webhooks: { resolveHost: offlineResolveHost },
        store,
        modules: [watched.module()],
      });
      const token = generateToken('sandbox');
      const seeded = await seedDemo(
        { ...store, clock, tokenHasher: resolve(container, PORTS.TokenHasher) },
        { token, apiVersion: SUITE_API_VERSION },
      )();
      if (E.isLeft(seeded)) throw new Error(`seed failed: ${seeded.left.message}`);
      request = supertest(app.callback());
      auth = { Authorization: `Bearer ${token}` };
      const user = seeded.right.user.id;
      const plan = await request
        .post(`/api/users/${user}/payment_plans`)
        .set(auth)
        .send({ strategy: 'avalanche', monthly_payment: 500_000 })
        .expect(201);
      const { id, account_ids: accounts } = plan.body as { id: number; account_ids: number[] };
      payments = `/api/users/${user}/payment_plans/${id}/payments`;
      accountId = accounts[0]!;
    });
    after(async () => {
      await store.close();
    });

    it('the keyed payment is answered with what the bound renderer made, once per request; its replay is those bytes, status and headers', async () => {
      expect(watched.built, 'made once, at composition').to.equal(1);
      const made = watched.rendered.length;
      const sent: supertest.Response[] = [];
      for (const amount of [100, 200, 300]) {
        sent.push(await request.post(payments).set(auth).set('Idempotency-Key', key()).send({ account_id: accountId, amount }).expect(201));
      }
      // One call per request into the renderer the composition bound: a renderer made per request would not be this one.
      expect(watched.rendered.length - made).to.equal(3);
      sent.forEach((res, i) => {
        const kept = watched.rendered[made + i]!;
        expect([res.status, res.text, res.headers['api-version']]).to.deep.equal([kept.status, kept.body, kept.apiVersion]);
        expect(res.headers['idempotent-replayed']).to.equal(undefined);
        expectResponseMatchesOpenApi(res);
      });
      const first = sent[0]!;
      const again = await request
        .post(payments)
        .set(auth)
        .set('Idempotency-Key', `keyed-${keys - 2}`)
        .send({ account_id: accountId, amount: 100 })
        .expect(201);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      expect(again.text).to.equal(first.text);
      expect(lasting(again.headers as Record<string, string>)).to.deep.equal(lasting(first.headers as Record<string, string>));
      expect(watched.rendered.length - made, 'a replay renders nothing').to.equal(3);
      expect(watched.built).to.equal(1);
    });

    it('with or without a key, the same answer in each API version: a payment, a computation, ping, a 404 and a 400', async () => {
      const cases: ReadonlyArray<{ path: string; body: object; status: number }> = [
        { path: payments, body: { account_id: accountId, amount: 50 }, status: 201 },
        { path: '/api/debt_calculator', body: { balance: 500_000, apr: 19.99, monthly_payment: 25_000 }, status: 200 },
        { path: '/api/ping', body: { payload: 'same' }, status: 200 },
        { path: payments.replace(/payment_plans\/\d+/, 'payment_plans/999999'), body: { account_id: accountId, amount: 50 }, status: 404 },
        { path: payments, body: { account_id: accountId, amount: -5 }, status: 400 },
      ];
      for (const version of [SUITE_API_VERSION, versioning.latest]) {
        for (const c of cases) {
          const plain = await request.post(c.path).set(auth).set('API-Version', version).send(c.body);
          const keyed = await request.post(c.path).set(auth).set('API-Version', version).set('Idempotency-Key', key()).send(c.body);
          const label = `${version} POST ${c.path}`;
          expect([plain.status, keyed.status], label).to.deep.equal([c.status, c.status]);
          expect(sameShape(keyed.text), label).to.equal(sameShape(plain.text));
          expect(lasting(keyed.headers as Record<string, string>), label).to.deep.equal(lasting(plain.headers as Record<string, string>));
          expect(keyed.headers['api-version'], label).to.equal(version);
        }
      }
    });

    it('a request that does not decode is answered under its key too: 400, kept, replayed byte for byte', async () => {
      const bad = key();
      const first = await request
        .post(payments)
        .set(auth)
        .set('Idempotency-Key', bad)
        .send({ account_id: accountId, amount: 'ten' })
        .expect(400);
      expect(first.body.error.details[0].path).to.equal('amount');
      const again = await request
        .post(payments)
        .set(auth)
        .set('Idempotency-Key', bad)
        .send({ account_id: accountId, amount: 'ten' })
        .expect(400);
      expect([again.text, again.headers['idempotent-replayed']]).to.deep.equal([first.text, 'true']);
    });

    it('a renderer that throws (a bug) aborts the change it renders in: 500, nothing committed, the key free; the retry pays exactly once', async () => {
      const before = await paymentCount();
      const retried = key();
      watched.failNext = true;
      const failed = await request
        .post(payments)
        .set(auth)
        .set('Idempotency-Key', retried)
        .send({ account_id: accountId, amount: 700 })
        .expect(500);
      expect(failed.body.error.code).to.equal('internal_server_error');
      expect(failed.text).not.to.contain('the renderer failed');
      // A bug: logged with its stack and the request id, never answered with it.
      const logged = await log.next((l) => l.msg === 'unhandled error' && l['request_id'] === failed.headers['x-request-id']);
      expect(JSON.stringify(logged['err'])).to.contain('the renderer failed');
      expect(await paymentCount(), 'nothing committed').to.equal(before);
      const retry = await request
        .post(payments)
        .set(auth)
        .set('Idempotency-Key', retried)
        .send({ account_id: accountId, amount: 700 })
        .expect(201);
      expect(retry.headers['idempotent-replayed']).to.equal(undefined);
      const replay = await request
        .post(payments)
        .set(auth)
        .set('Idempotency-Key', retried)
        .send({ account_id: accountId, amount: 700 })
        .expect(201);
      expect([replay.text, replay.headers['idempotent-replayed']]).to.deep.equal([retry.text, 'true']);
      expect(await paymentCount()).to.equal(before + 1);
    });
  });
}

keyedAnswerSuite('memory store', async () => createMemoryStore());

describe('the keyed path on the mongo store', () => {
  const mongo = useMongoStores('keyed');
  keyedAnswerSuite(`mongo store, ${mongo.label}`, mongo.connect);
});
