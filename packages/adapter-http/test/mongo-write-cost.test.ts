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
 *
 * On an account with rate segments or accrued interest (docs/decisions/payoff-and-outlook.md, docs/performance.md) the
 * payment is allocated (Regulation Z §1026.53): the debit's command answers the
 * account unchanged and one compare-and-set writes the allocation: 11.
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

  it("costs at most 11 commands on a card with rate segments (the allocation's compare-and-set), and keeps balance the segments' sum", async () => {
    const { request, user, auth } = await fixture.open(`debtkit_write_cost_segments_${process.pid}`);
    const server = fixture.server();
    expect((await request.get(`${user}/credit_scores`).set(auth)).status).to.equal(200);
    const card = await request
      .post(`${user}/accounts`)
      .set(auth)
      .send({
        name: 'Rewards Card',
        type: 'loan',
        subtype: 'credit_card_loan',
        balance: 1_000_000,
        minimum_payment_formula: { floor: 2_500, terms: [{ percent_of_balance: 1, plus_interest: true }] },
        apr_segments: [
          { kind: 'purchase', balance: 600_000, apr: 24 },
          { kind: 'balance_transfer', balance: 400_000, apr: 0, promo_ends_on: '2031-01-01', go_to_apr: 19.99 },
        ],
      });
    expect(card.status, JSON.stringify(card.body)).to.equal(201);
    const plan = await request
      .post(`${user}/payment_plans`)
      .set(auth)
      .send({ strategy: 'avalanche', monthly_payment: 400_000, account_ids: [card.body.id] });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);

    const N = 3;
    const perRequest: string[][] = [];
    for (let i = 0; i < N; i++) {
      server.commands.length = 0;
      const res = await request
        .post(`${user}/payment_plans/${String(plan.body.id)}/payments`)
        .set(auth)
        .set('Idempotency-Key', `write-cost-segments-${i}`)
        .send({ account_id: card.body.id, amount: 30_000 });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      perRequest.push(server.commands.filter((name) => !UPKEEP.has(name)));
    }
    for (const commands of perRequest) {
      expect(commands.length, `commands of one keyed payment on a card with segments: ${JSON.stringify(commands)}`).to.be.at.most(11);
      expect(commands).to.include('commitTransaction');
    }
    const after = (await request.get(`${user}/accounts/${String(card.body.id)}`).set(auth)).body;
    expect(after.balance).to.equal(1_000_000 - N * 30_000);
    expect(after.apr_segments.reduce((sum: number, s: { balance: number }) => sum + s.balance, 0)).to.equal(after.balance);
    // The minimum part to the 0% transfer, the excess to the 24% purchases (§1026.53(a)).
    expect(after.apr_segments[0].balance).to.be.lessThan(600_000);
    expect(after.apr_segments[1].balance).to.be.lessThan(400_000);
  });
});
