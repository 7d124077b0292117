/**
 * Issue 31, items 1 to 4 (docs/decisions/proxies.md): production behind a proxy, with many
 * clients on one address. Each regression test is named after the finding it
 * fixes. Requests come through supertest from 127.0.0.1, which these apps
 * trust as their proxy, so each client is told apart by the `X-Forwarded-For`
 * entry "the proxy" appended. Time is the mocked `Date` where a window matters.
 */
import { mock } from 'node:test';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import supertest from 'supertest';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { createMemoryStore } from '@debtkit/adapter-memory';
import type { StorePorts } from '@debtkit/core';
import { createRateLimits } from '../src/http/rate-limits.js';
import { generateToken } from '../src/http/token-issuer.js';
import { routesOf } from '../src/http/app.js';
import { MAX_JSON_DEPTH } from '../src/http/pipeline/json-body.js';
import { addressKey } from '../src/http/pipeline/auth-failure-limit.js';
import { READINESS_REUSE_MS } from '../src/http/routes/builtin-endpoints.js';
import pino from 'pino';
import { loadConfig } from '../src/main/config.js';
import { startServer } from '../src/main/server.js';
import { CapturedLog, harness, type Harness } from './support/http-harness.js';

const LOOPBACK = ['127.0.0.1', '::1'];
const limits = (authFailuresPerMinute: number) => createRateLimits({ requestsPerSecond: 0, authFailuresPerMinute }, { kind: 'memory' });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
/** What a proxy in front adds: the address of the client it serves. */
const from = (address: string) => ({ 'X-Forwarded-For': address });
const NOW = Date.parse('2026-03-15T12:00:00.000Z');

/** A memory store whose token lookups (the store command behind an unknown token) are counted. */
const countingStore = (): { store: StorePorts; lookups: () => number } => {
  const base = createMemoryStore();
  let lookups = 0;
  const store: StorePorts = {
    ...base,
    tokens: {
      ...base.tokens,
      findByHash: (hash) => {
        lookups++;
        return base.tokens.findByHash(hash);
      },
    },
  };
  return { store, lookups: () => lookups };
};

