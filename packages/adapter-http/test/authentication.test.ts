/**
 * Client authentication and API versioning on `/api` (docs/decisions/versioning.md).
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { TokenRepository, unavailable, versioning } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { generateToken } from '../src/http/token-issuer.js';
import { Harness, harness } from './support/http-harness.js';

const ping = (h: Harness, headers: Record<string, string>) => h.request.post('/api/ping').set(headers).send({ payload: 'hello' });

const expectUnauthorized = (res: { status: number; headers: Record<string, string>; body: { error: { code: string } } }): void => {
  expect(res.status).to.equal(401);
  expect(res.headers['www-authenticate']).to.equal('Bearer');
  expect(res.body.error.code).to.equal('unauthorized');
};

describe('client authentication', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });

  it('lets a valid token through', async () => {
    const res = await ping(h, h.auth);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ payload: 'hello' });
  });

  it('accepts the scheme in any case', async () => {
    const res = await ping(h, { Authorization: `bearer ${h.token}` });
    expect(res.status).to.equal(200);
  });

  it('401 without a token', async () => {
    expectUnauthorized(await ping(h, {}));
  });

  it('401 for another scheme', async () => {
    expectUnauthorized(await ping(h, { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }));
  });

  it('401 for a malformed token', async () => {
    expectUnauthorized(await ping(h, { Authorization: 'Bearer dk_sandbox_short' }));
  });

  it('401 for a token of the other environment', async () => {
    const live = await harness({ environment: 'production' });
    // The sandbox client's token on a production server, and the reverse.
    expectUnauthorized(await ping(live, h.auth));
    expectUnauthorized(await ping(h, live.auth));
    expect((await ping(live, live.auth)).status).to.equal(200);
  });

  it('401 for a well-formed token nobody issued', async () => {
    expectUnauthorized(await ping(h, { Authorization: `Bearer ${generateToken('sandbox')}` }));
  });

  it('401 for a revoked token, from its next request on', async () => {
    const second = await h.clientAccess.createClient({ name: 'Other', environment: 'sandbox', apiVersion: versioning.latest })();
    if (E.isLeft(second)) throw new Error(second.left.message);
    const auth = { Authorization: `Bearer ${second.right.token}` };
    expect((await ping(h, auth)).status).to.equal(200);
    await h.request.delete(`/admin/tokens/${second.right.tokenId}`).set(h.admin).expect(204);
    expectUnauthorized(await ping(h, auth));
  });

  it('never echoes the token', async () => {
    const wrong = generateToken('sandbox');
    const res = await ping(h, { Authorization: `Bearer ${wrong}` });
    expect(res.text).to.not.contain(wrong);
  });

  it('checks the token before the route, so an unknown /api path is 401 without one', async () => {
    expectUnauthorized(await h.request.get('/api/nowhere'));
  });

  it('answers 503 when the token store is down, not 401', async () => {
    const base = createMemoryStore();
    const tokens: TokenRepository = {
      create: (...args) => base.tokens.create(...args),
      revoke: (...args) => base.tokens.revoke(...args),
      findById: (...args) => base.tokens.findById(...args),
      listByClient: (...args) => base.tokens.listByClient(...args),
      expire: (...args) => base.tokens.expire(...args),
      findByHash: () => TE.left(unavailable('store down')),
    };
    const down = await harness({ store: { ...base, tokens } });
    const res = await ping(down, down.auth);
    expect(res.status).to.equal(503);
    expect(res.headers['retry-after']).to.equal('5');
    expect(res.body.error.code).to.equal('service_unavailable');
    expect(res.text).to.not.contain('store down');
  });
});

describe('API versioning', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });

  it("answers in the client's pinned version and names it", async () => {
    const res = await ping(h, h.auth);
    expect(res.headers['api-version']).to.equal(h.client.api_version);
  });

  it('takes a known API-Version header', async () => {
    const res = await ping(h, { ...h.auth, 'API-Version': versioning.latest });
    expect(res.status).to.equal(200);
    expect(res.headers['api-version']).to.equal(versioning.latest);
  });

  it('400 unsupported_version for an unknown version, listing the known ones', async () => {
    const res = await ping(h, { ...h.auth, 'API-Version': '1999-01-01' });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('unsupported_version');
    expect(res.body.error.message).to.contain('1999-01-01').and.contain(versioning.latest);
  });

  it('does not echo a version header that is not a date', async () => {
    const res = await ping(h, { ...h.auth, 'API-Version': '<script>' });
    expect(res.status).to.equal(400);
    expect(res.text).to.not.contain('<script>');
  });

  it('names a version on /api errors too, including 401 and 404', async () => {
    const unauthorized = await h.request.get('/api/nowhere');
    const notFound = await h.request.get('/api/nowhere').set(h.auth);
    expect(unauthorized.headers['api-version']).to.equal(versioning.latest);
    expect(notFound.headers['api-version']).to.equal(h.client.api_version);
  });

  it('does not version the admin API or the probes', async () => {
    const [admin, health] = await Promise.all([h.request.get('/admin/clients').set(h.admin), h.request.get('/healthz')]);
    expect(admin.headers['api-version']).to.equal(undefined);
    expect(health.headers['api-version']).to.equal(undefined);
  });
});
