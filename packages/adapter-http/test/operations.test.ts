/**
 * The endpoints that need no use case: ping, /healthz, /readyz (docs/operations.md).
 */
import { expect } from 'chai';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { unavailable } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { Harness, harness } from './support/http-harness.js';

describe('operations endpoints', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });

  describe('POST /api/ping', () => {
    it('echoes the payload', async () => {
      const res = await h.request.post('/api/ping').set(h.auth).send({ payload: 'hello' });
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
      expect(res.body).to.deep.equal({ payload: 'hello' });
    });

    it('takes a payload of exactly 1024 characters and refuses 1025', async () => {
      const ok = await h.request
        .post('/api/ping')
        .set(h.auth)
        .send({ payload: 'p'.repeat(1024) });
      const long = await h.request
        .post('/api/ping')
        .set(h.auth)
        .send({ payload: 'p'.repeat(1025) });
      expect(ok.status).to.equal(200);
      expect(long.status).to.equal(400);
      expect(long.body.error.details[0].path).to.equal('payload');
    });

    it('400 with details for a missing payload, a number, or an unknown field', async () => {
      const [missing, number, unknown] = await Promise.all([
        h.request.post('/api/ping').set(h.auth),
        h.request.post('/api/ping').set(h.auth).send({ payload: 7 }),
        h.request.post('/api/ping').set(h.auth).send({ payload: 'x', extra: true }),
      ]);
      expect([missing.status, number.status, unknown.status]).to.deep.equal([400, 400, 400]);
      expect(missing.body.error.details[0].path).to.equal('payload');
      expect(number.body.error.details[0].path).to.equal('payload');
      expect(unknown.body.error.details).to.deep.equal([{ path: 'extra', message: 'is not a known field' }]);
    });
  });

  describe('probes', () => {
    it('GET /healthz is 200 without a token', async () => {
      const res = await h.request.get('/healthz');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'ok' });
    });

    it('GET /healthz with a query parameter is 400 validation_error, as its OpenAPI entry lists (docs/decisions/errors.md)', async () => {
      const res = await h.request.get('/healthz?verbose=1');
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('validation_error');
    });

    it('GET /readyz is 200 when the store answers', async () => {
      const res = await h.request.get('/readyz');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'ready' });
    });

    it('GET /readyz is 503 service_unavailable with Retry-After when the store does not', async () => {
      const down = await harness({
        store: { ...createMemoryStore(), health: { ping: () => TE.left(unavailable('ECONNREFUSED 10.0.0.7')) } },
      });
      const res = await down.request.get('/readyz');
      expect(res.status).to.equal(503);
      expect(res.headers['retry-after']).to.equal('5');
      expect(res.body.error.code).to.equal('service_unavailable');
      expect(res.text).to.not.contain('10.0.0.7');
    });
  });
});