describe('behind a proxy (docs/decisions/proxies.md, issue 31)', () => {
  afterEach(() => mock.timers.reset());

  describe('trusted proxies: the client address and scheme', () => {
    const lineOf = async (h: Harness, id: string) => h.log.next((l) => l['request_id'] === id && l.msg === 'request');

    it('takes the client address from X-Forwarded-For walked from the right through trusted hops; what a client forged to the left is not believed', async () => {
      const h = await harness({ trustedProxies: [...LOOPBACK, '10.0.0.0/8'] });
      await h.request.get('/healthz').set({ 'X-Request-Id': 'walk', 'X-Forwarded-For': '6.6.6.6, 203.0.113.5, 10.1.2.3' }).expect(200);
      expect(await lineOf(h, 'walk')).to.include({ ip: '203.0.113.5', scheme: 'http' });
      await h.request.get('/healthz').set({ 'X-Request-Id': 'v6', 'X-Forwarded-For': '2001:db8::7' }).expect(200);
      expect(await lineOf(h, 'v6')).to.include({ ip: '2001:db8::7' });
    });

    it('honours X-Forwarded-Proto from a trusted hop, entry by entry as the hops appended them', async () => {
      const h = await harness({ trustedProxies: [...LOOPBACK, '10.0.0.0/8'] });
      await h.request
        .get('/healthz')
        .set({ 'X-Request-Id': 'https', ...from('203.0.113.5'), 'X-Forwarded-Proto': 'https' })
        .expect(200);
      expect(await lineOf(h, 'https')).to.include({ ip: '203.0.113.5', scheme: 'https' });
      // The client sent "https" itself; its proxy appended what it really used.
      await h.request
        .get('/healthz')
        .set({ 'X-Request-Id': 'forged-proto', ...from('203.0.113.5'), 'X-Forwarded-Proto': 'https, http' })
        .expect(200);
      expect(await lineOf(h, 'forged-proto')).to.include({ scheme: 'http' });
      // Two trusted hops, each appending: the client's is the first of the two.
      await h.request
        .get('/healthz')
        .set({ 'X-Request-Id': 'two-hops', 'X-Forwarded-For': '203.0.113.5, 10.0.0.2', 'X-Forwarded-Proto': 'https, http' })
        .expect(200);
      expect(await lineOf(h, 'two-hops')).to.include({ ip: '203.0.113.5', scheme: 'https' });
    });

    it('from a peer that is not a trusted proxy, X-Forwarded-For and X-Forwarded-Proto are ignored, and the limit counts the peer', async () => {
      mock.timers.enable({ apis: ['Date', 'setTimeout'], now: NOW });
      const h = await harness({ trustedProxies: ['10.0.0.0/8'], rateLimits: limits(3) });
      await h.request
        .get('/healthz')
        .set({ 'X-Request-Id': 'untrusted', ...from('203.0.113.5'), 'X-Forwarded-Proto': 'https' })
        .expect(200);
      const line = await lineOf(h, 'untrusted');
      expect(line['ip']).to.match(/127\.0\.0\.1$/);
      expect(line['scheme']).to.equal('http');
      // A client rotating forged addresses is still one address.
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await h.request.get('/api/users').set({ ...bearer(generateToken('sandbox')), ...from(`198.51.100.${i}`) })).status);
      expect(statuses).to.deep.equal([401, 401, 401, 429]);
    });

    it('unset: the peer is the client and the headers are ignored (as before)', async () => {
      const h = await harness();
      await h.request
        .get('/healthz')
        .set({ 'X-Request-Id': 'unset', ...from('203.0.113.5'), 'X-Forwarded-Proto': 'https' })
        .expect(200);
      const line = await lineOf(h, 'unset');
      expect(line['ip']).to.match(/127\.0\.0\.1$/);
      expect(line['scheme']).to.equal('http');
    });

    it('warns at start when trusted proxies are set without DEBTKIT_PUBLIC_URL', async () => {
      const warnings = async (env: Record<string, string>): Promise<string[]> => {
        const config = loadConfig({ PORT: '0', DEBTKIT_SEED: 'false', ...env });
        if (E.isLeft(config)) throw new Error(config.left);
        const log = new CapturedLog();
        const running = await startServer({ config: config.right, logger: pino({ level: 'info' }, log) });
        await running.shutdown();
        return log.lines.filter((l) => l.level === 40).map((l) => l.msg);
      };
      expect(await warnings({ DEBTKIT_TRUSTED_PROXIES: '10.0.0.1' })).to.deep.equal([
        'DEBTKIT_TRUSTED_PROXIES is set without DEBTKIT_PUBLIC_URL: set it to the address clients reach the proxy at (the OpenAPI document names it)',
      ]);
      expect(await warnings({ DEBTKIT_TRUSTED_PROXIES: '10.0.0.1', DEBTKIT_PUBLIC_URL: 'https://api.example.com' })).to.deep.equal([]);
    });

    it('counts IPv6 clients per /64, IPv4-mapped addresses as IPv4', () => {
      expect(addressKey('2001:db8:1:2::1')).to.equal(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
      expect(addressKey('2001:db8:1:2::1')).not.to.equal(addressKey('2001:db8:1:3::1'));
      expect(addressKey('::ffff:203.0.113.5')).to.equal('203.0.113.5');
      expect(addressKey('203.0.113.5')).to.equal('203.0.113.5');
      expect(addressKey(''), 'no address: its own key').to.equal('');
      expect(addressKey('::ffff:203.0.113.5'), 'a kept key is the same key').to.equal('203.0.113.5');
    });
  });

  describe('the failed-authentication limit', () => {
    beforeEach(() => mock.timers.enable({ apis: ['Date', 'setTimeout'], now: NOW }));

    it('anyone can lock every client out: 30 garbage tokens from one address behind the proxy leave every other address, the working tokens of that address and the admin token served', async () => {
      const { store, lookups } = countingStore();
      const h = await harness({ store, trustedProxies: LOOPBACK, rateLimits: limits(30) });
      const nat = from('203.0.113.1');
      // An integrator works from the NAT address before the flood.
      await h.request
        .get('/api/users')
        .set({ ...h.auth, ...nat })
        .expect(200);

      const flood = [];
      for (let i = 0; i < 35; i++)
        flood.push((await h.request.get('/api/users').set({ ...bearer(generateToken('sandbox')), ...nat })).status);
      expect(flood.filter((s) => s === 401)).to.have.length(30);
      expect(flood.slice(30)).to.deep.equal([429, 429, 429, 429, 429]);

      // Empty the 1 s token cache (a revocation in this process does): the working token is looked up again, and served.
      const spare = await h.clientAccess.issueToken(h.client.id)();
      if (E.isLeft(spare)) throw new Error(spare.left.message);
      await h.request
        .delete(`/admin/tokens/${spare.right.tokenId}`)
        .set({ ...h.admin, ...nat })
        .expect(204);
      const before = lookups();
      for (let i = 0; i < 3; i++)
        await h.request
          .get('/api/users')
          .set({ ...h.auth, ...nat })
          .expect(200);
      expect(lookups() - before).to.equal(1);

      // The operator is never locked out by this limit.
      await h.request
        .get('/admin/clients')
        .set({ ...h.admin, ...nat })
        .expect(200);
      await h.request
        .get('/metrics')
        .set({ ...h.admin, ...nat })
        .expect(200);
      await h.request
        .get('/admin/clients')
        .set({ ...bearer('not-the-admin-token-0'), ...nat })
        .expect(429);

      // What stays refused from the flooded address: a token this process has not seen work, without a store command.
      const fresh = await h.clientAccess.issueToken(h.client.id)();
      if (E.isLeft(fresh)) throw new Error(fresh.left.message);
      const beforeFresh = lookups();
      const refused = await h.request.get('/api/users').set({ ...bearer(fresh.right.token), ...nat });
      expect(refused.status).to.equal(429);
      expect(refused.body.error.code).to.equal('rate_limited');
      expect(lookups()).to.equal(beforeFresh);

      // Every other address is served, new tokens included.
      await h.request
        .get('/api/users')
        .set({ ...bearer(fresh.right.token), ...from('203.0.113.2') })
        .expect(200);
    });

    it('a seen token that stopped working (revoked) is refused from a flooded address, and counted', async () => {
      const h = await harness({ trustedProxies: LOOPBACK, rateLimits: limits(3) });
      const issued = await h.clientAccess.issueToken(h.client.id)();
      if (E.isLeft(issued)) throw new Error(issued.left.message);
      const nat = from('203.0.113.1');
      await h.request
        .get('/api/users')
        .set({ ...bearer(issued.right.token), ...nat })
        .expect(200);
      for (let i = 0; i < 3; i++)
        await h.request
          .get('/api/users')
          .set({ ...bearer(generateToken('sandbox')), ...nat })
          .expect(401);
      await h.request
        .delete(`/admin/tokens/${issued.right.tokenId}`)
        .set({ ...h.admin, ...nat })
        .expect(204);
      await h.request
        .get('/api/users')
        .set({ ...bearer(issued.right.token), ...nat })
        .expect(401);
    });

    it('IPv6 clients are counted per /64: another address of the same /64 is refused, another /64 is not', async () => {
      const h = await harness({ trustedProxies: LOOPBACK, rateLimits: limits(3) });
      for (let i = 1; i <= 3; i++)
        await h.request
          .get('/api/users')
          .set({ ...bearer(generateToken('sandbox')), ...from(`2001:db8:1:2::${i}`) })
          .expect(401);
      await h.request
        .get('/api/users')
        .set({ ...bearer(generateToken('sandbox')), ...from('2001:db8:1:2:abcd::9') })
        .expect(429);
      await h.request
        .get('/api/users')
        .set({ ...bearer(generateToken('sandbox')), ...from('2001:db8:1:3::1') })
        .expect(401);
    });

    it('/metrics/ with a trailing slash escapes the limit: no longer, and the right token is still served', async () => {
      const h = await harness({ trustedProxies: LOOPBACK, rateLimits: limits(30) });
      const attacker = from('203.0.113.66');
      const statuses = [];
      for (let i = 0; i < 35; i++)
        statuses.push((await h.request.get('/metrics/').set({ ...bearer(`wrong-admin-token-${i}`), ...attacker })).status);
      expect(statuses.filter((s) => s === 401)).to.have.length(30);
      expect(statuses.slice(30)).to.deep.equal([429, 429, 429, 429, 429]);
      await h.request
        .get('/metrics')
        .set({ ...bearer('wrong-admin-token-x'), ...attacker })
        .expect(429);
      await h.request
        .get('/metrics/')
        .set({ ...h.admin, ...attacker })
        .expect(200);
    });

    it('no spelling escapes the limit: every route that takes a credential, in every spelling the router accepts, is limited', async () => {
      const LIMIT = 1;
      const h = await harness({ trustedProxies: LOOPBACK, rateLimits: limits(LIMIT) });
      // One listening server for the few hundred requests (supertest would start one per request).
      const server: Server = createServer(h.app.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const request = supertest(server);
      try {
        let n = 0;
        /** A fresh client address per case (198.18.0.0/15, the benchmarking range). */
        const nextAddress = () => {
          n++;
          return `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}`;
        };
        const send = (method: string, path: string, headers: Record<string, string>) =>
          request[method.toLowerCase() as 'get' | 'head' | 'post' | 'patch' | 'delete'](path).set(headers);
        const spellings = (path: string): string[] => {
          const last = path.length - 1;
          const encoded = `${path.slice(0, last)}%${path.charCodeAt(last).toString(16).toUpperCase()}`;
          return [
            path,
            `${path}/`,
            `${path}//`,
            `/${path}`,
            path.toUpperCase(),
            encoded,
            path.replace(/^\/([^/]+)/, '/$1/.'),
            `${path}?x=1`,
          ];
        };
        let credentialRoutes = 0;
        let limitedSpellings = 0;
        // HEAD is answered by the GET routes: their spellings are the same.
        for (const route of routesOf(h.app).filter((r) => r.method !== 'HEAD')) {
          const path = route.path.replace(/:[A-Za-z0-9_]+/g, '1');
          // A route takes a credential when it answers 401 without one.
          const bare = await send(route.method, path, from(nextAddress()));
          if (bare.status !== 401) continue;
          credentialRoutes++;
          for (const spelling of spellings(path)) {
            const client = from(nextAddress());
            const answers = [];
            for (let i = 0; i < LIMIT; i++)
              answers.push((await send(route.method, spelling, { ...bearer(`dk_sandbox_${'x'.repeat(43)}`), ...client })).status);
            if (answers.every((s) => s === 404)) continue;
            const next = await send(route.method, spelling, { ...bearer(`dk_sandbox_${'y'.repeat(43)}`), ...client });
            expect([...answers, next.status], `${route.method} ${spelling}`).to.deep.equal([...answers.map(() => 401), 429]);
            limitedSpellings++;
          }
        }
        expect(credentialRoutes).to.be.greaterThan(40);
        expect(limitedSpellings).to.be.greaterThan(credentialRoutes * 3);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
  });

  describe('no body read without a reason', () => {
    let h: Harness;
    before(async () => {
      h = await harness();
    });

    it('bodies are read before anything is checked: a path that needs no credential answers without reading, inflating or parsing the body', async () => {
      const bomb = gzipSync(Buffer.alloc(2 * 1024 * 1024, 0x20));
      for (const [path, status] of [
        ['/healthz', 405],
        ['/readyz', 405],
        ['/openapi.json', 405],
        ['/nowhere', 404],
      ] as const) {
        // A body that inflates past the limit (today: 413), one that does not decode (today: 400), one of another type (today: 415).
        for (const [headers, body] of [
          [{ 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, bomb],
          [{ 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, Buffer.from('not gzip')],
          [{ 'Content-Type': 'text/plain' }, Buffer.from('hello')],
        ] as const) {
          const res = await h.request.post(path).set(headers).send(body);
          expect(res.status, `POST ${path} ${JSON.stringify(headers)}`).to.equal(status);
        }
      }
      // An authenticated request to an unknown path, likewise.
      await h.request
        .post('/api/nowhere')
        .set({ ...h.auth, 'Content-Type': 'text/plain' })
        .send('hello')
        .expect(404);
    });

    it('answers at once a request whose body has not arrived (nothing waits for it)', async () => {
      const server: Server = createServer(h.app.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const status = await new Promise<number>((resolve, reject) => {
          const req = httpRequest(
            {
              port,
              host: '127.0.0.1',
              method: 'POST',
              path: '/healthz',
              headers: { 'Content-Type': 'application/json', 'Content-Length': '1000' },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
              req.destroy();
            },
          );
          req.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
          req.write('{"a":');
        });
        expect(status).to.equal(405);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('/openapi.json is compressed again on every request and has no validator: now an ETag per coding, Cache-Control: no-cache, 304 on If-None-Match', async () => {
      const server: Server = createServer(h.app.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      /** A GET with the body as sent (no client-side decoding). */
      const get = (headers: Record<string, string>) =>
        new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
          const req = httpRequest({ port, host: '127.0.0.1', path: '/openapi.json', headers, agent: false }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
          });
          req.on('error', reject);
          req.end();
        });
      try {
        const document = (await get({ 'Accept-Encoding': 'identity' })).body.toString('utf8');
        expect(JSON.parse(document)).to.have.property('openapi');
        const tags = new Set<string>();
        for (const [coding, decode] of [
          ['br', brotliDecompressSync],
          ['gzip', gunzipSync],
          ['identity', (b: Buffer) => b],
        ] as const) {
          const first = await get({ 'Accept-Encoding': coding });
          expect(first.status).to.equal(200);
          expect(first.headers['cache-control']).to.equal('no-cache');
          expect(first.headers['content-encoding']).to.equal(coding === 'identity' ? undefined : coding);
          expect(first.headers['vary']).to.match(/Accept-Encoding/);
          expect(decode(first.body).toString('utf8')).to.equal(document);
          const etag = first.headers['etag'] as string;
          expect(etag).to.match(/^"[A-Za-z0-9_-]+(-br|-gzip)?"$/);
          tags.add(etag);
          const again = await get({ 'Accept-Encoding': coding });
          expect(again.body.equals(first.body)).to.equal(true);
          expect(again.headers['etag']).to.equal(etag);

          const unchanged = await get({ 'Accept-Encoding': coding, 'If-None-Match': etag });
          expect(unchanged.status).to.equal(304);
          expect(unchanged.headers['etag']).to.equal(etag);
          expect(unchanged.body.length).to.equal(0);
          expect((await get({ 'Accept-Encoding': coding, 'If-None-Match': '"something-else"' })).status).to.equal(200);
        }
        expect(tags.size).to.equal(3);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('/readyz asks the store on every request: now at most once a second', async () => {
      mock.timers.enable({ apis: ['Date'], now: NOW });
      const base = createMemoryStore();
      let pings = 0;
      const store: StorePorts = {
        ...base,
        health: {
          ping: () => {
            pings++;
            return TE.right(undefined);
          },
        },
      };
      const probe = (await harness({ store })).request;
      const first = await Promise.all(Array.from({ length: 10 }, () => probe.get('/readyz')));
      expect(first.map((r) => r.status)).to.deep.equal(Array.from({ length: 10 }, () => 200));
      expect(pings).to.equal(1);
      mock.timers.tick(READINESS_REUSE_MS - 1);
      await probe.get('/readyz').expect(200);
      expect(pings).to.equal(1);
      mock.timers.tick(1);
      await probe.get('/readyz').expect(200);
      expect(pings).to.equal(2);
      // A clock set back does not stretch the last answer.
      mock.timers.setTime(NOW - 60_000);
      await probe.get('/readyz').expect(200);
      expect(pings).to.equal(3);
    });

    describe('a deeply nested body', () => {
      const nested = (depth: number): string => `{"payload":"p","deep":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

      for (const keyed of [true, false]) {
        it(`a deeply nested body${keyed ? ' sent with an Idempotency-Key' : ''} answers 500 and logs a stack trace: now 400 validation_error, nothing logged above info`, async () => {
          const t = await harness();
          for (const depth of [MAX_JSON_DEPTH + 1, 10_000, 200_000]) {
            const res = await t.request
              .post('/api/ping')
              .set({ ...t.auth, 'Content-Type': 'application/json', ...(keyed ? { 'Idempotency-Key': `deep-${depth}` } : {}) })
              .send(nested(depth));
            expect(res.status, `depth ${depth}`).to.equal(400);
            expect(res.body.error).to.deep.include({
              code: 'validation_error',
              message: `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
            });
          }
          expect(t.log.lines.filter((l) => l.level > 30)).to.deep.equal([]);
        });
      }

      it(`${MAX_JSON_DEPTH} levels are parsed (and then judged by the endpoint's codec); brackets inside strings do not count`, async () => {
        const t = await harness();
        const atLimit = await t.request
          .post('/api/ping')
          .set({ ...t.auth, 'Content-Type': 'application/json' })
          .send(nested(MAX_JSON_DEPTH));
        expect(atLimit.status).to.equal(400);
        expect(atLimit.body.error.message).not.to.match(/deeper than/);
        await t.request
          .post('/api/ping')
          .set({ ...t.auth, 'Content-Type': 'application/json' })
          .send(JSON.stringify({ payload: `${'['.repeat(200)}"\\"{` }))
          .expect(200);
      });
    });
  });
});
