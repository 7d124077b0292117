/**
 * Two advances of ONE user at once (docs/sandbox-over-time.md), over HTTP, on both
 * stores. The first to record its target wins; the other finds it recorded and
 * continues to the same target. Each month is its own transaction that checks
 * the user's clock first, so every month is applied exactly once, whichever
 * request applies it: the user ends where ONE advance takes it (the same
 * balances as a twin user advanced alone), with one score and one
 * `account.updated` per account a month, and both answers name the target.
 * (Without the month's check of the clock, both requests apply every month.)
 */
import { expect } from 'chai';
import { createMemoryStore } from '@debtkit/adapter-memory';
import type { StorePorts } from '@debtkit/core';
import { interleavingStore } from '@debtkit/core/testing';
import { resourceHarness, type ResourceHarness, TODAY } from './support/resource-app.js';
import { useMongoStores } from './support/mongo-stores.js';

type Json = Record<string, any>;

const LOANS = [
  { balance: 250_000, apr: 19.99, minimum: 7_500 },
  { balance: 40_000, apr: 24.99, minimum: 2_500 },
];

const storesUnderTest: ReadonlyArray<{ readonly name: string; readonly make: (mongo: () => Promise<StorePorts>) => Promise<StorePorts> }> =
  [
    // Forced interleaving: the memory store does no I/O, so without it one request would run to its end before the other began.
    { name: 'memory store (interleaved)', make: async () => interleavingStore(createMemoryStore()) },
    { name: 'mongo store (wire-protocol test server)', make: (mongo) => mongo() },
  ];

describe('two sandbox advances of one user at once: each month applied exactly once, both answer the one target', function () {
  this.timeout(60_000);
  const mongo = useMongoStores('sandbox_advance_concurrency');

  for (const kind of storesUnderTest) {
    describe(kind.name, () => {
      let h: ResourceHarness;
      before(async () => {
        h = await resourceHarness(await kind.make(mongo.connect));
      });

      const newUser = async (lastName: string): Promise<string> => {
        const user = await h.request.post('/api/users').set(h.auth).send({ last_name: lastName });
        expect(user.status, JSON.stringify(user.body)).to.equal(201);
        const path = `/api/users/${user.body.id}`;
        for (const [i, spec] of LOANS.entries()) {
          const a = await h.request
            .post(`${path}/accounts`)
            .set(h.auth)
            .send({
              name: `Loan ${i}`,
              type: 'loan',
              subtype: 'personal_loan',
              balance: spec.balance,
              apr: spec.apr,
              minimum_payment: spec.minimum,
              opened_at: '2020-01-01',
              payments_history: ['1'],
            });
          expect(a.status, JSON.stringify(a.body)).to.equal(201);
        }
        return path;
      };
      const advance = (path: string, key: string) =>
        h.request.post(`${path}/sandbox/advance`).set(h.auth).set('Idempotency-Key', key).send({ months: 3, payments: 'minimum' });
      const balancesOf = async (path: string): Promise<number[]> =>
        ((await h.request.get(`${path}/accounts?limit=100`).set(h.auth)).body.accounts as Json[]).map((a) => a.balance);
      const eventsOf = async (path: string, type: string): Promise<Json[]> =>
        (await h.request.get(`/api/events?limit=100&type=${type}&user_id=${path.split('/').at(-1)}`).set(h.auth)).body.events as Json[];

      it('the two answers split the three months between them, none twice; the user ends as a twin advanced alone', async () => {
        const twin = await newUser('Twin');
        const alone = await advance(twin, 'twin-advance');
        expect(alone.status, JSON.stringify(alone.body)).to.equal(200);

        const path = await newUser('Busy');
        const [a, b] = await Promise.all([advance(path, 'advance-a'), advance(path, 'advance-b')]);
        expect(a.status, JSON.stringify(a.body)).to.equal(200);
        expect(b.status, JSON.stringify(b.body)).to.equal(200);
        const target = alone.body.sandbox_date as string;
        expect(a.body.sandbox_date).to.equal(target);
        expect(b.body.sandbox_date).to.equal(target);
        const months = [...(a.body.months as Json[]), ...(b.body.months as Json[])].map((m) => m.date as string).sort();
        expect(months).to.deep.equal((alone.body.months as Json[]).map((m) => m.date));

        expect((await h.request.get(path).set(h.auth)).body.sandbox_date).to.equal(target);
        expect(await balancesOf(path)).to.deep.equal(await balancesOf(twin));
        const scores = await eventsOf(path, 'credit_score.created');
        expect(scores.map((e) => e.data.object.date).sort()).to.deep.equal(months);
        expect(await eventsOf(path, 'account.updated')).to.have.length(3 * LOANS.length);

        // The recorded advance is finished: a next advance starts from the target.
        const next = await h.request.post(`${path}/sandbox/advance`).set(h.auth).send({ months: 1, payments: 'minimum' });
        expect(next.status, JSON.stringify(next.body)).to.equal(200);
        expect(next.body.months.map((m: Json) => m.date)).to.have.length(1);
        expect(next.body.sandbox_date > target).to.equal(true);
        expect(TODAY < target).to.equal(true);
      });
    });
  }
});
