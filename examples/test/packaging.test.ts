/**
 * The packages as a user gets them (docs/embedding.md): `npm pack` every package
 * (@debtkit/client too: from ESM a client per released version calls the HTTP
 * app, and from ESM and CommonJS a webhook is signed and verified),
 * install the tarballs with plain `npm install` into an empty project outside
 * the workspace, then typecheck a consumer (strict, NodeNext) and run it from
 * ESM and from CommonJS `require`, and run the embed-core and
 * testing-with-memory examples against the installed packages.
 *
 * `npm pack` runs the packages' prepack/postpack scripts, as a publish does:
 * the published manifests lose the workspace's `debtkit-source` condition.
 * The packages are packed once for the file; both installs take their tarballs
 * from that one pack.
 * The README snippets of every package are typechecked as written. A second,
 * memory-only install (no `@debtkit/adapter-mongo`, an optional peer of the
 * HTTP package) has no database driver at all.
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

const PACKAGES = ['core', 'adapter-memory', 'adapter-mongo', 'adapter-http', 'client'] as const;
/** Private test support (never published): packed too, as the consumer's dev dependency for its mongo run. */
const TEST_SUPPORT = ['mongo-wire-test-server'] as const;
/** What a memory-only user installs: no mongo adapter. */
const MEMORY_ONLY = ['core', 'adapter-memory', 'adapter-http'] as const;
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

const npm = (args: ReadonlyArray<string>, cwd: string): Promise<Run> =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd);

interface Packed {
  /** The folder holding the tarballs. */
  readonly dir: string;
  /** Each package's tarball, by package name (`@debtkit/core`). */
  readonly tarballs: ReadonlyMap<string, string>;
}

/**
 * `npm pack` of every package, once for the file: both installs below take their
 * tarballs from it (the memory-only one three of them), as a user downloads each
 * published package once. Removed after the file's tests.
 */
let packing: Promise<Packed> | undefined;
const packOnce = (): Promise<Packed> =>
  (packing ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'debtkit-tarballs-'));
    // With the packages' scripts, as a publish runs them: prepack builds (a no-op after `npm test`'s build)
    // and strips the workspace-only export condition, postpack puts it back.
    const packed = await npm(
      ['pack', '--json', '--pack-destination', dir, ...[...PACKAGES, ...TEST_SUPPORT].flatMap((p) => ['-w', `@debtkit/${p}`])],
      root,
    );
    const tarballs = new Map((JSON.parse(packed.stdout) as Array<{ name: string; filename: string }>).map((p) => [p.name, p.filename]));
    return { dir, tarballs };
  })());

/** Copies the named packages' tarballs into `project/tarballs` and answers their `file:` specifiers, by name. */
const tarballsFor = async (project: string, names: ReadonlyArray<string>): Promise<Array<[string, string]>> => {
  const { dir, tarballs } = await packOnce();
  await mkdir(join(project, 'tarballs'));
  return Promise.all(
    names.map(async (name): Promise<[string, string]> => {
      const file = tarballs.get(name);
      if (file === undefined) throw new Error(`npm pack made no tarball of ${name}`);
      await cp(join(dir, file), join(project, 'tarballs', file));
      return [name, `file:tarballs/${file}`];
    }),
  );
};

after(async () => {
  if (packing !== undefined) await rm((await packing).dir, { recursive: true, force: true });
});

const versionOf = async (name: string): Promise<string> => {
  // The workspace's own pins: the root's test tools, the examples' Koa host packages.
  const manifest = async (dir: string) =>
    JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
  const [rootPackage, examplesPackage] = await Promise.all([manifest(root), manifest(examples)]);
  const version = rootPackage.devDependencies?.[name] ?? examplesPackage.dependencies?.[name] ?? examplesPackage.devDependencies?.[name];
  if (version === undefined) throw new Error(`${name} is not a dev dependency of the workspace root or a dependency of the examples`);
  return version;
};

