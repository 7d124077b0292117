#!/usr/bin/env node
/**
 * Every file path the docs name exists (docs/testing.md, "The docs hold
 * together"): the README, docs/, examples/README.md and the package READMEs
 * and CHANGELOGs. Links are checked by examples/test/docs.test.ts; this checks
 * the paths written as text, in `code spans`, in prose and in code blocks.
 *
 * What counts as a path, and how it is checked against the files of the
 * repository (tracked, or new and not ignored: `git ls-files -co
 * --exclude-standard`):
 * - a path from the repository's root (its first segment is a top-level entry:
 *   `packages/core/src/index.ts`, `scripts/cite-docs.mjs`, `.ci/run`), anywhere
 *   on the page: that file or folder;
 * - a shorter path in a code span (`pipeline/compression.ts`,
 *   `test/spec-tests.test.ts`, `src/`), with a file extension or a trailing
 *   slash: relative to the page's folder, or the end of some path of the
 *   repository (`pipeline/compression.ts` is
 *   `packages/adapter-http/src/http/pipeline/compression.ts`);
 * - under `dist/`, the source it is built from: `<package>/dist/<path>.js`
 *   (or `.d.ts`, `.js.map`) is `<package>/<path>.ts` (tsc's rootDir is the
 *   package), a `dist/` folder is its source folder.
 * Not checked: URLs, `node_modules/...`, npm package names (`@scope/name`),
 * media types (`application/json`), URL paths (`/api/...`, `.../x`), and
 * patterns (`*`, `<version>`, `{id}`).
 *
 * A page may name paths that are not in the tree on purpose, and says so with
 * its reason (required):
 * - a passage about an older layout sits between
 *   `<!-- paths: not in the tree (the reason) -->` and `<!-- /paths -->`, and
 *   is not checked;
 * - a walk that adds a hypothetical resource says
 *   `<!-- paths: hypothetical goal (the reason) -->` once: on that page a path
 *   with a segment naming it (`goals/`, `goal.ts`, `mongo-goal-repository.ts`)
 *   is not checked, every other path is.
 *
 *   node scripts/doc-paths.mjs           list every path that does not exist; exit 1 if any
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, normalize, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The files of the repository, and every folder that holds one. */
export const repositoryEntries = () => {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '');
  const folders = new Set();
  for (const file of files) {
    for (let i = file.indexOf('/'); i !== -1; i = file.indexOf('/', i + 1)) folders.add(file.slice(0, i));
  }
  return { files: new Set(files), folders };
};

/** The pages checked: the README, docs/, the examples' README, and each package's README and CHANGELOG. */
export const pagesOf = (files) =>
  [...files].filter((f) => /^(?:README\.md|docs\/.*\.md|examples\/README\.md|packages\/[^/]+\/(?:README|CHANGELOG)\.md)$/.test(f)).sort();

const EXCLUDED = /^(?:[a-z][a-z0-9+.-]*:|\/|\.\.\.|@|node_modules\/)|\/node_modules\/|[*<>{}$]/i;
const PATH_SHAPE = /^(?:\.{1,2}\/)*[\w.@-]+(?:\/[\w.@-]+)*\/?$/;
const EXTENSION = /\.[a-z][a-z0-9]*$/i;
const UNCHECKED = /<!-- paths: not in the tree \(([^)]+)\) -->[\s\S]*?<!-- \/paths -->/g;
const HYPOTHETICAL = /<!-- paths: hypothetical ([a-z][\w-]*) \(([^)]+)\) -->/g;

