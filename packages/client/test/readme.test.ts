/**
 * packages/client/README.md runs: every ```ts block, as written, compiled to a
 * module next to this test (so `@debtkit/client` resolves to this package) and
 * imported, in order, against a started debtkit whose address and token are in
 * DEBTKIT_URL and DEBTKIT_TOKEN, as the README tells a newcomer to set them.
 * What each block prints and exports is checked. (The packaging test
 * typechecks the same blocks against the packed package.)
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';
import { signWebhook } from '../src/index.js';
import { startDebtkit, type TestDebtkit } from './support/debtkit-server.js';

const PACKAGE = fileURLToPath(new URL('../../', import.meta.url));
const OUT = fileURLToPath(new URL('./readme-snippets/', import.meta.url));
const SECRET = `whsec_${Buffer.from('readme readme readme readme read').toString('base64')}`;

/** Runs `f` with what it prints through console.log and console.error collected. */
const capture = async <A>(f: () => Promise<A>): Promise<{ value: A; printed: string[] }> => {
  const printed: string[] = [];
  const { log, error } = console;
  console.log = (...args: unknown[]) => void printed.push(args.join(' '));
  console.error = (...args: unknown[]) => void printed.push(`error: ${args.join(' ')}`);
  try {
    return { value: await f(), printed };
  } finally {
    Object.assign(console, { log, error });
  }
};

interface Ran {
  readonly exports: Record<string, unknown>;
  readonly printed: string[];
}

describe('@debtkit/client: the README runs', function () {
  this.timeout(60_000);
  let debtkit: TestDebtkit;
  let blocks: string[] = [];
  const saved = { ...process.env };

  /** Imports block `i`, with what it prints collected. */
  const run = async (i: number): Promise<Ran> => {
    const file = join(OUT, `block-${i + 1}.mjs`);
    const { outputText } = ts.transpileModule(blocks[i]!, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    await writeFile(file, outputText);
    const { value, printed } = await capture(async () => (await import(pathToFileURL(file).href)) as Record<string, unknown>);
    return { exports: value, printed };
  };

  before(async () => {
    debtkit = await startDebtkit();
    Object.assign(process.env, { DEBTKIT_URL: debtkit.url, DEBTKIT_TOKEN: debtkit.token, DEBTKIT_WEBHOOK_SECRET: SECRET });
    const readme = await readFile(join(PACKAGE, 'README.md'), 'utf8');
    blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
    await rm(OUT, { recursive: true, force: true });
    await mkdir(OUT, { recursive: true });
  });

  after(async () => {
    for (const name of ['DEBTKIT_URL', 'DEBTKIT_TOKEN', 'DEBTKIT_WEBHOOK_SECRET']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await debtkit?.running.shutdown();
  });

  it('has the five snippets the README promises', () => {
    expect(blocks).to.have.length(5);
  });

  it('creates a client and reads the demo user', async () => {
    const { exports, printed } = await run(0);
    expect((exports['demoUser'] as { id: number }).id).to.equal(debtkit.demoUserId);
    expect(printed).to.deep.equal([`user ${debtkit.demoUserId}: Rivera`]);
  });

  it('lists the users with for await', async () => {
    const { exports, printed } = await run(1);
    // The sandbox's two demo users (docs/sandbox-over-time.md): Rivera, and Lee with statement-grade accounts.
    expect(exports['lastNames']).to.deep.equal(['Rivera', 'Lee']);
    expect(printed).to.deep.equal(['2 users']);
  });

  it('creates a plan with an automatic key and pages its schedule', async () => {
    const { printed } = await run(2);
    expect(printed).to.have.length(2);
    expect(printed[0]).to.match(/^plan \d+: debt-free on \d{4}-\d{2}-\d{2} after \d+ cents of interest$/);
    expect(printed[1]).to.match(/^\d+ months$/);
  });

  it('verifies a webhook in a fetch-style receiver, and refuses a forged one', async () => {
    const { exports } = await run(3);
    const receive = exports['receive'] as (request: Request) => Promise<Response>;
    const event = {
      id: 9,
      type: 'plan_payment.created',
      created_at: new Date().toISOString(),
      api_version: '2026-11-26',
      data: { user_id: 1, object: { amount: 12_345 } },
    };
    const { headers, body } = await signWebhook(SECRET, event);
    const { value: accepted, printed } = await capture(() =>
      receive(new Request('http://127.0.0.1/hooks', { method: 'POST', headers, body })),
    );
    expect(accepted.status).to.equal(204);
    expect(printed).to.deep.equal(['user 1 paid 12345 cents']);
    const forged = await receive(new Request('http://127.0.0.1/hooks', { method: 'POST', headers, body: body.replace('12345', '99999') }));
    expect(forged.status).to.equal(400);
    expect(await forged.text()).to.equal('invalid_signature');
  });

  it('signs a test webhook that the receiver accepts', async () => {
    const { exports } = await run(4);
    const receiver = (await run(3)).exports['receive'] as (request: Request) => Promise<Response>;
    expect((await receiver(exports['signed'] as Request)).status).to.equal(204);
  });
});
