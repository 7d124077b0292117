/**
 * The admin API (docs/operations.md): every success and every refusal.
 */
import { expect } from 'chai';
import { versioning } from '@debtkit/core';
import { Sha256TokenHasher } from '../src/http/token-issuer.js';

const hashToken = (token: string): string => new Sha256TokenHasher().hash(token);
import { ADMIN_TOKEN, Harness, harness } from './support/http-harness.js';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';

const TOKEN_SHAPE = /^dk_sandbox_[A-Za-z0-9_-]{43}$/;

describe('admin API', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });

  describe('authentication', () => {
    it('401 with WWW-Authenticate without a token', async () => {
      const res = await h.request.get('/admin/clients');
      expect(res.status).to.equal(401);
      expect(res.headers['www-authenticate']).to.equal('Bearer');
      expect(res.body.error.code).to.equal('unauthorized');
    });

    it('401 for a wrong admin token', async () => {
      const res = await h.request.get('/admin/clients').set('Authorization', `Bearer ${ADMIN_TOKEN}x`);
      expect(res.status).to.equal(401);
    });

    it("403 forbidden for a client's valid token", async () => {
      const res = await h.request.get('/admin/clients').set(h.auth);
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('forbidden');
    });

    it('404 everywhere under /admin when no admin token is configured', async () => {
      const closed = await harness({ adminToken: null });
      const [list, create] = await Promise.all([
        closed.request.get('/admin/clients').set(closed.admin),
        closed.request.post('/admin/clients').set(closed.admin).send({ name: 'X' }),
      ]);
      expect([list.status, create.status]).to.deep.equal([404, 404]);
      expect(list.body.error.code).to.equal('not_found');
    });

    it('the admin token is no client token: 401 on /api', async () => {
      const res = await h.request.post('/api/ping').set(h.admin).send({ payload: 'x' });
      expect(res.status).to.equal(401);
    });
  });

  describe('POST /admin/clients', () => {
    it('201 with the client and its token, pinned to the latest version, in the server environment', async () => {
      const res = await h.request.post('/admin/clients').set(h.admin).send({ name: 'Budget App' });
      expect(res.status).to.equal(201);
      expect(res.body.client).to.deep.include({ name: 'Budget App', environment: 'sandbox', api_version: versioning.latest });
      expect(res.body.client.id).to.be.a('number');
      expect(res.body.client.created_at).to.equal('2026-03-15T12:00:00.000Z');
      expect(res.body.token).to.match(TOKEN_SHAPE);
    });

    it('stores only the hash of the token, and the token works on /api', async () => {
      const res = await h.request.post('/admin/clients').set(h.admin).send({ name: 'Budget App' });
      const stored = await h.store.tokens.findByHash(hashToken(res.body.token))();
      expect(E.isRight(stored) && O.isSome(stored.right) && stored.right.value.hash).to.equal(hashToken(res.body.token));
      const ping = await h.request.post('/api/ping').set('Authorization', `Bearer ${res.body.token}`).send({ payload: 'p' });
      expect(ping.status).to.equal(200);
    });

    it('issues production tokens on a production server', async () => {
      const live = await harness({ environment: 'production' });
      const res = await live.request.post('/admin/clients').set(live.admin).send({ name: 'Live App' });
      expect(res.body.client.environment).to.equal('production');
      expect(res.body.token).to.match(/^dk_live_[A-Za-z0-9_-]{43}$/);
    });

    it('400 for a missing name, an empty one, or an unknown field', async () => {
      const responses = await Promise.all([
        h.request.post('/admin/clients').set(h.admin).send({}),
        h.request.post('/admin/clients').set(h.admin).send({ name: '' }),
        h.request.post('/admin/clients').set(h.admin).send({ name: 'A', environment: 'production' }),
      ]);
      expect(responses.map((r) => r.status)).to.deep.equal([400, 400, 400]);
      expect(responses[0]?.body.error.details).to.deep.equal([{ path: 'name', message: 'is required (string(1..100))' }]);
      expect(responses[2]?.body.error.details).to.deep.equal([{ path: 'environment', message: 'is not a known field' }]);
    });
  });

  describe('GET /admin/clients', () => {
    it('lists clients ascending by id, paged with limit and starting_after', async () => {
      for (const name of ['B', 'C', 'D']) await h.request.post('/admin/clients').set(h.admin).send({ name }).expect(201);
      const first = await h.request.get('/admin/clients?limit=2').set(h.admin);
      expect(first.status).to.equal(200);
      expect(first.body.clients.map((c: { name: string }) => c.name)).to.deep.equal(['Test app', 'B']);
      expect(first.body.has_more).to.equal(true);
      const last = first.body.clients[1].id as number;
      const second = await h.request.get(`/admin/clients?limit=2&starting_after=${last}`).set(h.admin);
      expect(second.body.clients.map((c: { name: string }) => c.name)).to.deep.equal(['C', 'D']);
      expect(second.body.has_more).to.equal(false);
    });

    it('defaults to 20 per page', async () => {
      for (let i = 0; i < 21; i++)
        await h.request
          .post('/admin/clients')
          .set(h.admin)
          .send({ name: `c${i}` })
          .expect(201);
      const res = await h.request.get('/admin/clients').set(h.admin);
      expect(res.body.clients).to.have.length(20);
      expect(res.body.has_more).to.equal(true);
    });

    for (const query of ['limit=0', 'limit=101', 'limit=x', 'starting_after=0', 'starting_after=-1', 'color=red']) {
      it(`400 for ${query}`, async () => {
        const res = await h.request.get(`/admin/clients?${query}`).set(h.admin);
        expect(res.status).to.equal(400);
        expect(res.body.error.code).to.equal('validation_error');
      });
    }
  });

  describe('POST /admin/clients/:client_id/tokens', () => {
    it('201 with a new token that works alongside the first', async () => {
      const res = await h.request.post(`/admin/clients/${h.client.id}/tokens`).set(h.admin);
      expect(res.status).to.equal(201);
      expect(res.body.token_id).to.be.a('number');
      expect(res.body.token).to.match(TOKEN_SHAPE);
      const [withNew, withOld] = await Promise.all([
        h.request.post('/api/ping').set('Authorization', `Bearer ${res.body.token}`).send({ payload: 'p' }),
        h.request.post('/api/ping').set(h.auth).send({ payload: 'p' }),
      ]);
      expect([withNew.status, withOld.status]).to.deep.equal([200, 200]);
    });

    it('404 for an unknown client', async () => {
      const res = await h.request.post('/admin/clients/999/tokens').set(h.admin);
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('not_found');
    });

    it('400 for a client id that is not an id', async () => {
      const res = await h.request.post('/admin/clients/abc/tokens').set(h.admin);
      expect(res.status).to.equal(400);
      expect(res.body.error.details).to.deep.equal([
        { path: 'client_id', message: 'must be a positive integer id (1 to 9007199254740991)' },
      ]);
    });

    it('400 for a non-empty body', async () => {
      const res = await h.request.post(`/admin/clients/${h.client.id}/tokens`).set(h.admin).send({ name: 'x' });
      expect(res.status).to.equal(400);
    });
  });

  describe('DELETE /admin/tokens/:token_id', () => {
    it('204, and the token stops working at once', async () => {
      const issued = await h.request.post(`/admin/clients/${h.client.id}/tokens`).set(h.admin).expect(201);
      const auth = { Authorization: `Bearer ${issued.body.token}` };
      await h.request.post('/api/ping').set(auth).send({ payload: 'p' }).expect(200);
      const res = await h.request.delete(`/admin/tokens/${issued.body.token_id}`).set(h.admin);
      expect(res.status).to.equal(204);
      expect(res.text).to.equal('');
      const after = await h.request.post('/api/ping').set(auth).send({ payload: 'p' });
      expect(after.status).to.equal(401);
      // The client's other token is untouched.
      await h.request.post('/api/ping').set(h.auth).send({ payload: 'p' }).expect(200);
    });

    it('404 for an unknown token', async () => {
      const res = await h.request.delete('/admin/tokens/4242').set(h.admin);
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('not_found');
    });

    it('405 with Allow for another method', async () => {
      const res = await h.request.get('/admin/tokens/1').set(h.admin);
      expect(res.status).to.equal(405);
      expect(res.headers['allow']).to.equal('DELETE, OPTIONS');
    });
  });
});
