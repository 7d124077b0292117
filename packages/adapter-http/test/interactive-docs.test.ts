/**
 * docs/sandbox-over-time.md: `GET /docs` over HTTP: the page and its assets, their types,
 * Content-Security-Policy, caching (ETag, fingerprints) and compression, and
 * 404 when the docs are off (DEBTKIT_DOCS). The browser test
 * (interactive-docs-browser.test.ts) drives the page itself.
 */
import { readFileSync } from 'node:fs';
import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import supertest from 'supertest';
import { versioning } from '@debtkit/core';
import { harness } from './support/http-harness.js';
import Koa from 'koa';
import { DOCS_CONTENT_SECURITY_POLICY, interactiveDocs } from '../src/http/interactive-docs.js';

const swaggerUiDist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** A binary body, as it came (supertest would otherwise decode or drop it). */
const raw = (req: supertest.Test): supertest.Test =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

/** A GET through node:http, which (unlike supertest) never decodes the body: the bytes as they were sent. */
const sentBytes = (
  server: Server,
  path: string,
  headers: Record<string, string>,
): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> =>
  new Promise((resolve, reject) => {
    const { port } = server.address() as AddressInfo;
    get({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });

describe('interactive docs over HTTP (GET /docs)', () => {
  let request: ReturnType<typeof supertest>;
  let server: Server;
  let html: string;
  /** The asset URLs the page links, as written (relative to /docs's directory). */
  let linked: string[];

  before(async () => {
    const h = await harness({ docs: true });
    request = h.request;
    server = createServer(h.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const res = await request.get('/docs');
    expect(res.status).to.equal(200);
    html = res.text;
    linked = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers the page as HTML, under a strict Content-Security-Policy, revalidated by its ETag', async () => {
    const res = await request.get('/docs');
    expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).to.equal(DOCS_CONTENT_SECURITY_POLICY);
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
    ]) {
      expect(res.headers['content-security-policy']).to.include(directive);
    }
    expect(res.headers['content-security-policy']).not.to.include('unsafe');
    expect(res.headers['x-frame-options']).to.equal('DENY');
    expect(res.headers['cache-control']).to.equal('no-cache');
    expect(res.headers['etag']).to.match(/^"[A-Za-z0-9_-]{27}(-(br|gzip))?"$/);
    const again = await request.get('/docs').set('If-None-Match', res.headers['etag']!);
    expect(again.status).to.equal(304);
    expect(again.text).to.equal('');
    const head = await request.head('/docs');
    expect(head.status).to.equal(200);
    expect(head.headers['content-type']).to.equal('text/html; charset=utf-8');
  });

  it('has no inline script or style, and loads everything from this server', () => {
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    for (const [, attributes, text] of scripts) {
      // Either an external file of this server, or the JSON data block (not run).
      if (attributes!.includes('type="application/json"')) JSON.parse(text!);
      else (expect(attributes, 'a script').to.match(/ src="docs\/assets\/[^"]+"/), expect(text).to.equal(''));
    }
    expect(html).not.to.match(/<style|\sstyle=|\son[a-z]+=/i);
    for (const url of linked) expect(url, 'a relative URL of this server').to.match(/^docs\/assets\/[a-z0-9.-]+\?v=[A-Za-z0-9_-]{27}$/);
  });

  it('offers every version the server knows, newest first, each with its document', () => {
    const data = /<script id="debtkit-docs-config" type="application\/json">([^<]*)<\/script>/.exec(html);
    const { versions } = JSON.parse(data![1]!) as { versions: Array<{ name: string; url: string }> };
    expect(versions.map((v) => v.name)).to.deep.equal([...versioning.known].sort().reverse());
    for (const v of versions) expect(v.url).to.equal(`openapi.json?version=${v.name}`);
  });

  it('serves each linked asset with its type, cached for a year under its fingerprint and revalidated under any other URL', async () => {
    const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', png: 'image/png' };
    expect(linked.length).to.equal(5);
    for (const url of linked) {
      const path = `/${url}`;
      const res = await raw(request.get(path).set('Accept-Encoding', 'identity'));
      expect(res.status, path).to.equal(200);
      expect(res.headers['content-type'], path).to.equal(types[/\.([a-z]+)\?/.exec(url)![1]!]);
      expect(res.headers['cache-control'], path).to.equal('public, max-age=31536000, immutable');
      expect(res.headers['etag'], path).to.equal(`"${url.split('?v=')[1]}"`);
      const plain = await request.get(path.split('?')[0]!).set('Accept-Encoding', 'identity');
      expect(plain.headers['cache-control'], path).to.equal('no-cache');
      expect(plain.headers['etag'], path).to.equal(res.headers['etag']);
    }
  });

  it("serves swagger-ui-dist's own files, compressed once per coding with an ETag per coding", async () => {
    const bundle = readFileSync(join(swaggerUiDist, 'swagger-ui-bundle.js'));
    const br = await sentBytes(server, '/docs/assets/swagger-ui-bundle.js', { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).to.equal('br');
    expect(br.headers['etag']).to.match(/-br"$/);
    expect(brotliDecompressSync(br.body).equals(bundle)).to.equal(true);
    expect(br.body.length).to.be.lessThan(bundle.length / 3);
    const gz = await sentBytes(server, '/docs/assets/swagger-ui-bundle.js', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gz.headers['etag']).to.match(/-gzip"$/);
    expect(gunzipSync(gz.body).equals(bundle)).to.equal(true);
    const unchanged = await request
      .get('/docs/assets/swagger-ui-bundle.js')
      .set('Accept-Encoding', 'br')
      .set('If-None-Match', br.headers['etag']!);
    expect(unchanged.status).to.equal(304);
    // A small file (under the 1 KiB threshold) is sent as it is.
    const icon = await raw(request.get('/docs/assets/favicon-32x32.png').set('Accept-Encoding', 'br, gzip'));
    expect(icon.headers['content-encoding']).to.equal(undefined);
    expect((icon.body as Buffer).equals(readFileSync(join(swaggerUiDist, 'favicon-32x32.png')))).to.equal(true);
  });

  it('answers 404 for anything else under /docs: other files of the package, a trailing slash', async () => {
    for (const path of [
      '/docs/',
      '/docs/assets/package.json',
      '/docs/assets/swagger-ui-bundle.js.map',
      '/docs/assets/../package.json',
      '/docs/index.html',
    ]) {
      const res = await request.get(path);
      expect(res.status, path).to.equal(404);
      expect(res.body.error.code, path).to.equal('not_found');
    }
  });

  it('passes every request outside /docs straight on, without routing it (the router would read the host and leave its marks on ctx)', async () => {
    const app = new Koa();
    app.use(interactiveDocs({ versions: versioning.known }));
    app.use(function seen(ctx) {
      ctx.body = { router: 'router' in ctx, matched: 'matched' in ctx };
    });
    const plain = supertest(app.callback());
    for (const path of ['/api/ping', '/admin/clients', '/openapi.json', '/docsx', '/Docs']) {
      const res = await plain.get(path);
      expect(res.status, path).to.equal(200);
      expect(res.body, path).to.deep.equal({ router: false, matched: false });
    }
    // Paths the docs' router decides on still reach it: the page, and what it does not answer (it marks ctx).
    expect((await plain.get('/docs')).headers['content-security-policy']).to.equal(DOCS_CONTENT_SECURITY_POLICY);
    expect((await plain.get('/docs/assets/nothing.js')).body).to.deep.equal({ router: true, matched: true });
  });

  it('is not served when the docs are off (DEBTKIT_DOCS=false; the default in production)', async () => {
    const off = await harness({ environment: 'production', docs: false });
    for (const path of ['/docs', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/docs.js']) {
      const res = await off.request.get(path);
      expect(res.status, path).to.equal(404);
      expect(res.body.error.code, path).to.equal('not_found');
    }
    // The rest of the server is unaffected.
    expect((await off.request.get('/openapi.json')).status).to.equal(200);
  });
});
