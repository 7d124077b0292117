/**
 * The real thing: `debtkit serve` as a child process, as `npm start` runs it.
 * Needs the build (`npm test` always builds first); run from source without a
 * build, it skips and says so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { generateToken } from '../src/http/token-issuer.js';

// From dist/test/ (compiled) or test/ (run from source), the package root.
const here = fileURLToPath(import.meta.url);
const packageRoot = fileURLToPath(new URL(here.includes('/dist/test/') ? '../../' : '../', import.meta.url));
const CLI = `${packageRoot}dist/src/main/cli.js`;

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
}

/** Spawn the CLI and wait for its listen line (no sleeps: the line is the signal). */
const startCli = (env: Record<string, string>, args: string[] = ['serve']): Promise<Started> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /^debtkit listening on (http:\/\/\S+) \(sandbox, memory store\)$/m.exec(out);
      if (match?.[1] !== undefined) resolve({ child, url: match[1], stdout: () => out, stderr: () => err, exited });
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    void exited.then((code) => reject(new Error(`debtkit exited (${code}) before listening:\n${out}\n${err}`)));
  });

describe('debtkit serve (child process)', function () {
  before(function () {
    if (!existsSync(CLI)) {
      console.log(`    (skipped: ${CLI} is not built; run \`npx tsc -b\` first)`);
      this.skip();
    }
  });

  it('listens, prints the demo token and a curl example, serves, and exits 0 on SIGTERM', async () => {
    const token = generateToken('sandbox');
    const server = await startCli({ PORT: '0', HOST: '127.0.0.1', DEBTKIT_BOOTSTRAP_TOKEN: token, LOG_LEVEL: 'warn' });
    try {
      expect(server.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      // The operator's own token is never printed: only a hint (docs/operations.md, the demo seed).
      expect(server.stdout()).not.to.contain(token);
      expect(server.stdout()).to.contain(`demo token: the one in DEBTKIT_BOOTSTRAP_TOKEN (ending …${token.slice(-4)})`);
      expect(server.stdout()).to.contain(
        `curl -s -H "Authorization: Bearer $DEBTKIT_BOOTSTRAP_TOKEN" ${server.url}/api/users/1/credit_scores`,
      );

      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).to.equal(200);
      expect(await health.json()).to.deep.equal({ status: 'ok' });

      const ping = await fetch(`${server.url}/api/ping`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ payload: 'from a real socket' }),
      });
      expect(ping.status).to.equal(200);
      expect(await ping.json()).to.deep.equal({ payload: 'from a real socket' });

      const scores = await fetch(`${server.url}/api/users/1/credit_scores`, { headers: { Authorization: `Bearer ${token}` } });
      expect(scores.status).to.not.equal(500);
    } finally {
      server.child.kill('SIGTERM');
    }
    // fetch keeps its connection alive; shutdown closes idle connections instead of waiting out the grace period.
    const signalled = Date.now();
    expect(await server.exited).to.equal(0);
    expect(Date.now() - signalled).to.be.below(5000);
    expect(server.stderr()).to.equal('');
  });

  it('exits 1 with one line naming the variable for a bad configuration', async () => {
    const child = spawn(process.execPath, [CLI, 'serve'], { env: { PORT: 'eighty' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).to.equal(1);
    expect(err).to.equal('debtkit: PORT must be an integer from 0 to 65535 (got "eighty")\n');
  });

  it('refuses `clients create` on the memory store, which would forget the client', async () => {
    const child = spawn(process.execPath, [CLI, 'clients', 'create', '--name', 'Acme'], { env: {}, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).to.equal(1);
    expect(err).to.match(/^debtkit: clients create needs a persistent store \(DEBTKIT_STORE=mongo\)/);
  });
});
