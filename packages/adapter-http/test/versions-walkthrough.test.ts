/**
 * The upgrade walkthrough of docs/api/versions.md, run as written with curl
 * against the API on a loopback port, as a client pinned to 2024-07-01 (an
 * integrator from before the 2026-11-26 release), so the page cannot drift.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { resourceHarness } from './support/resource-app.js';

const PAGE = fileURLToPath(
  new URL(`${import.meta.url.includes('/dist/test/') ? '../../../../' : '../../../'}docs/api/versions.md`, import.meta.url),
);

const walkthrough = (): string => {
  const match = /<!-- walkthrough:start -->\n```sh\n([\s\S]*?)\n```\n<!-- walkthrough:end -->/.exec(readFileSync(PAGE, 'utf8'));
  if (match?.[1] === undefined) throw new Error('docs/api/versions.md has no walkthrough block');
  return match[1];
};

describe('docs/api/versions.md: the upgrade walkthrough', function () {
  this.timeout(30_000);
  let server: Server;
  let token: string;
  before(async () => {
    // The demo client of the resource harness is pinned to 2024-07-01.
    const h = await resourceHarness();
    token = h.token;
    server = createServer(h.callback);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('runs top to bottom with curl', async () => {
    const { port } = server.address() as AddressInfo;
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        'sh',
        ['-c', walkthrough()],
        { env: { PATH: process.env['PATH'] ?? '', T: token, B: `http://127.0.0.1:${port}` }, timeout: 20_000 },
        (err, stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr }),
      ),
    );
    expect(result.code, `${result.stdout}\n${result.stderr}`).to.equal(0);
    expect(result.stdout).to.match(/^"latest":"2026-11-26","pinned":"2024-07-01"\n/);
    expect(result.stdout.toLowerCase()).to.contain('api-version: 2024-07-01');
    expect(result.stdout).to.contain('"institution_apr":6.5\n1\n0\n"has_more":true\n"month":4,\n');
    expect(result.stdout).to.match(/\nwalkthrough done: user \d+, plan \d+\n$/);
  });
});
