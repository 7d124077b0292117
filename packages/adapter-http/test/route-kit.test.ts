/**
 * The handler tools: strict path ids, body and query decoding, use-case errors.
 */
import { expect } from 'chai';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as t from 'io-ts';
import { bureauError, strictObject } from '@debtkit/core';
import type { RouteDef } from '../src/http/app-context.js';
import { clientOf, decodeBody, decodeQuery, parseId, respond, runUseCase } from '../src/http/route-kit.js';
import { Harness, harness } from './support/http-harness.js';

const routes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/things/:account_id',
    auth: 'client',
    handler: async (ctx) => respond(ctx, 200, 'ping', { id: parseId(ctx, 'account_id'), client: clientOf(ctx).id }),
  },
  {
    method: 'POST',
    path: '/api/things',
    auth: 'client',
    handler: async (ctx) => respond(ctx, 201, 'ping', decodeBody(ctx, strictObject('ThingBody', {}, { name: t.string }))),
  },
  {
    method: 'GET',
    path: '/api/things',
    auth: 'client',
    handler: async (ctx) => respond(ctx, 200, 'ping', decodeQuery(ctx, strictObject('ThingQuery', {}, { color: t.string }))),
  },
  {
    method: 'POST',
    path: '/api/things/:account_id/invoke',
    auth: 'client',
    handler: async (ctx) => respond(ctx, 200, 'ping', await runUseCase(TE.left(bureauError('No product matches this user')))),
  },
];

describe('route kit', () => {
  let h: Harness;
  before(async () => {
    h = await harness({ routes });
  });

  describe('parseId', () => {
    for (const good of ['1', '42', '9007199254740991']) {
      it(`accepts ${good}`, async () => {
        const res = await h.request.get(`/api/things/${good}`).set(h.auth);
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ id: Number(good), client: h.client.id });
      });
    }

    for (const bad of ['0', '-1', '1.5', '01', 'abc', '1e3', '9007199254740992', '9007199254740993', '12345678901234567', '%20']) {
      it(`refuses ${bad} with 400 naming the parameter`, async () => {
        const res = await h.request.get(`/api/things/${bad}`).set(h.auth);
        expect(res.status).to.equal(400);
        expect(res.body.error.code).to.equal('validation_error');
        expect(res.body.error.details).to.deep.equal([
          { path: 'account_id', message: 'must be a positive integer id (1 to 9007199254740991)' },
        ]);
      });
    }
  });

  describe('decodeBody and decodeQuery', () => {
    it('decodes a body, and treats no body as {}', async () => {
      const [withBody, without] = await Promise.all([
        h.request.post('/api/things').set(h.auth).send({ name: 'n' }),
        h.request.post('/api/things').set(h.auth),
      ]);
      expect([withBody.status, without.status]).to.deep.equal([201, 201]);
      expect(withBody.body).to.deep.equal({ name: 'n' });
      expect(without.body).to.deep.equal({});
    });

    it('400 with details for a body that does not decode', async () => {
      const res = await h.request.post('/api/things').set(h.auth).send({ name: 3 });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.include({ code: 'validation_error', message: 'Invalid request body' });
      expect(res.body.error.details[0].path).to.equal('name');
    });

    it('decodes the query string; an unknown or repeated parameter is 400', async () => {
      const [ok, unknown, repeated] = await Promise.all([
        h.request.get('/api/things?color=red').set(h.auth),
        h.request.get('/api/things?size=1').set(h.auth),
        h.request.get('/api/things?color=red&color=blue').set(h.auth),
      ]);
      expect(ok.body).to.deep.equal({ color: 'red' });
      expect([unknown.status, repeated.status]).to.deep.equal([400, 400]);
      expect(unknown.body.error.message).to.equal('Invalid query string');
    });
  });

  describe('runUseCase', () => {
    it("answers a use case's Left through the error table", async () => {
      const res = await h.request.post('/api/things/1/invoke').set(h.auth);
      expect(res.status).to.equal(422);
      expect(res.body.error).to.deep.include({ code: 'bureau_error', message: 'No product matches this user' });
    });
  });
});
