/**
 * The user-scoped GETs that read through the owning user in one store read
 * (core's shared/owned-read.ts), over HTTP on both stores: the same 404s as
 * when the user was read on its own first, code and message, for a missing
 * user, another client's user, a missing resource, and a user whose delete
 * has begun (or failed part-way) while what it owns is still stored.
 */
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type { StorePorts } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { useMongoStores } from './support/mongo-stores.js';
import { resourceHarness, type ResourceHarness } from './support/resource-app.js';

const ADMIN = { Authorization: 'Bearer admin-secret-token-for-tests' };

const ownedReadSuite = (name: string, makeStore: () => Promise<StorePorts>): void => {
  describe(`user-scoped GETs through the owning user (${name})`, () => {
    let h: ResourceHarness;
    beforeEach(async () => {
      h = await resourceHarness(await makeStore());
    });
    afterEach(async () => {
      await h.store.close();
    });

    const expectNotFound = async (path: string, message: string, auth = h.auth): Promise<void> => {
      const res = await h.request.get(path).set(auth);
      expect(res.status, `GET ${path}: ${JSON.stringify(res.body)}`).to.equal(404);
      expect(res.body.error).to.include({ code: 'not_found', message });
    };

    it("serves the user's latest score, history, one account, the account list, one plan and the plan list", async () => {
      const user = `/api/users/${h.demo.user.id}`;
      const latest = await h.request.get(`${user}/credit_scores`).set(h.auth).expect(200);
      const history = await h.request.get(`${user}/credit_scores/history`).set(h.auth).expect(200);
      expect(history.body.credit_scores[0]).to.deep.equal(latest.body);
      const first = h.demo.accounts[0];
      if (first === undefined) throw new Error('the demo seed links no account');
      const one = await h.request.get(`${user}/accounts/${first.id}`).set(h.auth).expect(200);
      expect(one.body).to.include({ id: first.id, name: first.name });
      const page = await h.request.get(`${user}/accounts?limit=2`).set(h.auth).expect(200);
      expect(page.body.accounts.map((a: { id: number }) => a.id)).to.deep.equal(h.demo.accounts.slice(0, 2).map((a) => a.id));
      expect(page.body.has_more).to.equal(h.demo.accounts.length > 2);
      const plan = await h.request
        .post(`${user}/payment_plans`)
        .set(h.auth)
        .send({ strategy: 'avalanche', monthly_payment: 400_000 })
        .expect(201);
      expect((await h.request.get(`${user}/payment_plans/${plan.body.id}`).set(h.auth).expect(200)).body).to.deep.equal(plan.body);
      const plans = await h.request.get(`${user}/payment_plans`).set(h.auth).expect(200);
      expect(plans.body).to.deep.equal({ payment_plans: [plan.body], has_more: false });
    });

    it('a missing user: 404 "User not found" on each of them', async () => {
      for (const path of [
        'credit_scores',
        'credit_scores/history',
        'accounts/1',
        'accounts',
        'payment_plans/1',
        'payment_plans',
        'payment_plans/1/payments',
      ]) {
        await expectNotFound(`/api/users/987654/${path}`, 'User not found');
      }
    });

    it("another client's user: the same 404 as a missing user, though it has a score and accounts", async () => {
      const created = await h.request.post('/admin/clients').set(ADMIN).send({ name: 'Other fintech' }).expect(201);
      const other = { Authorization: `Bearer ${created.body.token}` };
      const first = h.demo.accounts[0];
      if (first === undefined) throw new Error('the demo seed links no account');
      for (const path of ['credit_scores', 'credit_scores/history', `accounts/${first.id}`, 'accounts']) {
        await expectNotFound(`/api/users/${h.demo.user.id}/${path}`, 'User not found', other);
      }
    });

    it('the user is there but the resource is not: 404 naming the resource', async () => {
      const created = await h.request.post('/api/users').set(h.auth).send({ last_name: 'Okafor' }).expect(201);
      const user = `/api/users/${created.body.id}`;
      await expectNotFound(`${user}/credit_scores`, 'Credit score not found');
      expect((await h.request.get(`${user}/credit_scores/history`).set(h.auth).expect(200)).body).to.deep.equal({
        credit_scores: [],
        has_more: false,
      });
      expect((await h.request.get(`${user}/accounts`).set(h.auth).expect(200)).body).to.deep.equal({ accounts: [], has_more: false });
      // The demo user's account, asked for through another user of the same client.
      await expectNotFound(`${user}/accounts/${h.demo.accounts[0]?.id ?? 1}`, 'Account not found');
      await expectNotFound(`/api/users/${h.demo.user.id}/accounts/987654`, 'Account not found');
      await expectNotFound(`/api/users/${h.demo.user.id}/payment_plans/987654`, 'Payment plan not found');
      await expectNotFound(`/api/users/${h.demo.user.id}/payment_plans/987654/payments`, 'Payment plan not found');
      expect((await h.request.get(`${user}/payment_plans`).set(h.auth).expect(200)).body).to.deep.equal({
        payment_plans: [],
        has_more: false,
      });
    });

    it('a plan whose record is gone (its payments left in the store): 404 "Payment plan not found", and not listed', async () => {
      const user = `/api/users/${h.demo.user.id}`;
      const plan = await h.request
        .post(`${user}/payment_plans`)
        .set(h.auth)
        .send({ strategy: 'snowball', monthly_payment: 400_000 })
        .expect(201);
      const removed = await h.store.paymentPlans.delete(h.demo.user.id, plan.body.id)();
      expect(removed._tag === 'Right' && removed.right, 'removed').to.equal(true);
      await expectNotFound(`${user}/payment_plans/${plan.body.id}`, 'Payment plan not found');
      await expectNotFound(`${user}/payment_plans/${plan.body.id}/payments`, 'Payment plan not found');
      expect((await h.request.get(`${user}/payment_plans`).set(h.auth).expect(200)).body).to.deep.equal({
        payment_plans: [],
        has_more: false,
      });
    });

    it('a user whose record is gone (its records left in the store): 404 "User not found", not its records', async () => {
      const removed = await h.store.users.delete(h.demo.user.client_id, h.demo.user.id)();
      expect(removed._tag === 'Right' && removed.right, 'removed').to.equal(true);
      const first = h.demo.accounts[0];
      if (first === undefined) throw new Error('the demo seed links no account');
      for (const path of ['credit_scores', 'credit_scores/history', `accounts/${first.id}`, 'accounts']) {
        await expectNotFound(`/api/users/${h.demo.user.id}/${path}`, 'User not found');
      }
      await expectNotFound(`/api/users/${h.demo.user.id}`, 'User not found');
    });
  });
};

ownedReadSuite('memory store', async () => createMemoryStore());

describe('on mongo (the wire-protocol test server, or MONGODB_URL)', () => {
  const mongo = useMongoStores('owned_reads');
  ownedReadSuite(`mongo store, ${mongo.label}`, mongo.connect);
});
