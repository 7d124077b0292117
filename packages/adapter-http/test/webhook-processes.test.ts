/**
 * Webhooks across real API processes (`debtkit serve` children) on one
 * MongoDB (the wire-protocol test server, or MONGODB_URL): the outbox keeps an
 * event whose process died before delivering it, and two processes sharing
 * the store deliver each event exactly once to a healthy receiver.
 * Needs the build, like server-process.test.ts.
 */
import { expect } from 'chai';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { Receiver } from './support/webhook-harness.js';
import { CLI, cliIsBuilt, startCli, type CliProcess } from './support/cli-process.js';

const ADMIN = 'webhook-process-admin-token-0123';

type Api = CliProcess;

const serve = (mongodbUrl: string, logLevel = 'error'): Promise<Api> =>
  startCli({
    DEBTKIT_STORE: 'mongo',
    MONGODB_URL: mongodbUrl,
    DEBTKIT_SEED: 'false',
    DEBTKIT_ADMIN_TOKEN: ADMIN,
    DEBTKIT_WEBHOOK_RETRY_SECONDS: '1,1,1,1,1,1,1,1,1,1',
    LOG_LEVEL: logLevel,
  });

type Json = Record<string, any>;

const call = async (api: Api, method: string, path: string, auth: string, body?: unknown): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${auth}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Json) };
};

