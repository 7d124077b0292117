/**
 * Request logging is asynchronous and buffered (src/main/log-destination.ts),
 * yet no line is lost on shutdown: the built CLI (`debtkit serve`, as
 * `npm start` runs it) answers a burst of requests (3000, over a fixed number
 * of keep-alive connections, so none waits long enough in the server for its
 * request timeout on a loaded machine) while this test does not read its stdout (so the pipe fills and the logger has to buffer lines in
 * memory), gets SIGTERM as soon as the last answer arrives, and after it exits
 * its stdout holds a request line for every request (by request id) and the
 * shutdown line. Without the flush on shutdown the buffered lines are lost.
 */
import { expect } from 'chai';
import { Agent, request } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateToken } from '../src/http/token-issuer.js';
import { createServerLogger } from '../src/main/log-destination.js';
import { cliIsBuilt, startCli } from './support/cli-process.js';

interface LogLine {
  readonly msg?: string;
  readonly request_id?: string;
  readonly status?: number;
}

/** How many requests are in flight at once: enough to keep the server busy, few enough that none waits long for a connection there. */
const CONNECTIONS = 16;

/** POST /api/ping through `agent` (which holds at most CONNECTIONS sockets); resolves with the status and request id. */
const ping = (agent: Agent, url: string, token: string, payload: string): Promise<{ status: number; id: string }> =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify({ payload });
    const req = request(
      `${url}/api/ping`,
      {
        method: 'POST',
        agent,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve({ status: res.statusCode ?? 0, id: String(res.headers['x-request-id']) }));
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.end(body);
  });

const logLines = (stdout: string): LogLine[] =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);

describe('asynchronous request logging, flushed on shutdown', function () {
  this.timeout(30_000);

  it('the built CLI: every request answered before SIGTERM has its log line after the exit', async function () {
    if (!cliIsBuilt()) {
      console.log('    (skipped: the CLI is not built; run `npx tsc -b` first)');
      this.skip();
    }
    const token = generateToken('sandbox');
    const cli = await startCli({ DEBTKIT_BOOTSTRAP_TOKEN: token, LOG_LEVEL: 'info', DEBTKIT_RATE_LIMIT: '100000' });
    let exited = false;
    // Not reading: the pipe (64 KiB) and the stream's buffer fill, the rest waits in the logger.
    cli.child.stdout!.pause();
    try {
      const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
      let answers: Array<{ status: number; id: string }>;
      try {
        answers = await Promise.all(Array.from({ length: 3000 }, (_, i) => ping(agent, cli.url, token, `line ${i}`)));
      } finally {
        agent.destroy();
      }
      expect(
        answers.filter((a) => a.status !== 200),
        'answers other than 200',
      ).to.deep.equal([]);
      const ids = answers.map((a) => a.id);
      expect(new Set(ids).size, 'distinct request ids').to.equal(3000);
      const stopping = cli.stop();
      cli.child.stdout!.resume();
      const code = await stopping;
      exited = true;
      expect(code).to.equal(0);
      const lines = logLines(cli.stdout());
      const logged = new Set(lines.filter((l) => l.msg === 'request' && l.status === 200).map((l) => l.request_id));
      expect(
        ids.filter((id) => !logged.has(id)),
        'requests without a log line',
      ).to.deep.equal([]);
      const shutdownAt = lines.findIndex((l) => l.msg === 'shutting down');
      expect(shutdownAt, 'the shutdown line').to.be.greaterThan(-1);
      expect(cli.stderr()).to.equal('');
    } finally {
      cli.child.stdout!.resume();
      if (!exited) await cli.stop();
    }
  });

  it('the built CLI: SIGTERM ends the process even when its log pipe lost its reader', async function () {
    if (!cliIsBuilt()) {
      console.log('    (skipped: the CLI is not built; run `npx tsc -b` first)');
      this.skip();
    }
    const token = generateToken('sandbox');
    const cli = await startCli({ DEBTKIT_BOOTSTRAP_TOKEN: token, LOG_LEVEL: 'info', DEBTKIT_RATE_LIMIT: '100000' });
    // The reader goes away (a log shipper that died): every later write to the pipe fails with EPIPE.
    cli.child.stdout!.destroy();
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    try {
      // Lines for the pipe: the first write after the reader left fails, and the rest gather behind it.
      const answers = await Promise.all(Array.from({ length: 400 }, (_, i) => ping(agent, cli.url, token, `after the reader left ${i}`)));
      expect(answers.filter((a) => a.status !== 200)).to.deep.equal([]);
    } finally {
      agent.destroy();
    }
    cli.child.kill('SIGTERM');
    const code = await Promise.race([
      cli.exited,
      new Promise<'still running'>((r) => setTimeout(() => r('still running'), 10_000).unref()),
    ]);
    if (code === 'still running') cli.child.kill('SIGKILL');
    expect(code, 'the process ended by itself after SIGTERM').to.equal(0);
  });

  it('close() writes every buffered line to the destination before it resolves', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'debtkit-log-'));
    try {
      const file = join(dir, 'server.log');
      const log = createServerLogger({ level: 'info', dest: file });
      for (let i = 0; i < 5_000; i++) log.logger.info({ n: i }, 'request');
      await log.close();
      await log.close(); // idempotent
      const ns = (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { n: number }).n);
      expect(ns).to.deep.equal(Array.from({ length: 5_000 }, (_, i) => i));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
