/**
 * The packages as a user gets them (DESIGN 10): `npm pack` every package,
 * install the tarballs with plain `npm install` into an empty project outside
 * the workspace, then typecheck a consumer (strict, NodeNext) and run it from
 * ESM and from CommonJS `require`, and run the embed-core and
 * testing-with-memory examples against the installed packages.
 *
 * The install is isolated (`--install-strategy=linked`): a package sees only
 * what it declares, so an undeclared import fails here as it would for a user
 * whose tree hoists differently. `npm install` reuses the npm cache
 * (`--prefer-offline`). DEBTKIT_SKIP_PACKAGING=1 skips this test, and says so.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const PACKAGES = ['core', 'adapter-memory', 'adapter-mongo', 'adapter-http'] as const;
/** Private test support (never published): packed too, as the consumer's dev dependency for its mongo run. */
const TEST_SUPPORT = ['mongo-wire-test-server'] as const;
const root = fileURLToPath(new URL('../../../', import.meta.url));
const examples = join(root, 'examples');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const SKIP = process.env['DEBTKIT_SKIP_PACKAGING'] === '1';
/** The examples whose tests run again on the installed packages. */
const EXAMPLE_TESTS = ['embed-core', 'testing-with-memory', 'custom-bureau'] as const;

interface Run {
  readonly stdout: string;
  readonly stderr: string;
}

