/**
 * The docs' tours, run as written (issue 13): the shell blocks between the
 * `tour` markers (docs/api/reference.md) and the `tour-admin` markers
 * (docs/operations.md), with curl, against a freshly started `debtkit serve`,
 * so the docs cannot drift from the API. The client tour runs twice (sh, then
 * bash) to show it works again on the same server.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { generateToken } from '../src/http/token-issuer.js';

const here = fileURLToPath(import.meta.url);
const packageRoot = fileURLToPath(new URL(here.includes('/dist/test/') ? '../../' : '../', import.meta.url));
const CLI = `${packageRoot}dist/src/main/cli.js`;
const DOCS = `${packageRoot}../../docs/`;
const ADMIN_TOKEN = 'readme-tour-admin-token-0123456789';

/** The body of the ```sh block between `<!-- name:start -->` and `<!-- name:end -->` in a page of docs/. */
const block = (page: string, name: string): string => {
  const text = readFileSync(`${DOCS}${page}`, 'utf8');
  const match = new RegExp(`<!-- ${name}:start -->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\`\\n<!-- ${name}:end -->`).exec(text);
  if (match?.[1] === undefined) throw new Error(`docs/${page} has no \`${name}\` block`);
  return match[1];
};

const run = (shell: string, script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(shell, ['-c', script], { env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr }),
    );
  });

describe("the docs' tours against a started server", function () {
  this.timeout(60_000);
  const token = generateToken('sandbox');
  let child: ChildProcess;
  let base: string;

  before(async () => {
    child = spawn(process.execPath, [CLI, 'serve'], {
      env: {
        PATH: process.env['PATH'] ?? '',
        PORT: '0',
        DEBTKIT_BOOTSTRAP_TOKEN: token,
        DEBTKIT_ADMIN_TOKEN: ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    base = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const match = /^debtkit listening on (http:\/\/\S+) /m.exec(out);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`debtkit exited (${code}) before listening:\n${out}`)));
    });
  });

  after(async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });

  for (const shell of ['sh', 'bash']) {
    it(`the client tour runs top to bottom in ${shell}`, async () => {
      const result = await run(shell, block('api/reference.md', 'tour'), { T: token, B: base });
      expect(result.code, `${result.stdout}\n${result.stderr}`).to.equal(0);
      expect(result.stdout).to.match(/"monthly_payment":50000,"months":25,/);
      // The statement-grade card: its terms read back, and the comparison's warnings (docs/decisions/payoff-and-outlook.md#statement-grade-money).
      expect(result.stdout).to.match(/"name":"Store card",.*"minimum_payment_formula":\{"floor":2500,/);
      expect(result.stdout).to.match(
        /^\{"as_of":"\d{4}-\d{2}-\d{2}","minimum_payments_only":\{"months":\d+,"years":\d+,"total_cost":\d+\},"three_year":/m,
      );
      expect(result.stdout).to.match(
        /"strategy":"avalanche",.*"warnings":\[\{"account_id":\d+,"code":"deferred_interest_avoided","month":\d,"amount":\d+\}\]/,
      );
      expect(result.stdout).to.match(
        /"strategy":"minimum_only",.*"warnings":\[\{"account_id":\d+,"code":"deferred_interest_charged","month":\d,"amount":\d+\}\]/,
      );
      expect(result.stdout).to.match(/\ntour done: user \d+\n$/);
    });
  }

  it('the admin tour runs top to bottom', async () => {
    const result = await run('sh', block('operations.md', 'tour-admin'), { A: ADMIN_TOKEN, B: base });
    expect(result.code, `${result.stdout}\n${result.stderr}`).to.equal(0);
    expect(result.stdout).to.match(/^debtkit_http_requests_total\{method="POST",route="\/admin\/clients",status="201"\} \d+$/m);
    expect(result.stdout).to.match(/\nadmin tour done: client \d+, token \d+ revoked\n$/);
  });
});
