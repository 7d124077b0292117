/**
 * Hot records (docs/decisions/transactions.md, docs/performance.md; issue 32): 100 concurrent payments with
 * Idempotency-Keys on one account all answer 201, with exact money, on the
 * memory store, on mongo from one process, and on mongo from two API
 * processes (the built CLI) on one wire-protocol test server. Within a process
 * the payments take the user's turn one after the other; across processes a
 * loser backs off with jitter until it wins.
 *
 * Also: a change that keeps losing until DEBTKIT_WRITE_CONFLICT_DEADLINE_MS
 * answers 409 `conflict` with `Retry-After`, commits nothing and frees its key;
 * an unreachable store answers 503 at once (the deadline is for conflicts, not
 * outages); and through a store freeze, 20 clients that retry each payment with
 * its key until 201 end with every payment committed exactly once.
 *
 * The time budget: the target is 10 s for the 100 (docs/performance.md); the stores here
 * get a 60 s deadline so that a loaded test machine slows the run instead of
 * failing it, and each run prints how long the 100 took.
 */
import net from 'node:net';
import { expect } from 'chai';
import supertest from 'supertest';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { mapUnitOfWork, writeConflict, type StorePorts } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { connectMongoStore } from '@debtkit/adapter-mongo';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { generateToken } from '../src/http/token-issuer.js';
import { resourceHarness, type ResourceHarness } from './support/resource-app.js';
import { startCli, useCliOnWireServer, type CliProcess } from './support/cli-process.js';

const TEST_DEADLINE_MS = 60_000;
const json = { 'Content-Type': 'application/json' };

interface Answer {
  readonly status: number;
  readonly body: { id?: number; balance?: number; error?: { code: string } };
  readonly headers: Record<string, string | undefined>;
}
/** Send a request to the API: over supertest (`app.callback()`) or to a listening process. */
type Send = (method: 'GET' | 'POST', path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>;

const viaSupertest =
  (h: ResourceHarness): Send =>
  async (method, path, body, headers = {}) => {
    const req = method === 'GET' ? h.request.get(path) : h.request.post(path).send(body as object);
    const res = await req.set(h.auth).set(headers);
    return { status: res.status, body: res.body as Answer['body'], headers: res.headers as Record<string, string> };
  };

const viaFetch =
  (url: string, token: string): Send =>
  async (method, path, body, headers = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...json, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Answer['body'], headers: Object.fromEntries(res.headers) };
  };

/** A loan of 10,000.00 under the first user, and a plan over it: where the payments go. */
const aLoanWithPlan = async (send: Send): Promise<{ accountPath: string; paymentsPath: string; accountId: number }> => {
  const users = (await send('GET', '/api/users')).body as { users?: Array<{ id: number }> };
  const userId = users.users![0]!.id;
  const account = await send(
    'POST',
    `/api/users/${userId}/accounts`,
    {
      name: 'Busy loan',
      type: 'loan',
      subtype: 'personal_loan',
      balance: 1_000_000,
      apr: 10,
      minimum_payment: 1_000,
      // The request as 2024-07-01 shapes it, whatever the client's pin (a process's bootstrap client is pinned to the latest).
    },
    { 'API-Version': '2024-07-01' },
  );
  expect(account.status, JSON.stringify(account.body)).to.equal(201);
  const accountId = account.body.id!;
  const plan = await send('POST', `/api/users/${userId}/payment_plans`, {
    strategy: 'avalanche',
    monthly_payment: 50_000,
    account_ids: [accountId],
  });
  expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
  return {
    accountPath: `/api/users/${userId}/accounts/${accountId}`,
    paymentsPath: `/api/users/${userId}/payment_plans/${plan.body.id}/payments`,
    accountId,
  };
};

/** 100 concurrent keyed payments of 1.00 (spread over `senders`): all 201, the balance down by exactly 100.00, 100 records. */
const hundredPayments = async (senders: ReadonlyArray<Send>, what: string): Promise<void> => {
  const [first] = senders;
  const { accountPath, paymentsPath, accountId } = await aLoanWithPlan(first!);
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      senders[i % senders.length]!(
        'POST',
        paymentsPath,
        { account_id: accountId, amount: 100 },
        { 'Idempotency-Key': `hot-${what.replace(/\W+/g, '-')}-${i}` },
      ),
    ),
  );
  const ms = Math.round(performance.now() - started);
  console.log(`      (${what}: 100 keyed payments answered in ${ms} ms)`);
  const statuses = answers.reduce<Record<number, number>>((n, a) => ({ ...n, [a.status]: (n[a.status] ?? 0) + 1 }), {});
  expect(statuses, JSON.stringify(answers.find((a) => a.status !== 201)?.body)).to.deep.equal({ 201: 100 });
  expect((await first!('GET', accountPath)).body.balance).to.equal(1_000_000 - 100 * 100);
  const listed = (await first!('GET', `${paymentsPath}?limit=100`)).body as { payments?: Array<{ id: number }> };
  expect(listed.payments!.map((p) => p.id).sort((a, b) => a - b)).to.deep.equal(answers.map((a) => a.body.id!).sort((a, b) => a - b));
};