describe('packaging: the published packages, installed outside the workspace', function () {
  this.timeout(240_000);
  let project = '';
  let entryPoints: string[] = [];
  let loaded = '';
  let readmeSnippets: string[] = [];

  before(async function () {
    if (SKIP) {
      console.log('    packaging test SKIPPED: DEBTKIT_SKIP_PACKAGING=1 is set');
      this.skip();
    }
    project = await mkdtemp(join(tmpdir(), 'debtkit-consumer-'));
    const tarballsOf = await tarballsFor(
      project,
      [...PACKAGES, ...TEST_SUPPORT].map((p) => `@debtkit/${p}`),
    );
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
        ...Object.fromEntries(
          await Promise.all(
            ['@types/node', '@types/mocha', '@types/chai', 'chai', 'mocha', 'koa', '@types/koa', 'koa-mount', '@types/koa-mount'].map(
              async (n) => [n, await versionOf(n)],
            ),
          ),
        ),
        ...Object.fromEntries(tarballsOf.filter(([name]) => testSupport(name ?? ''))),
      },
    };
    await writeFile(join(project, 'package.json'), JSON.stringify(consumer, null, 2));
    await npm(['install', '--prefer-offline', '--install-strategy=linked', '--ignore-scripts'], project);
    entryPoints = [];
    for (const name of PACKAGES) {
      const manifest = JSON.parse(await readFile(join(project, 'node_modules', '@debtkit', name, 'package.json'), 'utf8')) as {
        exports: Record<string, unknown>;
      };
      entryPoints.push(...Object.keys(manifest.exports).map((subpath) => `@debtkit/${name}${subpath.slice(1)}`));
    }
    loaded = await run(
      process.execPath,
      ['--input-type=module', '-e', `for (const e of ${JSON.stringify(entryPoints)}) await import(e); console.log('loaded');`],
      project,
    ).then(
      (r) => r.stdout.trim(),
      (error: Error) => error.message,
    );

    // Then what the consumer's own code imports, at the versions debtkit's packages ask for.
    const dependenciesOf = async (name: string) =>
      (JSON.parse(await readFile(join(root, 'packages', name, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
        .dependencies;
    const core = await dependenciesOf('core');
    const http = await dependenciesOf('adapter-http');
    await npm(
      [
        'install',
        '--prefer-offline',
        '--install-strategy=linked',
        '--ignore-scripts',
        `fp-ts@${core['fp-ts']}`,
        `io-ts@${core['io-ts']}`,
        `inversify@${http['inversify']}`,
        `pino@${http['pino']}`,
      ],
      project,
    );

    // The consumer and the examples, as a user would copy them; the same relative layout as in examples/.
    await cp(join(examples, 'packaging', 'consumer'), join(project, 'consumer'), { recursive: true });
    await cp(join(examples, 'packaging', 'tsconfig.consumer.json'), join(project, 'tsconfig.json'));
    const copied = ['embed-core/main.ts', 'testing-with-memory/debt-coach.ts', 'custom-bureau/main.ts', 'test/support/example-script.ts'];
    for (const file of [...copied, ...EXAMPLE_TESTS.map((t) => `test/${t}.test.ts`)]) {
      await cp(join(examples, file), join(project, file), { recursive: true });
    }
    // Every ```ts block of every package README, as written, one module each (typechecked with the rest).
    await mkdir(join(project, 'readme'));
    readmeSnippets = [];
    for (const name of PACKAGES) {
      const readme = await readFile(join(root, 'packages', name, 'README.md'), 'utf8');
      const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
      for (const [i, block] of blocks.entries()) {
        const file = `readme/${name}-${i + 1}.ts`;
        await writeFile(join(project, file), block);
        readmeSnippets.push(file);
      }
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
      expect(
        shipped.filter((f) => /(^|\/)test\/|\.test\.|tsconfig|\.ts$/.test(f) && !f.endsWith('.d.ts')),
        name,
      ).to.deep.equal([]);
    }
  });

  it('publishes manifests without the workspace-only debtkit-source condition, and keeps it in the workspace', async () => {
    for (const name of PACKAGES) {
      const installed = await readFile(join(project, 'node_modules', '@debtkit', name, 'package.json'), 'utf8');
      expect(installed, name).to.not.include('debtkit-source');
      expect(await readFile(join(root, 'packages', name, 'package.json'), 'utf8'), `workspace ${name}`).to.include('debtkit-source');
    }
  });

  it('loads every entry point with only the declared dependencies installed', () => {
    expect(entryPoints).to.include.members(['@debtkit/core', '@debtkit/core/testing', '@debtkit/adapter-http', '@debtkit/client']);
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
    // The README snippets were among what was checked: one per ```ts block, core's linkAccount example included.
    expect(readmeSnippets).to.include.members([
      'readme/core-1.ts',
      'readme/core-2.ts',
      'readme/adapter-memory-1.ts',
      'readme/adapter-http-1.ts',
      'readme/adapter-http-2.ts',
      'readme/client-1.ts',
      'readme/client-5.ts',
    ]);
  });

  it('runs from ESM: core, both stores and the HTTP app', async () => {
    const { stdout } = await run(process.execPath, ['dist/consumer/esm.mjs'], project);
    expect(JSON.parse(stdout)).to.deep.equal({
      rating: 'Good',
      user: 'Ada',
      mongoClient: 'mongo',
      probe: 200,
      mongoReady: 200,
      testing: 'function',
      clientHealth: [200, 200],
      webhook: 'user.deleted',
    });
  });

  it('runs from CommonJS require', async () => {
    const { stdout } = await run(process.execPath, ['dist/consumer/cjs.cjs'], project);
    expect(JSON.parse(stdout)).to.deep.equal({ rating: 'Poor', users: 0, versions: 2, webhook: '2024-07-01' });
  });

  it('runs the embed-core, testing-with-memory and custom-bureau examples on the installed packages', async () => {
    // The examples start scripts in child processes: mocha's default 2 s is too tight on a loaded machine.
    const { stdout } = await run(
      join(project, 'node_modules', '.bin', 'mocha'),
      ['--reporter', 'spec', '--timeout', '20000', 'dist/test/*.test.js'],
      project,
    );
    for (const title of ['example: embed-core', 'example: testing with the memory store', 'example: custom-bureau'])
      expect(stdout).to.contain(title);
    expect(stdout).to.match(/\b(1\d|[2-9]\d) passing/);
    expect(stdout).not.to.match(/failing|pending/);
  });
});

describe('packaging: a memory-only install of the HTTP package (no mongo adapter, an optional peer)', function () {
  this.timeout(240_000);
  let project = '';

  before(async function () {
    if (SKIP) {
      console.log('    packaging test SKIPPED: DEBTKIT_SKIP_PACKAGING=1 is set');
      this.skip();
    }
    project = await mkdtemp(join(tmpdir(), 'debtkit-memory-only-'));
    const files = await tarballsFor(
      project,
      MEMORY_ONLY.map((p) => `@debtkit/${p}`),
    );
    const devDependencies = { '@types/node': await versionOf('@types/node') };
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify(
        { name: 'debtkit-memory-only', private: true, type: 'module', dependencies: Object.fromEntries(files), devDependencies },
        null,
        2,
      ),
    );
    await npm(['install', '--prefer-offline', '--install-strategy=linked', '--ignore-scripts'], project);
  });

  after(async () => {
    if (project !== '') await rm(project, { recursive: true, force: true });
  });

  it('installs no database driver and no tracing SDK: no mongodb, no mingo, no mongo adapter, only @opentelemetry/api', async () => {
    const { stdout } = await run(
      'find',
      [
        'node_modules',
        '(',
        '-name',
        'mongodb',
        '-o',
        '-name',
        'mingo',
        '-o',
        '-name',
        'adapter-mongo',
        '-o',
        '-name',
        'mongodb@*',
        '-o',
        '-name',
        'mingo@*',
        ')',
        '-print',
      ],
      project,
    );
    expect(stdout.split('\n').filter((l) => l !== '')).to.deep.equal([]);
    const { stdout: otel } = await run(
      'find',
      [
        'node_modules',
        '-path',
        '*@opentelemetry*',
        '-name',
        'package.json',
        '-not',
        '-path',
        '*/node_modules/@opentelemetry/*/node_modules/*',
      ],
      project,
    );
    const names = new Set(
      otel
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => /@opentelemetry[/+]([a-z-]+)/.exec(l)?.[1]),
    );
    expect([...names]).to.deep.equal(['api']);
    const { stdout: listed } = await run(
      'find',
      ['node_modules', '-name', 'package.json', '-path', '*node_modules/@debtkit/adapter-http/package.json'],
      project,
    );
    expect(listed.trim()).to.not.equal('');
  });

  it('serves on the memory store, and names the missing package in one line when DEBTKIT_STORE=mongo', async () => {
    const script = [
      "import { createServer } from 'node:http';",
      "import { compose } from '@debtkit/adapter-http';",
      "const c = await compose({ config: { store: 'memory' } });",
      "const server = createServer(c.app.callback()).listen(0, '127.0.0.1');",
      "await new Promise((r) => server.once('listening', r));",
      'const probe = await fetch(`http://127.0.0.1:${server.address().port}/readyz`);',
      'server.close(); await c.close();',
      "const failed = await compose({ config: { store: 'mongo', mongodbUrl: 'mongodb://127.0.0.1:1/x' } }).then(() => 'started', (e) => e.name + ': ' + e.message);",
      'console.log(JSON.stringify({ memory: probe.status, mongo: failed }));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], project);
    expect(JSON.parse(stdout)).to.deep.equal({
      memory: 200,
      mongo: 'StartupError: DEBTKIT_STORE=mongo needs the package @debtkit/adapter-mongo: npm install @debtkit/adapter-mongo',
    });
  });

  it('the debtkit command asked to trace names the missing SDK in one line', async () => {
    const cli = join(project, 'node_modules', '@debtkit', 'adapter-http', 'dist', 'src', 'main', 'cli.js');
    const failed = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [cli, 'serve'],
        { cwd: project, env: { PATH: process.env['PATH'] ?? '', PORT: '0', OTEL_TRACES_EXPORTER: 'otlp' } },
        (error, _stdout, stderr) => resolve({ code: error === null ? 0 : (error.code as number | null), stderr }),
      );
    });
    expect(failed).to.deep.equal({
      code: 1,
      stderr:
        'debtkit: OTEL_TRACES_EXPORTER=otlp needs the package @opentelemetry/sdk-trace-node: npm install @opentelemetry/sdk-trace-node\n',
    });
  });

  it("typechecks a consumer of the HTTP package with full checking and esModuleInterop off, without the mongo adapter's or the SDK's types", async () => {
    await writeFile(
      join(project, 'main.ts'),
      "import { compose } from '@debtkit/adapter-http';\nconst c = await compose({ config: { store: 'memory' } });\nawait c.close();\n",
    );
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        esModuleInterop: false,
        noEmit: true,
        types: ['node'],
      },
      files: ['main.ts'],
    };
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], project).then(
      () => '',
      (error: Error) => error.message,
    );
    const errors = checked.split('\n').filter((line) => /error TS\d+/.test(line));
    // Ours: anything in the consumer or in debtkit's declarations, a missing module, and what debtkit's
    // declarations pull in that fails without esModuleInterop (pino's declarations did: TS1259).
    const ours = errors.filter((line) => !/^node_modules\//.test(line) || /@debtkit/.test(line) || /TS2307|TS1259/.test(line));
    expect(ours, checked).to.deep.equal([]);
  });
});
