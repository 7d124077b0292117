/**
 * The response head: every answer goes out through Koa with the pipeline's
 * headers (set with `ctx.set`), JSON or not. Read off the wire (raw header
 * lines, so a duplicate would show), for both kinds of answer, for HEAD, and
 * with headers a handler set on the response itself.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { versioning } from '@debtkit/core';
import type { RouteDef } from '../src/http/app-context.js';
import { writeJson } from '../src/http/json-response.js';
import { harness, type Harness } from './support/http-harness.js';

interface RawResponse {
  readonly status: number;
  /** Header names as sent, lower-cased, in order (duplicates kept). */
  readonly names: ReadonlyArray<string>;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One request over a real socket, keeping the raw header lines. */
const exchange = async (h: Harness, method: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> => {
  const server = createServer(h.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<RawResponse>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { ...h.auth, ...headers } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            names: res.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase()),
            headers: res.headers,
            body,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
};

/** What every `/api` answer carries (docs/decisions/api-conventions.md, docs/decisions/rate-limits.md, and the security headers). */
const API_HEADERS = [
  'x-request-id',
  'cache-control',
  'x-content-type-options',
  'vary',
  'referrer-policy',
  'x-frame-options',
  'api-version',
  'content-type',
  'content-length',
];

const expectEachOnce = (response: RawResponse, names: ReadonlyArray<string>): void => {
  for (const name of names)
    expect(
      response.names.filter((n) => n === name),
      name,
    ).to.have.length(1);
};

describe('response head', () => {
  const custom: RouteDef[] = [
    {
      method: 'GET',
      path: '/api/head-test/json',
      auth: 'client',
      handler: async (ctx) => {
        // Two headers set on the response beside the JSON answer.
        ctx.set('X-Handler', 'direct');
        ctx.set('X-Head', 'listed');
        writeJson(ctx, 201, { ok: true, text: 'é' });
      },
    },
    {
      method: 'GET',
      path: '/api/head-test/text',
      auth: 'client',
      handler: async (ctx) => {
        ctx.type = 'text/plain';
        ctx.body = 'plain words';
      },
    },
    {
      method: 'GET',
      path: '/api/head-test/edit',
      auth: 'client',
      handler: async (ctx) => {
        ctx.set('x-request-id', 'replaced');
        expect(ctx.response.get('X-REQUEST-ID')).to.equal('replaced');
        ctx.remove('Referrer-Policy');
        expect(ctx.response.get('referrer-policy')).to.equal(undefined);
        ctx.set('X-Direct', 'yes');
        expect(ctx.response.get('x-direct')).to.equal('yes');
        writeJson(ctx, 200, {});
      },
    },
  ];
  let h: Harness;
  before(async () => {
    h = await harness({ routes: custom });
  });

  it('a JSON answer carries every header once, with its Content-Length in bytes, and headers set on the response too', async () => {
    const res = await exchange(h, 'GET', '/api/head-test/json');
    expect(res.status).to.equal(201);
    expect(JSON.parse(res.body)).to.deep.equal({ ok: true, text: 'é' });
    expectEachOnce(res, [...API_HEADERS, 'x-handler', 'x-head']);
    expect(res.headers['content-length']).to.equal(String(Buffer.byteLength(res.body)));
    expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(res.headers['api-version']).to.equal('2024-07-01'); // the harness client's pinned version (test/support/http-harness.ts)
    expect(res.headers['x-handler']).to.equal('direct');
    expect(res.headers['x-head']).to.equal('listed');
  });

  it('HEAD has the GET answer’s headers and Content-Length, and no body', async () => {
    const get = await exchange(h, 'GET', '/api/head-test/json');
    const head = await exchange(h, 'HEAD', '/api/head-test/json');
    expect(head.status).to.equal(201);
    expect(head.body).to.equal('');
    expect(head.headers['content-length']).to.equal(get.headers['content-length']);
    expectEachOnce(head, API_HEADERS);
  });

  it('an answer Koa sends (not JSON) carries the same headers', async () => {
    const res = await exchange(h, 'GET', '/api/head-test/text');
    expect(res.status).to.equal(200);
    expect(res.body).to.equal('plain words');
    expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
    expectEachOnce(res, API_HEADERS);
  });

  it('a step can replace or remove a listed header (names are case-insensitive), and read one set on the response', async () => {
    const res = await exchange(h, 'GET', '/api/head-test/edit', { 'X-Request-Id': 'from-client' });
    expect(res.status).to.equal(200);
    expect(res.headers['x-request-id']).to.equal('replaced');
    expect(res.names).to.not.include('referrer-policy');
    expect(res.headers['x-direct']).to.equal('yes');
  });

  it('a compressed answer (Koa sends it) keeps the headers and is not sent twice', async () => {
    const res = await exchange(h, 'GET', '/api/learning_modules', { 'Accept-Encoding': 'gzip' });
    expect(res.status).to.equal(200);
    expect(res.headers['content-encoding']).to.equal('gzip');
    expectEachOnce(res, [
      'x-request-id',
      'cache-control',
      'x-content-type-options',
      'vary',
      'api-version',
      'content-type',
      'content-encoding',
    ]);
  });

  it('an error answer carries the headers once, with its own (Allow on a 405)', async () => {
    const res = await exchange(h, 'PUT', '/api/head-test/json');
    expect(res.status).to.equal(405);
    expectEachOnce(res, [...API_HEADERS, 'allow']);
    expect(JSON.parse(res.body).error.code).to.equal('method_not_allowed');
  });
});