describe('hot records: 100 concurrent keyed payments on one account all commit (docs/decisions/transactions.md, docs/performance.md)', function () {
  this.timeout(120_000);

  it('memory store: all 201, exact money', async () => {
    const h = await resourceHarness(createMemoryStore(undefined, { deadlineMs: TEST_DEADLINE_MS }));
    await hundredPayments([viaSupertest(h)], 'memory');
  });

  describe('mongo (wire-protocol test server)', () => {
    let server: WireServer;
    let store: StorePorts | undefined;
    before(async () => {
      server = await startWireServer();
    });
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });
    after(async () => {
      await server.stop();
    });

    it('one process: all 201, exact money', async () => {
      store = await connectMongoStore(server.url, { dbName: `debtkit_hot_${process.pid}`, writeConflictDeadlineMs: TEST_DEADLINE_MS });
      await hundredPayments([viaSupertest(await resourceHarness(store))], 'mongo, one process');
    });

    it('an unreachable store answers a keyed payment 503 at once, not after the conflict deadline', async () => {
      store = await connectMongoStore(server.url, {
        dbName: `debtkit_hot_outage_${process.pid}`,
        serverSelectionTimeoutMS: 500,
        maxTimeMS: 1000,
        writeConflictDeadlineMs: TEST_DEADLINE_MS,
      });
      const send = viaSupertest(await resourceHarness(store));
      const { paymentsPath, accountId } = await aLoanWithPlan(send);
      await server.stop();
      try {
        const started = performance.now();
        const answers = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            send('POST', paymentsPath, { account_id: accountId, amount: 100 }, { 'Idempotency-Key': `outage-${i}` }),
          ),
        );
        const ms = performance.now() - started;
        expect(answers.map((a) => a.status)).to.deep.equal([503, 503, 503, 503, 503]);
        expect(answers[0]!.headers['retry-after']).to.be.a('string');
        expect(ms, 'ms until all five answered').to.be.below(5000);
      } finally {
        await server.restart();
      }
    });
  });

  describe('mongo, two API processes on one wire-protocol test server', () => {
    const wire = useCliOnWireServer();
    const running: CliProcess[] = [];
    after(async () => {
      await Promise.all(running.splice(0).map((p) => p.stop()));
    });

    it('all 201, exact money', async () => {
      const token = generateToken('sandbox');
      const env = {
        DEBTKIT_STORE: 'mongo',
        MONGODB_URL: `${wire().url}debtkit_hot_two_${process.pid}`,
        DEBTKIT_BOOTSTRAP_TOKEN: token,
        DEBTKIT_RATE_LIMIT: '0',
        DEBTKIT_WRITE_CONFLICT_DEADLINE_MS: String(TEST_DEADLINE_MS),
      };
      running.push(...(await Promise.all([startCli(env), startCli(env)])));
      await hundredPayments(
        running.map((p) => viaFetch(p.url, token)),
        'mongo, two processes',
      );
    });
  });
});

describe('hot records: what a change that keeps losing answers', () => {
  it('409 conflict with Retry-After once the deadline has passed; nothing committed; the key is free, and its retry commits once', async () => {
    let interfere = true;
    const memory = createMemoryStore(undefined, { deadlineMs: 50 });
    // Every write of the account's balance loses, as if another process always wrote it first, while `interfere` holds.
    const losing: StorePorts = {
      ...memory,
      unitOfWork: mapUnitOfWork(memory.unitOfWork, (ports) => ({
        ...ports,
        accounts: new Proxy(ports.accounts, {
          get: (target, key, receiver) =>
            key === 'applyPayment' && interfere ? () => TE.left(writeConflict()) : (Reflect.get(target, key, receiver) as unknown),
        }),
      })),
    };
    const h = await resourceHarness(losing);
    const send = viaSupertest(h);
    const { accountPath, paymentsPath, accountId } = await aLoanWithPlan(send);
    const before = (await send('GET', accountPath)).body.balance;
    const key = { 'Idempotency-Key': 'lost-until-the-deadline' };
    const lost = await send('POST', paymentsPath, { account_id: accountId, amount: 100 }, key);
    expect(lost.status).to.equal(409);
    expect(lost.body.error?.code).to.equal('conflict');
    expect(lost.headers['retry-after']).to.equal('1');
    expect((await send('GET', accountPath)).body.balance).to.equal(before);
    expect(((await send('GET', paymentsPath)).body as { payments?: unknown[] }).payments).to.deep.equal([]);
    interfere = false;
    const retried = await send('POST', paymentsPath, { account_id: accountId, amount: 100 }, key);
    expect(retried.status).to.equal(201);
    expect((await send('GET', paymentsPath, undefined, {})).body)
      .to.have.property('payments')
      .with.length(1);
    const replayed = await send('POST', paymentsPath, { account_id: accountId, amount: 100 }, key);
    expect(replayed.status).to.equal(201);
    expect(replayed.headers['idempotent-replayed']).to.equal('true');
    expect((await send('GET', accountPath)).body.balance).to.equal(before! - 100);
  });
});

