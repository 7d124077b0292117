/**
 * Rate limits (docs/decisions/rate-limits.md): the per-client budget with its headers, failed
 * authentication per address, and counters shared through MongoDB. Time is the
 * mocked `Date` (and, for the memory counters, `setTimeout`, which expires
 * their keys): a window ends when the test moves the clock, never by waiting.
 */
import { mock } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import pino from 'pino';
import * as E from 'fp-ts/lib/Either.js';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { createRateLimits, BURST_WINDOW_SECONDS } from '../src/http/rate-limits.js';
import { loadConfig } from '../src/main/config.js';
import { startServer, type RunningServer } from '../src/main/server.js';
import { generateToken } from '../src/http/token-issuer.js';
import { ADMIN_TOKEN, Harness, harness } from './support/http-harness.js';
import { startCli, type CliProcess } from './support/cli-process.js';

const memoryLimits = (requestsPerSecond: number, authFailuresPerMinute: number) =>
  createRateLimits({ requestsPerSecond, authFailuresPerMinute }, { kind: 'memory' });

const BAD_TOKEN = { Authorization: `Bearer ${generateToken('sandbox')}` };

const compiled = fileURLToPath(import.meta.url).includes('/dist/test/');
const FROZEN_CLOCK = fileURLToPath(new URL('./support/frozen-clock.js', import.meta.url));

/** `debtkit serve` in a process of its own, its clock frozen; resolves once it listens. */
const serveInChild = (env: Record<string, string>): Promise<CliProcess> => startCli(env, { nodeArgs: ['--import', FROZEN_CLOCK] });

