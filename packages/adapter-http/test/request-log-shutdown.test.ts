/**
 * Request logging is asynchronous and buffered (src/main/log-destination.ts),
 * yet no line is lost on shutdown: the built CLI (`debtkit serve`, as
 * `npm start` runs it) answers a burst of requests while this test does not
 * read its stdout (so the pipe fills and the logger has to buffer lines in
 * memory), gets SIGTERM as soon as the last answer arrives, and after it exits
 * its stdout holds a request line for every request (by request id) and the
 * shutdown line. Without the flush on shutdown the buffered lines are lost.
 */
import { expect } from 'chai';
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
      const ids = await Promise.all(
        Array.from({ length: 3000 }, async (_, i) => {
          const response = await fetch(`${cli.url}/api/ping`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ payload: `line ${i}` }),
          });
          expect(response.status).to.equal(200);
          return response.headers.get('x-request-id')!;
        }),
      );
      const stopping = cli.stop();
      cli.child.stdout!.resume();
      const code = await stopping;
      exited = true;
      expect(code).to.equal(0);
      const lines = logLines(cli.stdout());
      const logged = new Set(lines.filter((l) => l.msg === 'request' && l.status === 200).map((l) => l.request_id));
      expect(ids.filter((id) => !logged.has(id)), 'requests without a log line').to.deep.equal([]);
      const shutdownAt = lines.findIndex((l) => l.msg === 'shutting down');
      expect(shutdownAt, 'the shutdown line').to.be.greaterThan(-1);
      expect(cli.stderr()).to.equal('');
    } finally {
      cli.child.stdout!.resume();
      if (!exited) await cli.stop();
    }
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
