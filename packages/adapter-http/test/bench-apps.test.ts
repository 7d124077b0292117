/**
 * The benchmark's reference apps (bench/): its comparisons are fair only if
 * they send what debtkit sends. `npm run bench` checks their bodies before it
 * loads them; this checks their heads too: the peer and *tight* answer with
 * debtkit's status, body and header set (docs/decisions/api-conventions.md, docs/decisions/rate-limits.md: request id,
 * standard and security headers, the rate limit's three, API-Version), so the
 * work of sending those is on every side of the comparison. A header debtkit
 * starts sending must be added to them, or this fails.
 */
import { expect } from 'chai';
import type Koa from 'koa';
import supertest from 'supertest';
import { API_ENDPOINTS, BUILTIN_ENDPOINTS } from '../src/http/routes/index.js';
import { createRateLimits } from '../src/http/rate-limits.js';
import type { RoutePattern } from '../bench/bare-app.js';
import type { CannedResponse } from '../bench/bench-routes.js';
import { createPeerApp } from '../bench/peer-app.js';
import { createTightApp } from '../bench/tight-app.js';
import { harness, type Harness } from './support/http-harness.js';

/** Headers of the connection rather than of the answer. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive']);
const namesOf = (headers: Record<string, unknown>): string[] =>
  Object.keys(headers)
    .filter((name) => !PER_CONNECTION.has(name))
    .sort();

const TABLE: RoutePattern[] = [...BUILTIN_ENDPOINTS, ...API_ENDPOINTS].map((e) => ({ method: e.method, pattern: e.path }));
const PING = { payload: 'benchmark' };

describe("the bench's reference apps", () => {
  let h: Harness;
  let limits: ReturnType<typeof createRateLimits>;
  let apps: ReadonlyArray<readonly [string, Koa]>;
  let debtkit: supertest.Response;
  before(async () => {
    limits = createRateLimits({ requestsPerSecond: 1_000_000, authFailuresPerMinute: 0 }, { kind: 'memory' });
    h = await harness({ rateLimits: limits });
    debtkit = await h.request.post('/api/ping').set(h.auth).send(PING);
    expect(debtkit.status).to.equal(200);
    const canned: CannedResponse[] = [
      { method: 'POST', pattern: '/api/ping', status: debtkit.status, body: debtkit.body as unknown, gzip: false },
    ];
    const options = { token: h.token, apiVersion: String(debtkit.headers['api-version']), logDestination: '/dev/null' };
    apps = [
      ['peer', createPeerApp(canned, TABLE, options)],
      ['tight', createTightApp(canned, TABLE, options)],
    ];
  });
  after(() => limits.close());

  it("the peer and tight answer POST /api/ping with debtkit's status, body and header set", async () => {
    expect(namesOf(debtkit.headers)).to.include.members([
      'x-request-id',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
      'api-version',
      'referrer-policy',
    ]);
    for (const [name, app] of apps) {
      const theirs = await supertest(app.callback()).post('/api/ping').set(h.auth).send(PING);
      expect(theirs.status, name).to.equal(debtkit.status);
      expect(theirs.body, name).to.deep.equal(debtkit.body);
      expect(namesOf(theirs.headers), name).to.deep.equal(namesOf(debtkit.headers));
      expect(theirs.headers['api-version'], name).to.equal(debtkit.headers['api-version']);
    }
  });

  it('the peer and tight refuse a request without the demo token, as debtkit does (401)', async () => {
    expect((await h.request.post('/api/ping').send(PING)).status).to.equal(401);
    for (const [name, app] of apps) {
      expect((await supertest(app.callback()).post('/api/ping').send(PING)).status, name).to.equal(401);
      expect(
        (await supertest(app.callback()).post('/api/ping').set('Authorization', 'Bearer dk_sandbox_unknown').send(PING)).status,
        name,
      ).to.equal(401);
    }
  });
});