describe('rate limits (docs/decisions/rate-limits.md)', () => {
  afterEach(() => mock.timers.reset());

  describe('per client', () => {
    let h: Harness;
    beforeEach(async () => {
      mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.parse('2026-03-15T12:00:00.000Z') });
      // Refusals answered at once here; the hold on a blocked client's refusals has its own tests below.
      h = await harness({ rateLimits: memoryLimits(3, 0), refusalHoldMs: 0 });
    });

    const ping = (auth = h.auth) => h.request.post('/api/ping').set(auth).send({ payload: 'p' });

    it('counts down RateLimit-Remaining, allows a burst of as many again, then answers 429 with Retry-After', async () => {
      const first = [await ping(), await ping(), await ping()];
      expect(first.map((r) => r.status)).to.deep.equal([200, 200, 200]);
      expect(first.map((r) => r.headers['ratelimit-remaining'])).to.deep.equal(['2', '1', '0']);
      for (const r of first) expect(r.headers).to.include({ 'ratelimit-limit': '3', 'ratelimit-reset': '1' });

      const burst = [await ping(), await ping(), await ping()];
      expect(burst.map((r) => r.status)).to.deep.equal([200, 200, 200]);

      const limited = await ping();
      expect(limited.status).to.equal(429);
      expect(limited.body.error).to.deep.include({ code: 'rate_limited' });
      expect(limited.headers).to.include({
        'retry-after': '1',
        'ratelimit-limit': '3',
        'ratelimit-remaining': '0',
        'ratelimit-reset': '1',
      });
      expect(limited.headers['api-version']).to.be.a('string');
    });

    it('refuses over the limit without reading the body: a body that would be 400 or 415 gets 429', async () => {
      for (let i = 0; i < 6; i++) expect((await ping()).status).to.equal(200);
      const broken = await h.request.post('/api/ping').set(h.auth).set('Content-Type', 'application/json').send('{"payload": not json');
      expect(broken.status).to.equal(429);
      const gzipGarbage = await h.request
        .post('/api/ping')
        .set(h.auth)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .send('not gzip at all');
      expect(gzipGarbage.status).to.equal(429);
      const wrongType = await h.request.post('/api/ping').set(h.auth).set('Content-Type', 'text/plain').send('hello');
      expect(wrongType.status).to.equal(429);
    });

    it('once refused, a client is refused from memory for the rest of the window without being counted, then counted again', async () => {
      const limits = memoryLimits(3, 0);
      const clients = limits.clients!;
      let counted = 0;
      h = await harness({
        rateLimits: {
          ...limits,
          clients: {
            consume: (key) => {
              counted += 1;
              return clients.consume(key);
            },
            blocked: (key) => clients.blocked(key),
          },
        },
        refusalHoldMs: 0,
      });
      for (let i = 0; i < 6; i++) expect((await ping()).status).to.equal(200);
      expect((await ping()).status).to.equal(429);
      expect(counted).to.equal(7);
      mock.timers.tick(400);
      const refused = [await ping(), await ping(), await ping()];
      expect(refused.map((r) => r.status)).to.deep.equal([429, 429, 429]);
      for (const r of refused) {
        expect(r.body.error).to.deep.include({ code: 'rate_limited' });
        expect(r.headers).to.include({ 'retry-after': '1', 'ratelimit-limit': '3', 'ratelimit-remaining': '0', 'ratelimit-reset': '1' });
      }
      // Not counted: the counters were not asked while the client was blocked here.
      expect(counted).to.equal(7);
      mock.timers.tick(600);
      expect((await ping()).status).to.equal(200);
      expect(counted).to.equal(8);
    });

    it("holds a blocked client's refusals (half to all of DEBTKIT_REFUSAL_HOLD_MS), then answers its 429; the refusal that blocked it is not held", async () => {
      h = await harness({ rateLimits: memoryLimits(3, 0), refusalHoldMs: 1000 });
      for (let i = 0; i < 6; i++) expect((await ping()).status).to.equal(200);
      // The refusal that blocks the client is answered at once (the test's timers do not move).
      expect((await ping()).status).to.equal(429);
      let answer: Awaited<ReturnType<typeof ping>> | undefined;
      const sent = ping().then((r) => (answer = r));
      // Simulated time moves 25 ms at a time, real I/O in between, until the held answer arrives.
      let elapsed = 0;
      while (answer === undefined && elapsed < 5000) {
        mock.timers.tick(25);
        elapsed += 25;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await sent;
      expect(elapsed, 'answered after at least half the hold').to.be.at.least(500 - 25);
      expect(answer?.status).to.equal(429);
      expect(answer?.body.error).to.deep.include({ code: 'rate_limited' });
      expect(answer?.headers).to.include({ 'retry-after': '1', 'ratelimit-remaining': '0' });
    });

    it('paces a client that was held: in its next window its allowed requests go one every 1000 / limit ms, not all at once', async () => {
      h = await harness({ rateLimits: memoryLimits(3, 0), refusalHoldMs: 1000 });
      /** Moves simulated time 25 ms at a time, real I/O in between, until `done` or 5 s; the time it took. */
      const tickUntil = async (done: () => boolean): Promise<number> => {
        let elapsed = 0;
        while (!done() && elapsed < 5000) {
          mock.timers.tick(25);
          elapsed += 25;
          await new Promise((resolve) => setImmediate(resolve));
        }
        return elapsed;
      };
      // A well-behaved client is never paced: its whole budget and burst answer without time moving.
      for (let i = 0; i < 6; i++) expect((await ping()).status).to.equal(200);
      expect((await ping()).status).to.equal(429);
      // It sends again before its Retry-After: held, and paced from now on.
      let held: Awaited<ReturnType<typeof ping>> | undefined;
      const heldSent = ping().then((r) => (held = r));
      await tickUntil(() => held !== undefined);
      await heldSent;
      expect(held?.status).to.equal(429);
      // Its next window (the per-second budget, 3): three requests at once.
      mock.timers.tick(1000);
      const answers: Array<number | undefined> = [undefined, undefined, undefined];
      const sent = [0, 1, 2].map((i) => ping().then((r) => (answers[i] = r.status)));
      await tickUntil(() => answers[0] !== undefined);
      expect(answers, 'the first goes on at once, the others wait their turns').to.deep.equal([200, undefined, undefined]);
      const second = await tickUntil(() => answers[1] !== undefined);
      expect(second, 'the second after about a third of a second').to.be.within(333 - 25, 333 + 50);
      expect(answers[2]).to.equal(undefined);
      const third = await tickUntil(() => answers[2] !== undefined);
      expect(third, 'the third a third of a second later').to.be.within(333 - 50, 333 + 50);
      await Promise.all(sent);
      expect(answers).to.deep.equal([200, 200, 200]);
    });

    it('recovers once Retry-After has passed: the per-second budget again, the burst not yet', async () => {
      for (let i = 0; i < 6; i++) expect((await ping()).status).to.equal(200);
      const limited = await ping();
      expect(limited.status).to.equal(429);

      mock.timers.tick(Number(limited.headers['retry-after']) * 1000);
      const again = [await ping(), await ping(), await ping(), await ping()];
      expect(again.map((r) => r.status)).to.deep.equal([200, 200, 200, 429]);

      // The burst allowance comes back with its own window.
      mock.timers.tick(BURST_WINDOW_SECONDS * 1000);
      const full = [];
      for (let i = 0; i < 7; i++) full.push((await ping()).status);
      expect(full).to.deep.equal([200, 200, 200, 200, 200, 200, 429]);
    });

    it('puts the headers on every authenticated /api response, errors included, and none elsewhere', async () => {
      const missing = await h.request.get('/api/users/999').set(h.auth);
      expect(missing.status).to.equal(404);
      expect(missing.headers['ratelimit-remaining']).to.equal('2');
      expect((await h.request.get('/healthz')).headers).not.to.have.property('ratelimit-limit');
      expect((await ping(BAD_TOKEN)).headers).not.to.have.property('ratelimit-limit');
    });

    it('counts each client on its own', async () => {
      for (let i = 0; i < 6; i++) await ping();
      expect((await ping()).status).to.equal(429);
      const other = await harness({ store: h.store, rateLimits: undefined });
      // Same app, another client: a fresh budget.
      const res = await h.request.post('/api/ping').set(other.auth).send({ payload: 'p' });
      expect(res.status).to.equal(200);
      expect(res.headers['ratelimit-remaining']).to.equal('2');
    });

    it('a limit of 0 disables the per-client limit and its headers', async () => {
      const unlimited = await harness({ rateLimits: memoryLimits(0, 0) });
      for (let i = 0; i < 20; i++) {
        const res = await unlimited.request.post('/api/ping').set(unlimited.auth).send({ payload: 'p' });
        expect(res.status).to.equal(200);
        expect(res.headers).not.to.have.property('ratelimit-limit');
      }
    });
  });

  describe('failed authentication per address', () => {
    let h: Harness;
    let server: Server;
    let port: number;

    beforeEach(async () => {
      mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.parse('2026-03-15T12:00:00.000Z') });
      h = await harness({ rateLimits: memoryLimits(0, 5) });
      server = createServer(h.app.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

    /** A request from `localAddress` (loopback has the whole 127/8). */
    const send = (path: string, headers: Record<string, string>, localAddress = '127.0.0.1') =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const req = httpRequest({ port, host: '127.0.0.1', localAddress, path, method: 'GET', headers, agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end();
      });

    it('cuts an address off after too many 401s, whatever token it sends next, while another address still works', async () => {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await send('/api/users/1', BAD_TOKEN)).status);
      expect(statuses).to.deep.equal([401, 401, 401, 401, 401]);

      const cut = await send('/api/users/1', h.auth);
      expect(cut.status).to.equal(429);
      expect(JSON.parse(cut.body).error.code).to.equal('rate_limited');
      expect(Number(cut.headers['retry-after'])).to.be.within(1, 60);
      expect((await send('/admin/clients', { Authorization: 'Bearer not-the-admin-token-000' })).status).to.equal(429);
      // docs/decisions/proxies.md: the admin token, when right, is never refused by this limit.
      expect((await send('/admin/clients', { Authorization: `Bearer ${ADMIN_TOKEN}` })).status).to.equal(200);
      // No token is even looked at: unauthenticated paths are untouched.
      expect((await send('/healthz', {})).status).to.equal(200);

      const elsewhere = await send('/api/ping', h.auth, '127.0.0.2');
      expect(elsewhere.status).to.equal(405);
      expect((await send('/admin/clients', { Authorization: `Bearer ${ADMIN_TOKEN}` }, '127.0.0.2')).status).to.equal(200);
    });

    it('counts bad admin tokens too, and lets the address back in when the minute is over', async () => {
      for (let i = 0; i < 5; i++)
        expect((await send('/admin/clients', { Authorization: 'Bearer not-the-admin-token-000' })).status).to.equal(401);
      const cut = await send('/admin/clients', { Authorization: 'Bearer not-the-admin-token-001' });
      expect(cut.status).to.equal(429);
      expect((await send('/admin/clients', { Authorization: `Bearer ${ADMIN_TOKEN}` })).status).to.equal(200);

      mock.timers.tick(Number(cut.headers['retry-after']) * 1000);
      expect((await send('/admin/clients', { Authorization: 'Bearer not-the-admin-token-001' })).status).to.equal(401);
    });

    it('counts bad tokens on /metrics, which takes the admin token too', async () => {
      for (let i = 0; i < 5; i++)
        expect((await send('/metrics', { Authorization: 'Bearer guessing-the-admin-token' })).status).to.equal(401);
      expect((await send('/metrics', { Authorization: 'Bearer guessing-the-admin-token' })).status).to.equal(429);
      expect((await send('/admin/clients', {})).status).to.equal(429);
      expect((await send('/metrics', { Authorization: 'Bearer guessing-the-admin-token' }, '127.0.0.2')).status).to.equal(401);
      // The right one is served from the blocked address too (docs/decisions/proxies.md).
      expect((await send('/metrics', { Authorization: `Bearer ${ADMIN_TOKEN}` })).status).to.equal(200);
    });

    it('does not count successes', async () => {
      for (let i = 0; i < 20; i++) expect((await send('/api/users/999', h.auth)).status).to.equal(404);
      expect((await send('/api/users/1', BAD_TOKEN)).status).to.equal(401);
    });
  });

  describe('shared through MongoDB', () => {
    let wire: WireServer;
    let servers: RunningServer[] = [];
    const token = generateToken('sandbox');

    before(async () => {
      wire = await startWireServer();
    });
    after(() => wire.stop());
    afterEach(async () => {
      mock.timers.reset();
      await Promise.all(servers.map((s) => s.shutdown()));
      servers = [];
    });

    const start = async (seed: boolean, db: string): Promise<RunningServer> => {
      const config = loadConfig({
        PORT: '0',
        DEBTKIT_STORE: 'mongo',
        MONGODB_URL: `${wire.url.replace(/\/?$/, '')}/${db}`,
        DEBTKIT_BOOTSTRAP_TOKEN: token,
        DEBTKIT_SEED: String(seed),
        DEBTKIT_RATE_LIMIT: '2',
      });
      if (E.isLeft(config)) throw new Error(config.left);
      const running = await startServer({ config: config.right, logger: pino({ level: 'silent' }) });
      servers.push(running);
      return running;
    };

    const ping = (server: RunningServer) =>
      fetch(`${server.url}/api/ping`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{"payload":"p"}',
      });

    it('two debtkit processes on one database share one client budget', async function () {
      // Needs the build (npm test builds first): the CLI and the compiled preload.
      if (!compiled) {
        console.log('    (skipped: run from source; the child processes need the build: `npx tsc -b`)');
        this.skip();
      }
      const db = `debtkit_rl_processes_${process.pid}`;
      const env = {
        DEBTKIT_STORE: 'mongo',
        MONGODB_URL: `${wire.url.replace(/\/?$/, '')}/${db}`,
        DEBTKIT_BOOTSTRAP_TOKEN: token,
        DEBTKIT_RATE_LIMIT: '2',
        DEBTKIT_TEST_FROZEN_NOW: String(Date.parse('2026-03-15T12:00:00.000Z')),
      };
      const started = await Promise.allSettled([
        serveInChild({ ...env, DEBTKIT_SEED: 'true' }),
        serveInChild({ ...env, DEBTKIT_SEED: 'false' }),
      ]);
      const children = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      try {
        for (const s of started) if (s.status === 'rejected') throw s.reason;
        const [a, b] = children as [CliProcess, CliProcess];
        const pingAt = (url: string) =>
          fetch(`${url}/api/ping`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: '{"payload":"p"}',
          });
        const answers = [];
        for (const server of [a, b, a, b, a, b]) {
          const res = await pingAt(server.url);
          answers.push(`${res.status} ${res.headers.get('ratelimit-remaining')}`);
        }
        // 2 a second and a burst of 2 more, counted once for both processes.
        expect(answers).to.deep.equal(['200 1', '200 0', '200 0', '200 0', '429 0', '429 0']);
      } finally {
        await Promise.all(children.map((c) => c.stop()));
      }
    });

    it('counts failed authentications across processes; each blocks the address at its first failure past the limit', async () => {
      const open = () =>
        createRateLimits(
          { requestsPerSecond: 0, authFailuresPerMinute: 5 },
          {
            kind: 'mongo',
            client: new MongoClient(wire.url, { serverSelectionTimeoutMS: 2000 }),
            dbName: `debtkit_rl_auth_${process.pid}`,
            closeClient: true,
          },
        );
      const [a, b] = [open(), open()];
      try {
        const address = '198.51.100.7';
        for (let i = 0; i < 3; i++) await a.authFailures!.recordFailure(address);
        await b.authFailures!.recordFailure(address);
        expect([await a.authFailures!.blockedFor(address), await b.authFailures!.blockedFor(address)]).to.deep.equal([0, 0]);
        // The fifth failure, counted in one place for both: the process that saw it blocks.
        await b.authFailures!.recordFailure(address);
        expect(await b.authFailures!.blockedFor(address)).to.be.within(1, 60);
        expect(await a.authFailures!.blockedFor(address)).to.equal(0);
        await a.authFailures!.recordFailure(address);
        expect(await a.authFailures!.blockedFor(address)).to.be.within(1, 60);
        expect(await a.authFailures!.blockedFor('198.51.100.8')).to.equal(0);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('once a client is over its limit, a refusal sends no command for the rest of its window (counted on the wire server), two processes alike', async () => {
      // Only the clock is mocked: the driver's own timers must run.
      mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-03-15T12:00:00.000Z') });
      const open = () =>
        createRateLimits(
          { requestsPerSecond: 2, authFailuresPerMinute: 0 },
          {
            kind: 'mongo',
            client: new MongoClient(wire.url, { serverSelectionTimeoutMS: 2000 }),
            dbName: `debtkit_rl_block_${process.pid}`,
            closeClient: true,
          },
        );
      const [a, b] = [open(), open()];
      // The drivers' own monitoring (hello) is not the limiter's.
      const counted = () => wire.commands.filter((c) => !/^(hello|ismaster|isMaster|endSessions)$/.test(c));
      try {
        const allowed = [
          await a.clients!.consume('9'),
          await b.clients!.consume('9'),
          await a.clients!.consume('9'),
          await b.clients!.consume('9'),
        ];
        expect(allowed.map((d) => d.allowed)).to.deep.equal([true, true, true, true]);
        // Each process learns that the client is over from the counter at most once a window (here a at once, b
        // by the points it used last); from then on it refuses the client from memory.
        expect([(await a.clients!.consume('9')).allowed, (await b.clients!.consume('9')).allowed]).to.deep.equal([false, false]);
        wire.commands.length = 0;
        const refused = [];
        for (let i = 0; i < 10; i++) refused.push(await (i % 2 === 0 ? a : b).clients!.consume('9'));
        expect(refused.every((d) => !d.allowed && d.resetSeconds >= 1)).to.equal(true);
        expect(counted()).to.deep.equal([]);
        // Another client is still counted in the store.
        expect((await a.clients!.consume('10')).allowed).to.equal(true);
        expect(counted().length).to.be.greaterThan(0);
        // The sustained budget comes back with the next second, asked of the store again.
        mock.timers.tick(1000);
        wire.commands.length = 0;
        expect((await a.clients!.consume('9')).allowed).to.equal(true);
        expect(counted().length).to.be.greaterThan(0);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('counts in memory while MongoDB is unreachable, and still refuses over the limit', async () => {
      const down = await startWireServer();
      const client = new MongoClient(down.url, { serverSelectionTimeoutMS: 200 });
      await down.stop();
      const limits = createRateLimits(
        { requestsPerSecond: 1, authFailuresPerMinute: 1 },
        { kind: 'mongo', client, dbName: 'debtkit_rl_down', closeClient: true },
      );
      try {
        const decisions = [await limits.clients!.consume('7'), await limits.clients!.consume('7'), await limits.clients!.consume('7')];
        expect(decisions.map((d) => d.allowed)).to.deep.equal([true, true, false]);
        await limits.authFailures!.recordFailure('203.0.113.9');
        expect(await limits.authFailures!.blockedFor('203.0.113.9')).to.be.within(1, 60);
      } finally {
        await limits.close();
      }
    });

    it('two API servers, each with its own connection, share one client budget in one database, and it recovers after Retry-After', async () => {
      const db = `debtkit_rl_${process.pid}`;
      // Only the clock is mocked here: the driver's own timers must run.
      mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-03-15T12:00:00.000Z') });
      const a = await start(true, db);
      const b = await start(false, db);

      const statuses = [];
      const remaining = [];
      for (const server of [a, b, a, b]) {
        const res = await ping(server);
        statuses.push(res.status);
        remaining.push(res.headers.get('ratelimit-remaining'));
      }
      expect(statuses).to.deep.equal([200, 200, 200, 200]);
      expect(remaining).to.deep.equal(['1', '0', '0', '0']);
      const limitedA = await ping(a);
      const limitedB = await ping(b);
      expect([limitedA.status, limitedB.status]).to.deep.equal([429, 429]);
      expect(limitedB.headers.get('retry-after')).to.equal('1');

      mock.timers.tick(1000);
      expect((await ping(b)).status).to.equal(200);
      expect((await ping(a)).status).to.equal(200);
      expect((await ping(b)).status).to.equal(429);
    });
  });
});
