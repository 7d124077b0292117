/**
 * The "Sandbox over time" tour of docs/sandbox-over-time.md, run as written:
 * the shell block between the `tour-sandbox` markers, with curl, against the
 * production composition (sandbox environment) listening on loopback, so the
 * page cannot drift from the API.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { PORTS } from '@debtkit/core';
import { seedDemo } from '@debtkit/adapter-memory';
import { generateToken } from '../src/http/token-issuer.js';
import { compose, type Composition } from '../src/main/composition.js';
import { resolve } from '../src/main/container.js';
import { offlineResolveHost } from './support/webhook-harness.js';
import { fixedClock } from './support/resource-app.js';

const here = fileURLToPath(import.meta.url);
const packageRoot = fileURLToPath(new URL(here.includes('/dist/test/') ? '../../' : '../', import.meta.url));
const PAGE = `${packageRoot}../../docs/sandbox-over-time.md`;

/** The body of the ```sh block between `<!-- name:start -->` and `<!-- name:end -->`. */
const block = (name: string): string => {
  const match = new RegExp(`<!-- ${name}:start -->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\`\\n<!-- ${name}:end -->`).exec(
    readFileSync(PAGE, 'utf8'),
  );
  if (match?.[1] === undefined) throw new Error(`docs/sandbox-over-time.md has no \`${name}\` block`);
  return match[1];
};

describe('docs/sandbox-over-time.md: the tour runs top to bottom', function () {
  this.timeout(60_000);
  let server: Server;
  let base: string;
  let composition: Composition;
  const token = generateToken('sandbox');

  before(async () => {
    // The production composition (sandbox, the memory store) on a fixed clock, with a client for the tour's token.
    const clock = fixedClock();
    composition = await compose({ config: { rateLimit: 0, authFailureLimit: 0 }, clock, webhooks: { resolveHost: offlineResolveHost } });
    const seeded = await seedDemo(
      { ...composition.store, clock, tokenHasher: resolve(composition.container, PORTS.TokenHasher) },
      { token },
    )();
    if (E.isLeft(seeded)) throw new Error(seeded.left.message);
    server = createServer(composition.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await composition.close();
  });

  it('creates a plan, advances 6 months paying it, and reads the clock, progress, outlook and score history', async () => {
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'sh',
        ['-c', block('tour-sandbox')],
        { env: { PATH: process.env['PATH'] ?? '', T: token, B: base }, timeout: 60_000 },
        (err, stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr }),
      );
    });
    expect(result.code, `${result.stdout}\n${result.stderr}`).to.equal(0);
    const lines = result.stdout.trim().split('\n');
    const advanced = JSON.parse(lines[1]!);
    expect(advanced.months).to.have.length(6);
    expect(advanced.months.every((m: { paid: number }) => m.paid === 100_000)).to.equal(true);
    expect(JSON.parse(lines[2]!).sandbox_date).to.equal(advanced.sandbox_date);
    const progress = JSON.parse(lines[3]!);
    expect(progress).to.include({ as_of: advanced.sandbox_date, months_elapsed: 6, paid_to_date: 600_000, status: 'on_track' });
    expect(JSON.parse(lines[5]!).credit_scores).to.have.length(6);
    // The medical card's promotion ends in month 2 of the last advance: that month posts the deferred interest, and every month adds up.
    const pastPromotion = JSON.parse(lines[7]!);
    expect(pastPromotion.months.map((m: { deferred_interest: number }) => m.deferred_interest > 0)).to.deep.equal([false, true, false]);
    const medical = JSON.parse(lines[8]!);
    expect(medical.apr_segments).to.have.length(1);
    expect(medical.balance).to.equal(medical.apr_segments[0].balance);
    expect(medical.apr_segments[0]).to.not.have.property('deferred_interest');
    expect(result.stdout).to.match(/\nsandbox tour done: user \d+\n$/);
  });
});
