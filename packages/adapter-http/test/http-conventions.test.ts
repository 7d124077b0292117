/**
 * The conventions every response follows (docs/decisions/api-conventions.md, docs/decisions/errors.md): headers, request ids,
 * JSON-only bodies, compression, 404/405, and errors that never leak internals.
 */
import { gunzipSync } from 'node:zlib';
import { request as httpRequest, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { versioning } from '@debtkit/core';
import type { RouteDef } from '../src/http/app-context.js';
import { Harness, deferred, harness } from './support/http-harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const expectStandardHeaders = (res: { headers: Record<string, string | undefined> }): void => {
  expect(res.headers['cache-control']).to.equal('no-store');
  expect(res.headers['x-content-type-options']).to.equal('nosniff');
  expect(res.headers['vary']).to.equal('Accept-Encoding');
  expect(res.headers['x-request-id']).to.be.a('string').and.not.equal('');
};

describe('HTTP conventions', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });

  describe('standard headers', () => {
    it('are on a success, a 404, a 401, a 415 and a 500 alike', async () => {
      const boom: RouteDef = { method: 'GET', path: '/boom', auth: 'none', handler: async () => Promise.reject(new Error('boom')) };
      const withBoom = await harness({ routes: [boom] });
      const responses = await Promise.all([
        withBoom.request.get('/healthz'),
        withBoom.request.get('/nowhere'),
        withBoom.request.post('/api/ping').send({ payload: 'x' }),
        withBoom.request.post('/api/ping').set(withBoom.auth).set('Content-Type', 'text/plain').send('hello'),
        withBoom.request.get('/boom'),
      ]);
      expect(responses.map((r) => r.status)).to.deep.equal([200, 404, 401, 415, 500]);
      for (const res of responses) expectStandardHeaders(res);
    });
  });

  describe('X-Request-Id', () => {
    it('keeps an acceptable client id', async () => {
      const res = await h.request.get('/healthz').set('X-Request-Id', 'abc.DEF_123-x');
      expect(res.headers['x-request-id']).to.equal('abc.DEF_123-x');
    });

    it('keeps a 128-character id and replaces a 129-character one', async () => {
      const ok = await h.request.get('/healthz').set('X-Request-Id', 'a'.repeat(128));
      const long = await h.request.get('/healthz').set('X-Request-Id', 'a'.repeat(129));
      expect(ok.headers['x-request-id']).to.equal('a'.repeat(128));
      expect(long.headers['x-request-id']).to.match(UUID);
    });

    it('replaces an id with unsafe characters by a UUID', async () => {
      const res = await h.request.get('/healthz').set('X-Request-Id', 'evil id;<script>');
      expect(res.headers['x-request-id']).to.match(UUID);
    });

    it('makes a new UUID per request when none is sent', async () => {
      const [a, b] = await Promise.all([h.request.get('/healthz'), h.request.get('/healthz')]);
      expect(a.headers['x-request-id']).to.match(UUID);
      expect(b.headers['x-request-id']).to.match(UUID);
      expect(a.headers['x-request-id']).to.not.equal(b.headers['x-request-id']);
    });

    it('is the request_id of an error body', async () => {
      const res = await h.request.get('/nowhere').set('X-Request-Id', 'trace-42');
      expect(res.body).to.deep.equal({ error: { code: 'not_found', message: 'No such route', request_id: 'trace-42' } });
    });
  });

  describe('routing', () => {
    it('answers an unknown route with 404 not_found in JSON', async () => {
      const res = await h.request.get('/api/nowhere').set(h.auth);
      expect(res.status).to.equal(404);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.body.error.code).to.equal('not_found');
    });

    it('answers a known path with a wrong method with 405 and Allow', async () => {
      const res = await h.request.get('/api/ping').set(h.auth);
      expect(res.status).to.equal(405);
      expect(res.body.error.code).to.equal('method_not_allowed');
      expect(res.headers['allow']).to.equal('POST, OPTIONS');
    });

    it('answers 405 for a method the router does not know, too', async () => {
      const res = await h.request.put('/healthz');
      expect(res.status).to.equal(405);
      expect(res.headers['allow']).to.equal('HEAD, GET, OPTIONS');
    });

    it('answers OPTIONS on a known path with 204 and Allow', async () => {
      const res = await h.request.options('/healthz');
      expect(res.status).to.equal(204);
      expect(res.headers['allow']).to.equal('HEAD, GET, OPTIONS');
    });

    it('answers HEAD on a GET route with the headers and no body', async () => {
      const res = await h.request.head('/healthz');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.text).to.equal(undefined);
    });

    it('is case-sensitive, so /API is not /api', async () => {
      const res = await h.request.post('/API/ping').send({ payload: 'x' });
      expect(res.status).to.equal(404);
    });

    it('refuses a route whose declared auth disagrees with its area', () => {
      const wrong: RouteDef = { method: 'GET', path: '/api/open', auth: 'none', handler: async () => undefined };
      return harness({ routes: [wrong] }).then(
        () => expect.fail('createApp accepted an unauthenticated /api route'),
        (err: Error) => expect(err.message).to.contain("declares auth 'none'"),
      );
    });

    it('refuses a route registered twice', () => {
      const twice: RouteDef = { method: 'GET', path: '/healthz', auth: 'none', handler: async () => undefined };
      return harness({ routes: [twice] }).then(
        () => expect.fail('createApp accepted a duplicate route'),
        (err: Error) => expect(err.message).to.contain('registered twice'),
      );
    });
  });

  describe('request bodies', () => {
    it('415 for a body that is not application/json', async () => {
      const res = await h.request.post('/api/ping').set(h.auth).set('Content-Type', 'text/plain').send('{"payload":"x"}');
      expect(res.status).to.equal(415);
      expect(res.body.error.code).to.equal('unsupported_media_type');
    });

    it('415 for a form body', async () => {
      const res = await h.request.post('/api/ping').set(h.auth).type('form').send({ payload: 'x' });
      expect(res.status).to.equal(415);
    });

    it('accepts application/json with a charset', async () => {
      const res = await h.request
        .post('/api/ping')
        .set(h.auth)
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ payload: 'hé' }));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ payload: 'hé' });
    });

    it('413 for a body over 1 MiB', async () => {
      const big = JSON.stringify({ payload: 'x'.repeat(1.1 * 1024 * 1024) });
      const res = await h.request.post('/api/ping').set(h.auth).set('Content-Type', 'application/json').send(big);
      expect(res.status).to.equal(413);
      expect(res.body.error.code).to.equal('payload_too_large');
    });

    it('400 validation_error for malformed JSON, without the parser message', async () => {
      const res = await h.request.post('/api/ping').set(h.auth).set('Content-Type', 'application/json').send('{"payload": ');
      expect(res.status).to.equal(400);
      expect(res.body.error).to.deep.include({ code: 'validation_error', message: 'The request body is not valid JSON' });
    });

    for (const [what, raw] of [
      ['an array', '["payload"]'],
      ['a number', '42'],
      ['a string', '"payload"'],
      ['null', 'null'],
    ] as const) {
      it(`400 validation_error for a JSON body that is ${what}`, async () => {
        const res = await h.request.post('/api/ping').set(h.auth).set('Content-Type', 'application/json').send(raw);
        expect(res.status).to.equal(400);
        expect(res.body.error).to.deep.include({ code: 'validation_error', message: 'The request body must be a JSON object' });
      });
    }

    it('400 for a prototype-poisoning body rather than a 500', async () => {
      const res = await h.request
        .post('/api/ping')
        .set(h.auth)
        .set('Content-Type', 'application/json')
        .send('{"__proto__": {"x": 1}, "payload": "p"}');
      expect(res.status).to.equal(400);
      expect(res.body.error.code).to.equal('validation_error');
    });
  });

  describe('compression', () => {
    const big = 'a'.repeat(1024); // {"payload":"aaa…"} is over 1 KiB

    it('gzips a body of 1 KiB or more when asked', async () => {
      const res = await h.request
        .post('/api/ping')
        .set(h.auth)
        .set('Accept-Encoding', 'gzip')
        .send({ payload: big })
        .buffer(true)
        .parse((stream, done) => {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(res.status).to.equal(200);
      expect(res.headers['content-encoding']).to.equal('gzip');
      expect(res.headers['vary']).to.equal('Accept-Encoding');
      // superagent may already have inflated it; either way the JSON is the payload.
      const raw = res.body as Buffer;
      const text = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
      expect(JSON.parse(text)).to.deep.equal({ payload: big });
    });

    it('uses br when the client prefers it', async () => {
      const res = await h.request.post('/api/ping').set(h.auth).set('Accept-Encoding', 'br').send({ payload: big });
      expect(res.headers['content-encoding']).to.equal('br');
    });

    it('leaves a small body uncompressed, still with Vary', async () => {
      const res = await h.request.post('/api/ping').set(h.auth).set('Accept-Encoding', 'gzip, br').send({ payload: 'small' });
      expect(res.headers['content-encoding']).to.equal(undefined);
      expect(res.headers['vary']).to.equal('Accept-Encoding');
      expect(res.body).to.deep.equal({ payload: 'small' });
    });

    it('does not compress for a client that does not ask', async () => {
      const res = await h.request.post('/api/ping').set(h.auth).set('Accept-Encoding', 'identity').send({ payload: big });
      expect(res.headers['content-encoding']).to.equal(undefined);
    });
  });

  describe('unexpected errors', () => {
    const secret = 'connect ECONNREFUSED mongodb://admin:hunter2@db.internal:27017';
    const failing: RouteDef = {
      method: 'GET',
      path: '/api/test/explode',
      auth: 'client',
      handler: async () => {
        throw new Error(secret);
      },
    };

    it('answers 500 with a generic message and no internals', async () => {
      const t = await harness({ routes: [failing] });
      const res = await t.request.get('/api/test/explode').set(t.auth).set('X-Request-Id', 'req-500');
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({
        error: { code: 'internal_server_error', message: 'An unexpected error occurred', request_id: 'req-500' },
      });
      expect(res.text).to.not.contain('hunter2');
      expect(res.text).to.not.contain('    at ');
      expect(res.headers['api-version']).to.equal('2024-07-01'); // the harness client's pinned version (test/support/http-harness.ts)
    });

    it('logs the error with its stack and the request id', async () => {
      const t = await harness({ routes: [failing] });
      await t.request.get('/api/test/explode').set(t.auth).set('X-Request-Id', 'req-500');
      const line = await t.log.next((l) => l.msg === 'unhandled error');
      expect(line.level).to.equal(50);
      expect(line['request_id']).to.equal('req-500');
      expect((line['err'] as { stack: string }).stack).to.contain('hunter2');
    });

    it('maps a DomainError value thrown by a handler through the error table', async () => {
      const conflictRoute: RouteDef = {
        method: 'POST',
        path: '/api/test/conflict',
        auth: 'client',
        handler: async () => {
          throw { _tag: 'conflict', message: 'Awaiting the validate_otp step' };
        },
      };
      const t = await harness({ routes: [conflictRoute] });
      const res = await t.request.post('/api/test/conflict').set(t.auth);
      expect(res.status).to.equal(409);
      expect(res.body.error).to.deep.include({ code: 'conflict', message: 'Awaiting the validate_otp step' });
    });

    it('answers unavailable as 503 service_unavailable with Retry-After', async () => {
      const down: RouteDef = {
        method: 'GET',
        path: '/api/test/down',
        auth: 'client',
        handler: async () => {
          throw { _tag: 'unavailable', message: 'The store is not reachable' };
        },
      };
      const t = await harness({ routes: [down] });
      const res = await t.request.get('/api/test/down').set(t.auth);
      expect(res.status).to.equal(503);
      expect(res.headers['retry-after']).to.equal('5');
      expect(res.body.error.code).to.equal('service_unavailable');
    });
  });

  describe('request log', () => {
    it('writes one line per request with the route pattern, status, duration and request id', async () => {
      const byId: RouteDef = {
        method: 'GET',
        path: '/api/things/:thing_id',
        auth: 'client',
        handler: async (ctx) => void (ctx.status = 204),
      };
      const t = await harness({ routes: [byId] });
      await t.request.get('/api/things/77?secret=q').set(t.auth).set('X-Request-Id', 'log-1');
      const lines = t.log.lines.filter((l) => l['request_id'] === 'log-1');
      expect(lines).to.have.length(1);
      const [line] = lines;
      expect(line).to.deep.include({ level: 30, msg: 'request', method: 'GET', route: '/api/things/:thing_id', status: 204 });
      expect(line?.['duration_ms']).to.be.a('number');
    });

    it('never logs the Authorization header or the body', async () => {
      await h.request.post('/api/ping').set(h.auth).send({ payload: 'private-payload-7' });
      expect(h.log.lines).to.have.length.greaterThan(0);
      expect(h.log.text).to.not.contain(h.token);
      expect(h.log.text).to.not.contain('private-payload-7');
    });

    it('logs a request refused before its handler (401) under its route pattern, like the metrics count it', async () => {
      await h.request.get('/api/users/12/credit_scores').set('X-Request-Id', 'log-401');
      const line = await h.log.next((l) => l['request_id'] === 'log-401');
      expect(line).to.deep.include({ route: '/api/users/:id/credit_scores', status: 401 });
    });

    it('logs the raw path of an unmatched request', async () => {
      await h.request.get('/nowhere/at/all').set('X-Request-Id', 'log-2');
      const line = await h.log.next((l) => l['request_id'] === 'log-2');
      expect(line).to.deep.include({ route: '/nowhere/at/all', status: 404 });
    });

    it('logs a client that disconnects mid-request at info, not as an error', async () => {
      const entered = deferred();
      const closed = deferred();
      const release = deferred();
      const slow: RouteDef = {
        method: 'GET',
        path: '/slow',
        auth: 'none',
        handler: async (ctx) => {
          ctx.req.once('close', () => closed.resolve());
          entered.resolve();
          await release.promise;
          ctx.body = { late: true };
        },
      };
      const t = await harness({ routes: [slow] });
      const server = createServer(t.app.callback());
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const { port } = server.address() as AddressInfo;
        const req = httpRequest({ port, host: '127.0.0.1', path: '/slow', headers: { 'X-Request-Id': 'gone-1' } });
        req.on('error', () => undefined); // the client itself aborts: its socket error is expected
        req.end();
        await entered.promise;
        req.destroy();
        await closed.promise;
        release.resolve();
        const line = await t.log.next((l) => l['request_id'] === 'gone-1');
        expect(line).to.deep.include({ level: 30, aborted: true });
        expect(t.log.lines.filter((l) => l.level >= 50)).to.deep.equal([]);
      } finally {
        server.close();
      }
    });
  });
});
