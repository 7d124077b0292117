/**
 * The layer rule (docs/architecture.md): core's feature folders (codecs, domain functions,
 * ports, use cases) import only fp-ts, io-ts and each other. The contract
 * suites (`*.contract.ts`, beside the port they test) and `src/testing/` (the
 * testing entry point) may use mocha and chai, and nothing else imports them.
 */
import { expect } from 'chai';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// Compiled tests live in dist/test; the sources are two (dist) or one (tsx) levels up.
const candidates = [join(here, '..', 'src'), join(here, '..', '..', 'src')];
const srcRoot = candidates.find((p) => {
  try {
    return statSync(join(p, 'index.ts')).isFile();
  } catch {
    return false;
  }
});

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
const importsOf = (code: string): string[] => [...code.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
/**
 * A file of the testing entry point: a contract suite, a feature's mothers (`record-mothers.ts`,
 * `test-tokens.ts`) and test support (`<feature>/testing.ts`), `src/testing/` (the kernel's test support)
 * or the entry point itself (`registry/testing.ts`, with its list of the features' `registry/feature-testing.ts`).
 */
const isTesting = (file: string): boolean => {
  const path = relative(srcRoot!, file).split('\\').join('/');
  return (
    path.startsWith('testing/') ||
    path === 'registry/testing.ts' ||
    path === 'registry/feature-testing.ts' ||
    /^[^/]+\/testing\.ts$/.test(path) ||
    path.endsWith('.contract.ts') ||
    path.endsWith('/record-mothers.ts') ||
    path.endsWith('/test-tokens.ts')
  );
};
const allowed = (spec: string): boolean => spec.startsWith('./') || spec.startsWith('../') || spec === 'io-ts' || spec.startsWith('fp-ts/');

describe('core layer rule', () => {
  it('finds the core sources', () => {
    expect(srcRoot, 'packages/core/src not found').to.be.a('string');
  });

  it('imports nothing but fp-ts, io-ts and itself (outside the contract suites and src/testing)', () => {
    const files = sourceFiles(srcRoot!).filter((f) => !isTesting(f));
    expect(files.length).to.be.greaterThan(20);
    const offenders = files.flatMap((f) =>
      importsOf(readFileSync(f, 'utf8'))
        .filter((spec) => !allowed(spec))
        .map((spec) => `${relative(srcRoot!, f)} imports ${spec}`),
    );
    expect(offenders).to.deep.equal([]);
  });

  it('keeps the contract suites and src/testing out of the runtime entry point', () => {
    const offenders = sourceFiles(srcRoot!)
      .filter((f) => !isTesting(f))
      .flatMap((f) =>
        importsOf(readFileSync(f, 'utf8'))
          .filter((spec) => /\.contract\.js$|(^|\/)(record-mothers|test-tokens)\.js$|(^|\/)testing(\/|\.js$)/.test(spec))
          .map((spec) => `${relative(srcRoot!, f)} imports ${spec}`),
      );
    expect(offenders).to.deep.equal([]);
  });

  it('does not read the clock or randomness in the domain', () => {
    const files = sourceFiles(srcRoot!).filter((f) => !isTesting(f));
    // Web Crypto is a global, so the import rule alone would not catch it: randomness comes through `SecretGenerator`.
    const offenders = files.filter((f) =>
      /Date\.now\(|new Date\(\)|Math\.random\(|\bcrypto\.|getRandomValues/.test(readFileSync(f, 'utf8')),
    );
    expect(offenders.map((f) => relative(srcRoot!, f))).to.deep.equal([]);
  });

  it('rejects a forbidden import (the check itself works)', () => {
    const code = "import Koa from 'koa';\nimport * as t from 'io-ts';\nimport { x } from './y.js';\nexport * from 'node:fs';";
    expect(importsOf(code).filter((s) => !allowed(s))).to.deep.equal(['koa', 'node:fs']);
  });
});
