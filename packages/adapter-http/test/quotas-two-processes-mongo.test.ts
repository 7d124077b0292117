/**
 * Quotas across two API processes (docs/decisions/tenancy.md, docs/decisions/transactions.md): two `debtkit serve`
 * children on one wire-protocol test server, the quotas small
 * (DEBTKIT_QUOTA_*), and creations racing for the last places sent to both at
 * once. Each creation counts in the transaction that writes its owner (the
 * user, or the client record), so whichever process runs it, the owner never
 * holds more than the quota; the next creation is 409 `quota_exceeded`.
 */
import { expect } from 'chai';
import { generateToken } from '../src/http/token-issuer.js';
import { startCli, useCliOnWireServer, type CliProcess } from './support/cli-process.js';

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

describe('quotas across two API processes (mongo, child processes)', function () {
  this.timeout(60_000);
  const wire = useCliOnWireServer();
  const running: CliProcess[] = [];
  let token: string;
  const call = async (process: number, method: string, path: string, body?: object): Promise<Answer> => {
    const res = await fetch(`${running[process]!.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  before(async () => {
    token = generateToken('sandbox');
    const env = {
      DEBTKIT_STORE: 'mongo',
      MONGODB_URL: `${wire().url}debtkit_quotas_two_${process.pid}`,
      DEBTKIT_BOOTSTRAP_TOKEN: token,
      DEBTKIT_RATE_LIMIT: '0',
      DEBTKIT_SEED: 'true',
      DEBTKIT_QUOTA_ACCOUNTS_PER_USER: '3',
      DEBTKIT_QUOTA_WEBHOOK_ENDPOINTS_PER_CLIENT: '2',
    };
    running.push(...(await Promise.all([startCli(env), startCli(env)])));
  });
  after(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
  });

  /** `n` creations sent at once, alternating between the two processes, then one at a time until `full`; the statuses. */
  const race = async (
    n: number,
    create: (process: number) => Promise<Answer>,
    count: () => Promise<number>,
    quota: number,
  ): Promise<number> => {
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => create(i % 2)));
    for (const a of answers) {
      expect([201, 409], JSON.stringify(a.body)).to.include(a.status);
      if (a.status === 409) expect(['quota_exceeded', 'conflict']).to.include((a.body['error'] as { code: string }).code);
    }
    const afterRace = await count();
    expect(afterRace, 'records after the race').to.be.at.most(quota);
    for (let i = 0; i < 20 && (await count()) < quota; i++) await create(i % 2);
    return afterRace;
  };

  it('12 account links for the last places, on both processes at once: never more than DEBTKIT_QUOTA_ACCOUNTS_PER_USER', async () => {
    const user = await call(0, 'POST', '/api/users', { last_name: 'Racer' });
    expect(user.status).to.equal(201);
    const path = `/api/users/${user.body['id'] as number}/accounts`;
    const link = (p: number) => call(p, 'POST', path, { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 1_000 });
    const count = async () => ((await call(1, 'GET', `${path}?limit=100`)).body['accounts'] as unknown[]).length;
    await race(12, link, count, 3);
    expect(await count()).to.equal(3);
    const over = await link(1);
    expect(over.status).to.equal(409);
    expect(over.body['error']).to.include({ code: 'quota_exceeded', message: 'Quota reached: at most 3 accounts per user' });
    expect(await count()).to.equal(3);
  });

  it('12 webhook endpoint registrations on both processes at once: never more than DEBTKIT_QUOTA_WEBHOOK_ENDPOINTS_PER_CLIENT', async () => {
    const register = (p: number) => call(p, 'POST', '/api/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks' });
    const count = async () => ((await call(0, 'GET', '/api/webhook_endpoints?limit=100')).body['webhook_endpoints'] as unknown[]).length;
    await race(12, register, count, 2);
    expect(await count()).to.equal(2);
    const over = await register(0);
    expect(over.status).to.equal(409);
    expect(over.body['error']).to.include({ code: 'quota_exceeded', message: 'Quota reached: at most 2 webhook endpoints per client' });
  });
});
