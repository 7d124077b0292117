/**
 * One change, one transaction, over HTTP (docs/decisions/idempotency.md, docs/decisions/transactions.md), on the memory
 * store: for every use case that writes (support/transaction-scenarios.ts),
 * the request whose n-th store call inside its transaction fails once answers
 * 503 and leaves nothing (every table compared, record by record; the key
 * free); the same request retried (with its Idempotency-Key when it takes one)
 * then has exactly one effect and its events, and sent again it is replayed or
 * changes nothing more. A domain error (4xx) changes nothing and is kept.
 */
import { expect } from 'chai';
import { MemoryDatabase, createMemoryStore } from '@debtkit/adapter-memory';
import { aUser, anAccount, cents, expectRight, faultInjectingStore } from '@debtkit/core/testing';
import { ADMIN_TOKEN, harness } from './support/http-harness.js';
import { SCENARIOS, checkFault, memoryStoreState, probe, supertestApi } from './support/transaction-scenarios.js';

describe('a change and its Idempotency-Key commit together (memory store)', () => {
  const setUp = async () => {
    const store = faultInjectingStore(createMemoryStore());
    const h = await harness({ store });
    const user = await expectRight(store.users.create(aUser(h.client.id)));
    const account = await expectRight(store.accounts.create(anAccount(user.id, { balance: cents(1_000_000) })));
    const userPath = `/api/users/${user.id}`;
    const plan = await h.request
      .post(`${userPath}/payment_plans`)
      .set(h.auth)
      .send({ strategy: 'avalanche', monthly_payment: 50_000 })
      .expect(201);
    const paymentsPath = `${userPath}/payment_plans/${plan.body.id}/payments`;
    const observe = async () => ({
      balance: (await h.request.get(`${userPath}/accounts/${account.id}`).set(h.auth).expect(200)).body.balance as number,
      payments: (await h.request.get(paymentsPath).set(h.auth).expect(200)).body.payments.length as number,
      events: (await h.request.get('/api/events').query({ type: 'plan_payment.created', limit: 100 }).set(h.auth).expect(200)).body.events
        .length as number,
    });
    return { store, h, account, paymentsPath, observe };
  };

  describe('every use case that writes (support/transaction-scenarios.ts)', () => {
    for (const scenario of SCENARIOS) {
      it(`${scenario.name}: each store call failing once answers 503 with nothing committed; the retry has exactly one effect`, async () => {
        const db = new MemoryDatabase();
        const store = faultInjectingStore(createMemoryStore(db));
        const h = await harness({ store });
        const api = supertestApi(h.request, { client: h.token, admin: ADMIN_TOKEN });
        const stateOf = () => memoryStoreState(db);
        // The probe: how many store calls the change makes inside its transaction, and what it changes.
        const effect = await probe({ scenario, api, stateOf, events: 'events', arm: () => store.reset() });
        const calls = store.callsSinceArmed;
        expect(calls, 'store calls in the transaction').to.be.greaterThan(0);
        const outcomes: string[] = [];
        for (let n = 1; n <= calls; n++) {
          const where = `${scenario.name}: call ${n} of ${calls} failing`;
          const outcome = await checkFault({
            scenario,
            probe: effect,
            where,
            a: api,
            b: api,
            stateOf,
            arm: () => store.failNthCall(n),
            disarm: () => store.reset(),
          });
          outcomes.push(`${where}: ${outcome}`);
        }
        // Every call is the change's: each one failing failed the request.
        expect(
          outcomes.filter((o) => o.endsWith('succeeded')),
          JSON.stringify(outcomes),
        ).to.deep.equal([]);
      });
    }
  });

  it('a domain error (4xx) under a key aborts what the change wrote before it and is kept: the retry replays it', async () => {
    const { store, h, account, paymentsPath, observe } = await setUp();
    const { payments, events } = await observe();
    // The account leaves the store behind the plan's back: the payment is written, then the debit finds no account (404).
    await expectRight(store.accounts.deleteAllForUser(account.user_id));
    const refused = await h.request
      .post(paymentsPath)
      .set(h.auth)
      .set('Idempotency-Key', 'gone')
      .send({ account_id: account.id, amount: 100 })
      .expect(404);
    expect(refused.body.error.message).to.equal('Account not found');
    const listed = await h.request.get(paymentsPath).set(h.auth).expect(200);
    expect(listed.body.payments, 'the payment written before the 404 is rolled back').to.have.length(payments);
    expect(
      (await h.request.get('/api/events').query({ type: 'plan_payment.created', limit: 100 }).set(h.auth).expect(200)).body.events,
    ).to.have.length(events);
    const again = await h.request
      .post(paymentsPath)
      .set(h.auth)
      .set('Idempotency-Key', 'gone')
      .send({ account_id: account.id, amount: 100 })
      .expect(404);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.text).to.equal(refused.text);
  });

  it("the kept response is written in the change's transaction: failing to keep it is a 503 with nothing committed", async () => {
    const { store, h, account, paymentsPath, observe } = await setUp();
    store.reset();
    await h.request
      .post(paymentsPath)
      .set(h.auth)
      .set('Idempotency-Key', 'probe')
      .send({ account_id: account.id, amount: 100 })
      .expect(201);
    const last = store.callsSinceArmed;
    const before = await observe();
    // The last call of the transaction is the key's completion.
    store.failNthCall(last);
    await h.request
      .post(paymentsPath)
      .set(h.auth)
      .set('Idempotency-Key', 'kept-fails')
      .send({ account_id: account.id, amount: 100 })
      .expect(503);
    expect(await observe()).to.deep.equal(before);
    store.reset();
    await h.request
      .post(paymentsPath)
      .set(h.auth)
      .set('Idempotency-Key', 'kept-fails')
      .send({ account_id: account.id, amount: 100 })
      .expect(201);
    expect((await observe()).payments).to.equal(before.payments + 1);
  });

  it('a wrong one-time code under an Idempotency-Key is still counted: the fifth, each with its own key, resets the flow', async () => {
    const { store, h } = await setUp();
    const user = await expectRight(store.users.create(aUser(h.client.id)));
    const auth = `/api/users/${user.id}/bureau/auth`;
    await h.request.post(`${auth}/invoke`).set(h.auth).send({ device_ip: '203.0.113.7' }).expect(200);
    await h.request.post(`${auth}/consent`).set(h.auth).send({ accepted: true }).expect(200);
    for (let i = 1; i <= 4; i++) {
      const wrong = await h.request
        .post(`${auth}/validate_otp`)
        .set(h.auth)
        .set('Idempotency-Key', `otp-${i}`)
        .send({ code: '111111' })
        .expect(400);
      expect(wrong.body.error.message).to.equal('Wrong one-time code');
    }
    // The 400 was kept with the count it committed: the same key replays it and counts nothing more.
    const replayed = await h.request
      .post(`${auth}/validate_otp`)
      .set(h.auth)
      .set('Idempotency-Key', 'otp-4')
      .send({ code: '111111' })
      .expect(400);
    expect(replayed.headers['idempotent-replayed']).to.equal('true');
    expect((await h.request.get(auth).set(h.auth).expect(200)).body.step, 'four wrong codes: still awaiting the code').to.equal(
      'validate_otp',
    );
    const fifth = await h.request
      .post(`${auth}/validate_otp`)
      .set(h.auth)
      .set('Idempotency-Key', 'otp-5')
      .send({ code: '111111' })
      .expect(400);
    expect(fifth.body.error.message).to.match(/reset/);
    expect((await h.request.get(auth).set(h.auth).expect(200)).body).to.deep.equal({ status: 'initial', step: null });
  });

  it('a wrong one-time code without an Idempotency-Key is counted too: the fifth resets the flow', async () => {
    const { store, h } = await setUp();
    const user = await expectRight(store.users.create(aUser(h.client.id)));
    const auth = `/api/users/${user.id}/bureau/auth`;
    await h.request.post(`${auth}/invoke`).set(h.auth).send({ device_ip: '203.0.113.7' }).expect(200);
    await h.request.post(`${auth}/consent`).set(h.auth).send({ accepted: true }).expect(200);
    for (let i = 1; i <= 4; i++) {
      const wrong = await h.request.post(`${auth}/validate_otp`).set(h.auth).send({ code: '111111' }).expect(400);
      expect(wrong.body.error.message).to.equal('Wrong one-time code');
    }
    expect((await h.request.get(auth).set(h.auth).expect(200)).body.step).to.equal('validate_otp');
    const fifth = await h.request.post(`${auth}/validate_otp`).set(h.auth).send({ code: '111111' }).expect(400);
    expect(fifth.body.error.message).to.match(/reset/);
    expect((await h.request.get(auth).set(h.auth).expect(200)).body).to.deep.equal({ status: 'initial', step: null });
  });
});
