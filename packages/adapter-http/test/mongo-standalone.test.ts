/**
 * `debtkit serve` on a standalone MongoDB (docs/decisions/transactions.md: transactions need a
 * replica set), as a real process against the wire-protocol test server's
 * standalone mode:
 * - the store answers at start and is standalone: exit 1, one line saying why;
 * - the store is down at start and turns out to be standalone: it serves,
 *   `/readyz` answers 503 with the reason, logged once at error.
 */
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { STANDALONE_REASON } from '@debtkit/adapter-mongo';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { CLI, cliIsBuilt, startCli, type CliProcess } from './support/cli-process.js';

describe('debtkit serve on a standalone MongoDB (child process, wire-protocol test server in standalone mode)', function () {
  this.timeout(30_000);
  let server: WireServer;
  let cli: CliProcess | undefined;

  before(function () {
    if (!cliIsBuilt()) {
      console.log('    (skipped: the CLI is not built; run `npx tsc -b` first)');
      this.skip();
    }
  });
  beforeEach(async () => {
    server = await startWireServer({ standalone: true });
  });
  afterEach(async () => {
    await cli?.stop();
    cli = undefined;
    await server.stop();
  });

  it('refuses to start when the store answers and is standalone: exit 1 and one line saying why', async () => {
    const child = spawn(process.execPath, [CLI, 'serve'], {
      env: {
        PATH: process.env['PATH'] ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        DEBTKIT_STORE: 'mongo',
        MONGODB_URL: `${server.url}debtkit_standalone`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).to.equal(1);
    expect(err.trimEnd().split('\n'), err).to.have.length(1);
    expect(err).to.include(STANDALONE_REASON);
  });

  it('down at start, standalone once it answers: /readyz 503 with the reason, logged once at error', async () => {
    const url = `${server.url}debtkit_standalone_later`;
    await server.stop();
    cli = await startCli({ DEBTKIT_STORE: 'mongo', MONGODB_URL: url, DEBTKIT_SEED: 'false' });
    expect((await fetch(`${cli.url}/readyz`)).status).to.equal(503);
    await server.restart();
    // The process finds the server on its driver's next check, and /readyz asks the store
    // at most once a second (docs/decisions/proxies.md): probe until a bounded deadline.
    let body: { error?: { code?: string; message?: string } } = {};
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && body.error?.message !== STANDALONE_REASON;) {
      const ready = await fetch(`${cli.url}/readyz`);
      expect(ready.status).to.equal(503);
      body = (await ready.json()) as typeof body;
      if (body.error?.message !== STANDALONE_REASON) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(body.error).to.deep.include({ code: 'service_unavailable', message: STANDALONE_REASON });
    expect((await fetch(`${cli.url}/readyz`)).status).to.equal(503);
    const loggedLines = (): string[] =>
      cli!
        .stdout()
        .split('\n')
        .filter((line) => line.includes(STANDALONE_REASON));
    // The log line travels through the log destination (handed over every 20 ms) and a pipe: probe until it
    // arrives, up to a bounded deadline (20 probes were too few in a loaded suite run), no sleep.
    for (const deadline = Date.now() + 5_000; Date.now() < deadline && loggedLines().length === 0;)
      expect((await fetch(`${cli.url}/readyz`)).status).to.equal(503);
    const logged = loggedLines();
    expect(logged, cli.stdout()).to.have.length(1);
    expect(JSON.parse(logged[0]!)).to.include({ level: 50 });
  });
});