const run = (file: string, args: ReadonlyArray<string>, cwd: string): Promise<Run> =>
  new Promise((resolve, reject) => {
    execFile(file, args, { cwd, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${[file, ...args].join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });

const npm = (args: ReadonlyArray<string>, cwd: string): Promise<Run> => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd);

const versionOf = async (name: string): Promise<string> => {
  const rootPackage = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const version = rootPackage.devDependencies[name];
  if (version === undefined) throw new Error(`${name} is not a root dev dependency`);
  return version;
};

describe('packaging: the published packages, installed outside the workspace', function () {
  this.timeout(240_000);
  let project = '';
  let entryPoints: string[] = [];
  let loaded = '';

  before(async function () {
    if (SKIP) {
      console.log('    packaging test SKIPPED: DEBTKIT_SKIP_PACKAGING=1 is set');
      this.skip();
    }
    project = await mkdtemp(join(tmpdir(), 'debtkit-consumer-'));
    const tarballs = join(project, 'tarballs');
    await mkdir(tarballs);
    // `npm test` has just built; packing what is there (no prepack build) is what makes a missing dist fail.
    const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', tarballs, ...[...PACKAGES, ...TEST_SUPPORT].flatMap((p) => ['-w', `@debtkit/${p}`])], root);
    const tarballsOf = (JSON.parse(packed.stdout) as Array<{ name: string; filename: string }>).map((p) => [p.name, `file:tarballs/${p.filename}`]);
    const testSupport = (name: string): boolean => TEST_SUPPORT.some((t) => name === `@debtkit/${t}`);
    const files = tarballsOf.filter(([name]) => !testSupport(name ?? ''));
    // First only the packages (and the test tools): nothing else sits at the project's top level,
    // where every package could see it, so an import a package does not declare fails to resolve.
    const consumer = {
      name: 'debtkit-consumer',
      private: true,
      type: 'module',
      dependencies: Object.fromEntries(files),
      devDependencies: {
        ...Object.fromEntries(await Promise.all(['@types/node', '@types/mocha', '@types/chai', 'chai', 'mocha'].map(async (n) => [n, await versionOf(n)]))),
        ...Object.fromEntries(tarballsOf.filter(([name]) => testSupport(name ?? ''))),
      },
    };
    await writeFile(join(project, 'package.json'), JSON.stringify(consumer, null, 2));
    await npm(['install', '--prefer-offline', '--install-strategy=linked', '--ignore-scripts'], project);
    entryPoints = [];
    for (const name of PACKAGES) {
      const manifest = JSON.parse(await readFile(join(project, 'node_modules', '@debtkit', name, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
      entryPoints.push(...Object.keys(manifest.exports).map((subpath) => `@debtkit/${name}${subpath.slice(1)}`));
    }
    loaded = await run(process.execPath, ['--input-type=module', '-e', `for (const e of ${JSON.stringify(entryPoints)}) await import(e); console.log('loaded');`], project).then(
      (r) => r.stdout.trim(),
      (error: Error) => error.message,
    );

    // Then what the consumer's own code imports, at the versions debtkit's packages ask for.
    const dependenciesOf = async (name: string) =>
      (JSON.parse(await readFile(join(root, 'packages', name, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    const core = await dependenciesOf('core');
    const http = await dependenciesOf('adapter-http');
    await npm(
      ['install', '--prefer-offline', '--install-strategy=linked', '--ignore-scripts', `fp-ts@${core['fp-ts']}`, `io-ts@${core['io-ts']}`, `inversify@${http['inversify']}`],
      project,
    );

    // The consumer and the examples, as a user would copy them; the same relative layout as in examples/.
    await cp(join(examples, 'packaging', 'consumer'), join(project, 'consumer'), { recursive: true });
    await cp(join(examples, 'packaging', 'tsconfig.consumer.json'), join(project, 'tsconfig.json'));
    const copied = ['embed-core/main.ts', 'testing-with-memory/debt-coach.ts', 'custom-bureau/main.ts', 'test/support/example-script.ts'];
    for (const file of [...copied, ...EXAMPLE_TESTS.map((t) => `test/${t}.test.ts`)]) {
      await cp(join(examples, file), join(project, file), { recursive: true });
    }
  });

  after(async () => {
    if (project !== '') await rm(project, { recursive: true, force: true });
  });

  it('ships compiled JavaScript, declarations and no tests', async () => {
    for (const name of PACKAGES) {
      const installed = join(project, 'node_modules', '@debtkit', name);
      const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { files: string[] };
      expect(manifest.files, name).to.be.an('array');
      const { stdout } = await run('find', ['-L', '.', '-path', './node_modules', '-prune', '-o', '-type', 'f', '-print'], installed);
      const shipped = stdout.split('\n').filter((l) => l !== '');
      expect(shipped, name).to.include('./dist/src/index.js');
      expect(shipped, name).to.include('./dist/src/index.d.ts');
      expect(shipped, name).to.include('./LICENSE');
      expect(shipped, name).to.include('./README.md');
      expect(shipped.filter((f) => /(^|\/)test\/|\.test\.|tsconfig|\.ts$/.test(f) && !f.endsWith('.d.ts')), name).to.deep.equal([]);
    }
  });

  it('loads every entry point with only the declared dependencies installed', () => {
    expect(entryPoints).to.include.members(['@debtkit/core', '@debtkit/core/testing', '@debtkit/adapter-http']);
    expect(entryPoints).not.to.include('@debtkit/adapter-mongo/test-support');
    expect(loaded).to.equal('loaded');
  });

  it('typechecks a strict NodeNext consumer and the examples against the installed types', async () => {
    // Full checking (no skipLibCheck) of the consumer and of debtkit's declarations. Errors inside a
    // third party's declarations are not ours (a library's types importing a package it does not
    // declare, which only an isolated install like this one exposes).
    // tsc emits despite errors, so one run both checks and compiles what the next tests run.
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], project).then(
      () => '',
      (error: Error) => error.message,
    );
    const errors = checked.split('\n').filter((line) => /error TS\d+/.test(line));
    const ours = errors.filter((line) => !/^node_modules\//.test(line) || /node_modules\/@debtkit\/|\/node_modules\/@debtkit\+/.test(line));
    expect(ours, checked).to.deep.equal([]);
  });

  it('runs from ESM: core, both stores and the HTTP app', async () => {
    const { stdout } = await run(process.execPath, ['dist/consumer/esm.mjs'], project);
    expect(JSON.parse(stdout)).to.deep.equal({ rating: 'Good', user: 'Ada', mongoClient: 'mongo', probe: 200, testing: 'function' });
  });

  it('runs from CommonJS require', async () => {
    const { stdout } = await run(process.execPath, ['dist/consumer/cjs.cjs'], project);
    expect(JSON.parse(stdout)).to.deep.equal({ rating: 'Poor', users: 0 });
  });

  it('runs the embed-core, testing-with-memory and custom-bureau examples on the installed packages', async () => {
    // The examples start scripts in child processes: mocha's default 2 s is too tight on a loaded machine.
    const { stdout } = await run(join(project, 'node_modules', '.bin', 'mocha'), ['--reporter', 'spec', '--timeout', '20000', 'dist/test/*.test.js'], project);
    for (const title of ['example: embed-core', 'example: testing with the memory store', 'example: custom-bureau']) expect(stdout).to.contain(title);
    expect(stdout).to.match(/\b(1\d|[2-9]\d) passing/);
    expect(stdout).not.to.match(/failing|pending/);
  });
});
