import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Clock, IsoDate } from '@debtkit/core';
import { main } from '../koa-mount/main.js';
import { runExampleScript } from './support/example-script.js';

const clock: Clock = { now: () => new Date(`${'2026-03-15' as IsoDate}T12:00:00.000Z`) };

describe('example: koa-mount', () => {
  it("mounts debtkit under /debt, and the host's middleware reaches every kind of answer", async () => {
    const result = await main(() => undefined, clock);
    const byLabel = new Map(result.exchanges.map((e) => [e.label, e]));
    const statusOf = (label: string): number | undefined => byLabel.get(label)?.status;
    expect(statusOf('credit score')).to.equal(200);
    expect(statusOf('credit score again (If-None-Match)')).to.equal(304);
    expect(statusOf('credit score, HEAD')).to.equal(200);
    expect(statusOf('learning modules (gzip)')).to.equal(200);
    expect(byLabel.get('learning modules (gzip)')?.contentEncoding).to.equal('gzip');
    expect(statusOf('no token')).to.equal(401);
    expect(statusOf('unknown route')).to.equal(404);
    expect(statusOf('wrong method')).to.equal(405);
    expect(statusOf("the host's own route")).to.equal(200);
    expect(result.exchanges).to.have.length(8);
    for (const exchange of result.exchanges) {
      // Set by the host with ctx.set after `await next()`: on debtkit's answers as on its own.
      expect(exchange.responseTime, exchange.label).to.match(/^\d+\.\d{2}ms$/);
      // debtkit's own headers are there too, except on the host's route.
      if (exchange.label !== "the host's own route") expect(exchange.requestId, exchange.label).to.be.a('string');
      else expect(exchange.requestId).to.equal(null);
    }
  });

  it('runs as a script, prints, and exits once the server is closed', async () => {
    const run = await runExampleScript('koa-mount');
    expect(run.stderr).to.equal('');
    expect(run.code).to.equal(0);
    expect(run.stdout).to.match(/^host listening on http:\/\/127\.0\.0\.1:\d+, debtkit's API under http:\/\/127\.0\.0\.1:\d+\/debt\n/);
    expect(run.stdout).to.match(/wrong method: 405, X-Response-Time \d+\.\d{2}ms/);
    expect(run.stdout).not.to.include('missing');
  });
});

/** The mounting block of docs/embedding.md, as written (between its `koa-mount` markers). */
const readmeBlock = (): string => {
  const readme = readFileSync(fileURLToPath(new URL('../../../docs/embedding.md', import.meta.url)), 'utf8');
  const match = /<!-- koa-mount:start -->\n```js\n([\s\S]*?)\n```\n<!-- koa-mount:end -->/.exec(readme);
  if (match?.[1] === undefined) throw new Error('docs/embedding.md has no koa-mount block');
  return match[1];
};

const freePort = async (): Promise<number> => {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
};

describe('docs/embedding.md: mounting the API in your own Koa app', () => {
  it('runs as written: the host header arrives on debtkit answers and on its own', async () => {
    // Written inside the workspace, so its imports resolve as an installed service's would.
    const script = fileURLToPath(new URL('../readme-koa-mount.mjs', import.meta.url));
    writeFileSync(script, readmeBlock());
    const port = await freePort();
    const child = spawn(process.execPath, [script], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      const base = `http://127.0.0.1:${port}`;
      let health: Response | undefined;
      for (let attempt = 0; health === undefined && attempt < 100; attempt++) {
        health = await fetch(`${base}/debt/healthz`).catch(async () => {
          await new Promise((done) => setTimeout(done, 100));
          return undefined;
        });
      }
      expect(health?.status, stderr).to.equal(200);
      expect(health?.headers.get('x-response-time')).to.match(/^\d+\.\d{2}ms$/);
      expect(health?.headers.get('x-request-id')).to.be.a('string');
      const refused = await fetch(`${base}/debt/api/users/1/credit_scores`);
      expect(refused.status).to.equal(401);
      expect(refused.headers.get('x-response-time')).to.match(/^\d+\.\d{2}ms$/);
      const hello = await fetch(`${base}/hello`);
      expect(await hello.json()).to.deep.equal({ hello: 'from the host' });
      expect(hello.headers.get('x-response-time')).to.match(/^\d+\.\d{2}ms$/);
    } finally {
      child.kill();
      await once(child, 'close');
      rmSync(script, { force: true });
    }
  });
});