/**
 * A TCP proxy in front of the wire server that can freeze: while frozen it
 * forwards nothing either way (the store, as its clients see it, stops
 * answering); thawed, it forwards what waited.
 */
const freezableProxy = async (target: number): Promise<{ port: number; freeze(): void; thaw(): void; close(): Promise<void> }> => {
  const sockets = new Set<net.Socket>();
  let frozen = false;
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        inbound.destroy();
        outbound.destroy();
      });
      if (frozen) s.pause();
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => {
      frozen = true;
      for (const s of sockets) s.pause();
    },
    thaw: () => {
      frozen = false;
      for (const s of sockets) s.resume();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

describe('hot records: through a store freeze, every payment retried with its key commits exactly once (mongo)', function () {
  this.timeout(60_000);

  it('20 clients, each retrying its payment with its key on 409/429/503 until 201, while the store freezes for 2.5 s', async () => {
    const server = await startWireServer();
    const proxy = await freezableProxy(server.port);
    const store = await connectMongoStore(`mongodb://127.0.0.1:${proxy.port}/?directConnection=true`, {
      dbName: `debtkit_hot_freeze_${process.pid}`,
      serverSelectionTimeoutMS: 500,
      maxTimeMS: 500,
      writeConflictDeadlineMs: TEST_DEADLINE_MS,
    });
    try {
      // A real clock and a 1 s claim timeout: a key whose release the freeze swallowed is free again soon (docs/decisions/idempotency.md).
      const h = await resourceHarness(store, { now: () => new Date() }, { idempotencyClaimTimeoutSeconds: 1 });
      const send = viaSupertest(h);
      const { accountPath, paymentsPath, accountId } = await aLoanWithPlan(send);
      const seen: number[] = [];
      const pay = async (i: number): Promise<Answer> => {
        for (let attempt = 0; attempt < 200; attempt++) {
          const answer = await send('POST', paymentsPath, { account_id: accountId, amount: 100 + i }, { 'Idempotency-Key': `freeze-${i}` });
          seen.push(answer.status);
          if (answer.status === 201) return answer;
          expect([409, 429, 503], JSON.stringify(answer.body)).to.include(answer.status);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`payment ${i} never committed`);
      };
      // The store is frozen when the payments start, so every one meets it whatever the
      // machine's speed (a fixed delay before freezing let a fast machine finish first).
      proxy.freeze();
      const frozenAt = Date.now();
      const payments = Array.from({ length: 20 }, (_, i) => pay(i));
      await new Promise((resolve) => setTimeout(resolve, 2500));
      proxy.thaw();
      const answers = await Promise.all(payments);
      // The freeze was felt: as refusals the clients retried (409/429/503), or as payments held until the thaw.
      const refused = seen.filter((s) => s !== 201).length;
      expect(refused > 0 || Date.now() - frozenAt >= 2_000, `the freeze was felt: ${JSON.stringify(seen)}`).to.equal(true);
      const ids = answers.map((a) => a.body.id!);
      expect(new Set(ids).size).to.equal(20);
      const listed = (await send('GET', `${paymentsPath}?limit=100`)).body as { payments?: Array<{ id: number; amount: number }> };
      expect(listed.payments!.map((p) => p.id).sort((a, b) => a - b)).to.deep.equal([...ids].sort((a, b) => a - b));
      const total = Array.from({ length: 20 }, (_, i) => 100 + i).reduce((a, b) => a + b, 0);
      expect((await send('GET', accountPath)).body.balance).to.equal(1_000_000 - total);
    } finally {
      await store.close();
      await proxy.close();
      await server.stop();
    }
  });
});