/** The candidates a token holds: code spans split on spaces and punctuation that never ends a path. */
const tokensOf = (text) =>
  text
    .split(/[\s,;()'"`=|[\]]+/)
    .map((t) => t.replace(/[.:]+$/, ''))
    .filter((t) => t.includes('/') && PATH_SHAPE.test(t) && !EXCLUDED.test(t));

/** Where a path under `dist/` comes from: its source file or folder (several spellings of a built file). */
const sourcesOf = (path) => {
  const at = path.split('/').indexOf('dist');
  if (at === -1) return [path];
  const segments = path.split('/');
  const source = [...segments.slice(0, at), ...segments.slice(at + 1)].join('/');
  if (source.endsWith('/') || !EXTENSION.test(source)) return [source.replace(/\/$/, '')];
  const stem = source.replace(/(?:\.d\.ts|\.js\.map|\.d\.ts\.map|\.js|\.mjs|\.cjs)$/, '');
  return [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`, source];
};

/** The problems of one page: each path it names that is not in the repository. */
export const checkPage = (page, text, { files, folders }) => {
  const topLevel = new Set([...files, ...folders].filter((f) => !f.includes('/')));
  const exists = (path) => files.has(path) || folders.has(path);
  const endsAnyPath = (tail) => {
    for (const entry of [...files, ...folders]) if (entry === tail || entry.endsWith(`/${tail}`)) return true;
    return false;
  };
  const problems = new Set();
  const unchecked = [...text.matchAll(UNCHECKED)];
  const hypothetical = [...text.matchAll(HYPOTHETICAL)];
  const names = hypothetical.map(([, name]) => name);
  const visible = text.replace(UNCHECKED, '').replace(HYPOTHETICAL, '');
  for (const marker of visible.matchAll(/<!-- \/?paths[^>]*-->/g)) problems.add(`${page}: unmatched or malformed marker ${marker[0]}`);
  const isHypothetical = (token) =>
    token.split('/').some((segment) => names.some((name) => new RegExp(`(?:^|[^a-z])${name}(?:s|[^a-z]|$)`, 'i').test(segment)));
  const lines = visible.split('\n');
  const report = (path, why) => {
    const line = lines.findIndex((l) => l.includes(path)) + 1;
    problems.add(`${page}:${line}: ${path} (${why})`);
  };
  // Paths from the root, anywhere on the page (prose, code spans, code blocks).
  for (const token of tokensOf(visible)) {
    if (isHypothetical(token)) continue;
    const first = token.split('/')[0];
    if (!topLevel.has(first) || first === '..' || first === '.') continue;
    const clean = token.replace(/\/$/, '');
    if (!sourcesOf(clean).some(exists))
      report(token, clean.split('/').includes('dist') ? `no source for it: ${sourcesOf(clean)[0]}` : 'no such file or folder');
  }
  // Shorter paths in code spans: relative to the page, or the end of a path of the repository.
  for (const [, span] of visible.matchAll(/`([^`\n]+)`/g)) {
    for (const token of tokensOf(span)) {
      if (topLevel.has(token.split('/')[0]) || isHypothetical(token)) continue;
      if (!token.endsWith('/') && !EXTENSION.test(token)) continue;
      const clean = token.replace(/\/$/, '');
      const relative = normalize(posix.join(dirname(page), clean));
      const tail = clean.replace(/^(?:\.{1,2}\/)+/, '');
      if (sourcesOf(relative).some(exists) || sourcesOf(tail).some(endsAnyPath)) continue;
      report(token, 'no file or folder of the repository ends so');
    }
  }
  for (const [, reason] of [...unchecked, ...hypothetical.map(([, , why]) => [undefined, why])]) {
    if (reason.trim() === '') problems.add(`${page}: an unchecked path without its reason`);
  }
  return [...problems];
};

const main = () => {
  const entries = repositoryEntries();
  const pages = pagesOf(entries.files);
  const problems = pages.flatMap((page) => checkPage(page, readFileSync(`${root}${page}`, 'utf8'), entries));
  if (problems.length > 0) {
    console.error(`doc-paths: ${problems.length} path(s) named in the docs do not exist:`);
    for (const p of problems) console.error(`  ${p}`);
    process.exitCode = 1;
  } else console.log(`doc-paths: every path named in ${pages.length} pages exists`);
};

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
