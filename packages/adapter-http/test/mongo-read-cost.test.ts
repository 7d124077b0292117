/**
 * What a read request costs on mongo (docs/performance.md), counted with the driver's
 * command monitoring (`monitorCommands`) on the store's client, and on the
 * wire-protocol test server's own command log for everything the process
 * sends (the rate-limit counters use a connection of their own).
 *
 * With the token cache warm, a user-scoped GET asks the store nothing about
 * the token or the client, and costs one command for the resource: an
 * `aggregate` on `users` that checks this client owns the user and `$lookup`s
 * what is asked for (core's shared/owned-read.ts), whether it is found or
 * which of the two is missing. The per-client rate limit on mongo adds one
 * command on the counters collection.
 */
import { expect } from 'chai';
import type { CommandStartedEvent } from 'mongodb';
import { UPKEEP_COMMANDS as UPKEEP } from './support/mongo-upkeep.js';
import { mongoCostFixture } from './support/mongo-cost.js';

describe('mongo read cost with the token cache warm (driver command monitoring, wire-protocol test server)', function () {
  this.timeout(20_000);
  const fixture = mongoCostFixture();

  it('user-scoped GETs: no token or client lookup, one aggregate on users per request (hit or miss); the mongo rate limit adds one', async () => {
    const { ctx, request, seeded, user, auth } = await fixture.open(`debtkit_read_cost_${process.pid}`, '?monitorCommands=true');
    const server = fixture.server();
    const account = seeded.accounts[0];
    if (account === undefined) throw new Error('the demo seed links no account');

    const seen: Array<{ name: string; collection: unknown }> = [];
    ctx.db.client.on('commandStarted', (e: CommandStartedEvent) => {
      if (!UPKEEP.has(e.commandName)) seen.push({ name: e.commandName, collection: e.command[e.commandName] });
    });

    // The first request looks the token up (and fills the cache).
    expect((await request.get(`${user}/credit_scores`).set(auth)).status).to.equal(200);
    const cold = seen.splice(0);
    expect(cold.map((c) => c.collection)).to.include.members(['tokens', 'clients']);
    // A plan to read (a write: before the counting starts).
    const plan = await request.post(`${user}/payment_plans`).set(auth).send({ strategy: 'avalanche', monthly_payment: 400_000 });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);

    const reads: ReadonlyArray<{ path: string; status: number; code?: string; message?: string }> = [
      { path: `${user}/credit_scores`, status: 200 },
      { path: `${user}/credit_scores/history`, status: 200 },
      { path: `${user}/accounts/${account.id}`, status: 200 },
      { path: `${user}/accounts?limit=2`, status: 200 },
      { path: `${user}/payment_plans/${String(plan.body.id)}`, status: 200 },
      { path: `${user}/payment_plans`, status: 200 },
      // Misses cost the same one command: the aggregate tells a missing user from a missing resource.
      { path: `${user}/accounts/999999`, status: 404, code: 'not_found', message: 'Account not found' },
      { path: '/api/users/999999/credit_scores', status: 404, code: 'not_found', message: 'User not found' },
      { path: `${user}/payment_plans/999999`, status: 404, code: 'not_found', message: 'Payment plan not found' },
    ];
    const N = 3;
    for (const read of reads) {
      seen.length = 0;
      server.commands.length = 0;
      for (let i = 0; i < N; i++) {
        const res = await request.get(read.path).set(auth);
        expect(res.status, `${read.path}: ${JSON.stringify(res.body)}`).to.equal(read.status);
        if (read.code !== undefined) expect(res.body.error).to.include({ code: read.code, message: read.message });
      }
      const warm = seen.splice(0);
      const all = server.commands.filter((name) => !UPKEEP.has(name));

      // The store's client: one aggregate on users per request; nothing for the token or the client.
      expect(warm, `store commands of ${N} × GET ${read.path}`).to.deep.equal(
        Array.from({ length: N }, () => ({ name: 'aggregate', collection: 'users' })),
      );
      // Everything the process sent, the rate limiter's connection included: one more per request.
      expect(all.length / N, `all commands per GET ${read.path}: ${JSON.stringify(all.slice(0, 3))}`).to.equal(2);
    }
  });
});
