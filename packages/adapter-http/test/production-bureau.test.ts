/**
 * Production never serves simulated data (docs/embedding.md), checked on the built
 * `debtkit` command as an operator runs it: without a real credit bureau,
 * `DEBTKIT_ENV=production` exits 1 with one line naming the fix; with
 * `DEBTKIT_BUREAU=sandbox` it starts, and warns that it serves test data.
 * Needs the build (`npm test` always builds first); without it, it skips and says so.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ContainerModule, injectable } from 'inversify';
import pino from 'pino';
import { PORTS, type CreditBureau } from '@debtkit/core';
import { SandboxCreditBureau } from '@debtkit/adapter-memory';
import { NO_BUREAU_MESSAGE, compose } from '../src/main/composition.js';
import { CapturedLog } from './support/http-harness.js';

const here = fileURLToPath(import.meta.url);
const packageRoot = fileURLToPath(new URL(here.includes('/dist/test/') ? '../../' : '../', import.meta.url));
const CLI = `${packageRoot}dist/src/main/cli.js`;

interface Exit {
  readonly code: number | NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run the CLI until it exits, or until `until` matches its stdout (then SIGTERM it and wait for the exit). */
const runCli = (env: Record<string, string>, until?: RegExp): Promise<Exit> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve'], {
      env: { PATH: process.env['PATH'] ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let signalled = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (until !== undefined && !signalled && until.test(stdout)) {
        // Once: a second SIGTERM, after the handler's first, would kill the process outright.
        signalled = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code: code ?? signal, stdout, stderr }));
  });

describe('production and the credit bureau', () => {
  describe('the built debtkit command', function () {
    before(function () {
      if (!existsSync(CLI)) {
        console.log(`    (skipped: ${CLI} is not built; run \`npx tsc -b\` first)`);
        this.skip();
      }
    });

    it('refuses to start production without a bureau: exit 1, one line naming the fix', async () => {
      const run = await runCli({ DEBTKIT_ENV: 'production' });
      expect(run.code).to.equal(1);
      expect(run.stdout).to.equal('');
      expect(run.stderr).to.equal(`debtkit: ${NO_BUREAU_MESSAGE}\n`);
      expect(run.stderr).to.contain('DEBTKIT_BUREAU=sandbox');
    });

    it('starts production on the simulated bureau when DEBTKIT_BUREAU=sandbox, with a warning', async () => {
      const run = await runCli(
        { DEBTKIT_ENV: 'production', DEBTKIT_BUREAU: 'sandbox', LOG_LEVEL: 'warn' },
        /^debtkit listening on http:\/\/\S+ \(production, memory store\)$/m,
      );
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(run.stdout).to.match(/^debtkit listening on http:\/\/127\.0\.0\.1:\d+ \(production, memory store\)$/m);
      const warnings = run.stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((line) => line.level === 40);
      expect(warnings.map((w) => w.msg)).to.deep.equal([
        'DEBTKIT_BUREAU=sandbox: production is serving the simulated credit bureau (test data, not real credit reports)',
      ]);
    });

    it('refuses an unknown DEBTKIT_BUREAU with one line', async () => {
      const run = await runCli({ DEBTKIT_ENV: 'production', DEBTKIT_BUREAU: 'equifax' });
      expect(run.code).to.equal(1);
      expect(run.stderr).to.equal('debtkit: DEBTKIT_BUREAU must be sandbox (the simulated bureau), or unset (got "equifax")\n');
    });
  });

  describe('compose', () => {
    /** Stands for a real bureau: any adapter that is not the simulated one (it delegates to it for the answers). */
    @injectable()
    class RealBureau implements CreditBureau {
      private readonly answers = new SandboxCreditBureau();
      invoke: CreditBureau['invoke'] = (user, ip) => this.answers.invoke(user, ip);
      verifyOtp: CreditBureau['verifyOtp'] = (user, code) => this.answers.verifyOtp(user, code);
      verifyIdentity: CreditBureau['verifyIdentity'] = (user, answers) => this.answers.verifyIdentity(user, answers);
      deleteIdentity: CreditBureau['deleteIdentity'] = (user) => this.answers.deleteIdentity(user);
      fetchReport: CreditBureau['fetchReport'] = (user, accounts, today) => this.answers.fetchReport(user, accounts, today);
    }

    it('starts production with the embedding service’s own bureau, and uses it, without a warning', async () => {
      const log = new CapturedLog();
      const { container, close } = await compose({
        config: { environment: 'production' },
        logger: pino({ level: 'debug' }, log),
        modules: [new ContainerModule(({ bind }) => void bind(PORTS.CreditBureau).to(RealBureau))],
      });
      try {
        expect(container.get(PORTS.CreditBureau)).to.be.instanceOf(RealBureau);
        expect(log.lines.filter((l) => l.level >= 40)).to.deep.equal([]);
      } finally {
        await close();
      }
    });

    it('refuses production without one', async () => {
      const refused = await compose({ config: { environment: 'production' } }).then(
        () => 'started',
        (err: Error) => err.message,
      );
      expect(refused).to.equal(NO_BUREAU_MESSAGE);
    });
  });
});
