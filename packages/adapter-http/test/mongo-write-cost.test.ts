/**
 * What a keyed plan payment costs on mongo (docs/performance.md, issue 22): at most 10
 * commands sent to the server, rate limit and commit included, counted on the
 * wire-protocol test server's own command log (everything the process sends,
 * the rate limiter's connection included), with the token cache warm.
 *
 * The ten: the rate limit, the key's claim, the plan read and bumped in one
 * `findAndModify` (filtered by its owner), the payment's id and insert, the
 * balance debit, the event's id and insert (rendered in the authenticated
 * client's pinned version, no second read of the client), the kept response,
 * and `commitTransaction`.
 */
import { expect } from 'chai';
import { UPKEEP_COMMANDS as UPKEEP } from './support/mongo-upkeep.js';
import { mongoCostFixture } from './support/mongo-cost.js';

describe('mongo write cost: a plan payment with an Idempotency-Key (wire-protocol test server)', function () {
  this.timeout(20_000);
  const fixture = mongoCostFixture();

  it('costs at most 10 commands, rate limit and commit included, and records one payment, one debit and one event each', async () => {
    const { request, user, auth } = await fixture.open(`debtkit_write_cost_${process.pid}`);
    const server = fixture.server();

    // Warm the token cache, and make the plan to pay under (writes before the counting starts).
    expect((await request.get(`${user}/credit_scores`).set(auth)).status).to.equal(200);
    const plan = await request.post(`${user}/payment_plans`).set(auth).send({ strategy: 'avalanche', monthly_payment: 400_000 });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
    const accountId = (plan.body.account_ids as number[])[0];
    const before = await request.get(`${user}/accounts/${accountId}`).set(auth);

    const N = 3;
    const perRequest: string[][] = [];
    for (let i = 0; i < N; i++) {
      server.commands.length = 0;
      const res = await request
        .post(`${user}/payment_plans/${String(plan.body.id)}/payments`)
        .set(auth)
        .set('Idempotency-Key', `write-cost-${i}`)
        .send({ account_id: accountId, amount: 1_000 });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      perRequest.push(server.commands.filter((name) => !UPKEEP.has(name)));
    }
    for (const commands of perRequest) {
      expect(commands.length, `commands of one keyed payment: ${JSON.stringify(commands)}`).to.be.at.most(10);
      expect(commands).to.include('commitTransaction');
    }

    // Each request did its whole work: N payments, N debits, N events (rendered in the pinned version).
    const payments = await request.get(`${user}/payment_plans/${String(plan.body.id)}/payments?limit=100`).set(auth);
    expect(payments.body.payments).to.have.length(N);
    const after = await request.get(`${user}/accounts/${accountId}`).set(auth);
    expect(after.body.balance).to.equal(before.body.balance - N * 1_000);
    const events = await request.get('/api/events?type=plan_payment.created&limit=100').set(auth);
    expect(events.status, JSON.stringify(events.body)).to.equal(200);
    expect(events.body.data ?? events.body.events).to.have.length(N);
  });
});