/** Ask until `done` holds (each answer comes from the server; no fixed sleeps decide the outcome). */
const until = async <A>(what: string, ask: () => Promise<A>, done: (a: A) => boolean, ms = 15_000): Promise<A> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const a = await ask();
    if (done(a)) return a;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(a)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('webhooks across API processes on one MongoDB', function () {
  this.timeout(60_000);
  let wire: WireServer | undefined;
  let base = '';
  let n = 0;
  const running: Api[] = [];
  const receivers: Receiver[] = [];
  const realUrl = process.env['MONGODB_URL'];

  before(async function () {
    if (!cliIsBuilt()) {
      console.log(`    (skipped: ${CLI} is not built; run \`npx tsc -b\` first)`);
      this.skip();
    }
    if (realUrl === undefined || realUrl === '') {
      wire = await startWireServer();
      base = wire.url;
    } else base = realUrl.replace(/\/[^/?]*(\?.*)?$/, '/');
  });
  after(async () => {
    await wire?.stop();
  });
  afterEach(async () => {
    for (const api of running.splice(0)) {
      api.child.kill('SIGTERM');
      await api.exited;
    }
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
  });

  const database = (): string => `${base}debtkit_webhooks_${process.pid}_${Date.now().toString(36)}_${++n}`;
  const start = async (url: string, logLevel?: string): Promise<Api> => {
    const api = await serve(url, logLevel);
    running.push(api);
    return api;
  };
  const setUp = async (api: Api, receiverUrl: string): Promise<{ token: string; userId: number; endpointId: number }> => {
    const client = await call(api, 'POST', '/admin/clients', ADMIN, { name: 'Acme' });
    expect(client.status).to.equal(201);
    const token = client.body['token'] as string;
    const hook = await call(api, 'POST', '/api/webhook_endpoints', token, { url: receiverUrl });
    expect(hook.status).to.equal(201);
    const user = await call(api, 'POST', '/api/users', token, { last_name: 'Doe' });
    expect(user.status).to.equal(201);
    return { token, userId: user.body['id'] as number, endpointId: hook.body['id'] as number };
  };
  const link = (api: Api, token: string, userId: number, name: string) =>
    call(api, 'POST', `/api/users/${userId}/accounts`, token, { name, type: 'loan', subtype: 'auto_loan', balance: 100 });

  it('an event whose process is killed before delivering it is delivered by the next process (outbox)', async () => {
    let firstProcessAlive = true;
    // While the first process lives the receiver refuses, so nothing counts as delivered before the kill.
    const receiver = await new Receiver(() => (firstProcessAlive ? 503 : 200)).start();
    receivers.push(receiver);
    const url = database();
    const a = await start(url);
    const { token, userId, endpointId } = await setUp(a, receiver.url);
    expect((await link(a, token, userId, 'Car')).status).to.equal(201);
    a.child.kill('SIGKILL');
    await a.exited;
    running.splice(running.indexOf(a), 1);
    firstProcessAlive = false;

    const b = await start(url);
    const delivered = await until(
      'the delivery to succeed',
      async () => (await call(b, 'GET', `/api/webhook_endpoints/${endpointId}/deliveries`, token)).body['deliveries'] as Json[],
      (d) => d.length === 1 && d[0]!['status'] === 'succeeded',
      30_000,
    );
    const events = (await call(b, 'GET', '/api/events', token)).body['events'] as Json[];
    expect(events.map((e) => e['type'])).to.deep.equal(['account.created']);
    expect(delivered[0]).to.include({ event_id: events[0]!['id'], last_response_status: 200 });
    const ok = receiver.received.filter((r) => r.answered === 200);
    expect(ok).to.have.length(1);
    expect(JSON.parse(ok[0]!.body)).to.deep.equal(events[0]);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).to.equal(1);
  });

  it('SIGTERM lets the attempt in flight finish and records it before the process exits', async () => {
    const receiver = await new Receiver(() => 'hang').start();
    receivers.push(receiver);
    const url = database();
    const a = await start(url, 'info');
    const { token, userId, endpointId } = await setUp(a, receiver.url);
    expect((await link(a, token, userId, 'Car')).status).to.equal(201);
    await receiver.waitFor(1);
    a.child.kill('SIGTERM');
    await until(
      'the shutdown to begin',
      async () => a.stdout(),
      (out) => out.includes('shutting down'),
    );
    receiver.release(200);
    expect(await a.exited).to.equal(0);
    running.splice(running.indexOf(a), 1);
    const b = await start(url);
    const deliveries = (await call(b, 'GET', `/api/webhook_endpoints/${endpointId}/deliveries`, token)).body['deliveries'] as Json[];
    expect(deliveries).to.have.length(1);
    expect(deliveries[0]).to.include({ status: 'succeeded', attempts: 1, last_response_status: 200 });
    expect(receiver.received).to.have.length(1);
  });

  it('two processes sharing the store deliver each event exactly once to a healthy receiver, and each attempt of a retried one once (fair claims keep the lease exact)', async () => {
    const receiver = await new Receiver(() => 200).start();
    receivers.push(receiver);
    // A second client's receiver refuses the first attempt of each delivery: every delivery is claimed twice, by either process.
    const seen = new Set<string>();
    const refusing = await new Receiver((_, headers) => {
      const id = String(headers['webhook-id']);
      if (seen.has(id)) return 200;
      seen.add(id);
      return 500;
    }).start();
    receivers.push(refusing);
    const url = database();
    const [a, b] = await Promise.all([start(url), start(url)]);
    const { token, userId, endpointId } = await setUp(a!, receiver.url);
    const other = await setUp(b!, `${refusing.url}/0`);
    const otherEndpoints = [other.endpointId];
    for (const i of [1, 2]) {
      const hook = await call(a!, 'POST', '/api/webhook_endpoints', other.token, { url: `${refusing.url}/${i}` });
      expect(hook.status).to.equal(201);
      otherEndpoints.push(hook.body['id'] as number);
    }
    for (const [api, name] of [
      [a!, 'Other A'],
      [b!, 'Other B'],
    ] as const)
      expect((await link(api, other.token, other.userId, name)).status).to.equal(201);
    // Both processes at once, each one change after another: creations under one user write the user (docs/decisions/transactions.md),
    // so two at a time conflict and the loser runs again; a dozen at once could exhaust the bounded retries (409).
    const streams = await Promise.all(
      [a!, b!].map(async (api, p) => {
        const answers: Array<Awaited<ReturnType<typeof link>>> = [];
        for (let i = 0; i < 6; i++) answers.push(await link(api, token, userId, `Loan ${p}-${i}`));
        return answers;
      }),
    );
    const changes = streams.flat();
    expect(changes.map((c) => c.status)).to.deep.equal(Array(12).fill(201));
    const deliveries = await until(
      'every delivery to succeed',
      async () => (await call(b!, 'GET', `/api/webhook_endpoints/${endpointId}/deliveries?limit=100`, token)).body['deliveries'] as Json[],
      (d) => d.length === 12 && d.every((x) => x['status'] === 'succeeded'),
    );
    expect(deliveries.map((d) => d['attempts'])).to.deep.equal(Array(12).fill(1));
    expect(receiver.received).to.have.length(12);
    const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
    expect(new Set(ids).size).to.equal(12);
    const eventIds = receiver.received.map((r) => JSON.parse(r.body)['id'] as number).sort((x, y) => x - y);
    expect(eventIds).to.deep.equal(deliveries.map((d) => d['event_id']).sort((x, y) => x - y));

    // 2 events × 3 endpoints of the other client: each delivery refused once, then delivered; 2 attempts each, no more.
    for (const id of otherEndpoints) {
      const done = await until(
        `endpoint ${id}'s deliveries to succeed`,
        async () => (await call(a!, 'GET', `/api/webhook_endpoints/${id}/deliveries`, other.token)).body['deliveries'] as Json[],
        (d) => d.length === 2 && d.every((x) => x['status'] === 'succeeded'),
      );
      expect(done.map((d) => [d['attempts'], d['last_response_status']])).to.deep.equal([
        [2, 200],
        [2, 200],
      ]);
    }
    expect(refusing.received).to.have.length(12);
    const perId = new Map<string, number>();
    for (const r of refusing.received) perId.set(String(r.headers['webhook-id']), (perId.get(String(r.headers['webhook-id'])) ?? 0) + 1);
    expect([...perId.values()]).to.deep.equal(Array(6).fill(2));
  });
});
