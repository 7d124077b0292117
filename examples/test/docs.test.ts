/**
 * The docs hold together (issue 33, docs/README.md): no source, test, bench,
 * example or package README cites a document outside the repository (the
 * design or the product's specification: `scripts/cite-docs.mjs --check`),
 * every relative link of the README, docs/ and the package READMEs leads
 * to a file of the repository, and to a heading of it when it names one, and
 * every file path those pages name exists (`scripts/doc-paths.mjs`).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Pages docs/README.md links that other branches of issues 33–34 write (API
 * versions, changelog, sandbox over time, …). Until they are merged, a link to
 * one of them is reported by the pending test below, not as broken; once all
 * exist, that test passes and this list can go.
 */
const WRITTEN_ELSEWHERE: ReadonlySet<string> = new Set([
  'docs/api/versions.md',
  'docs/api/changelog.md',
  'docs/api/webhook-versions.md',
  'docs/sandbox-over-time.md',
  'docs/webhook-replay.md',
  'docs/interactive-docs.md',
  'docs/performance-isolation.md',
]);

const markdownUnder = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownUnder(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );

const pages = (): string[] => [
  'README.md',
  'examples/README.md',
  ...readdirSync(join(root, 'packages'))
    .map((p) => `packages/${p}/README.md`)
    .filter((f) => existsSync(join(root, f))),
  ...markdownUnder('docs'),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens; and explicit `<a id>`s. */
const anchorsOf = (text: string): Set<string> => {
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.*)$/gm)) {
    anchors.add(
      heading!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}_\- ]/gu, '')
        .replace(/ /g, '-'),
    );
  }
  for (const [, id] of text.matchAll(/<a id="([^"]+)"/g)) anchors.add(id!);
  return anchors;
};

describe('the docs', function () {
  this.timeout(20_000);

  it('cite no document outside the repository (scripts/cite-docs.mjs --check)', async () => {
    const result = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(process.execPath, [join(root, 'scripts/cite-docs.mjs'), '--check'], { cwd: root }, (err, stdout, stderr) =>
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, output: `${stdout}${stderr}` }),
      ),
    );
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.include('no citation of the design or the specification outside the repository is left');
  });

  it('link only to files of the repository, and to headings that exist', () => {
    const broken: string[] = [];
    const checked = pages();
    expect(checked).to.include.members(['README.md', 'docs/README.md', 'docs/architecture.md', 'docs/api/reference.md']);
    for (const page of checked) {
      const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link!)) {
          broken.push(`${page}: ${link} (outside the repository)`);
          continue;
        }
        const [path, anchor] = link!.split('#', 2) as [string, string | undefined];
        const target = path === '' ? page : normalize(join(dirname(page), path));
        if (WRITTEN_ELSEWHERE.has(target) && !existsSync(join(root, target))) continue;
        if (relative(root, join(root, target)).startsWith('..') || !existsSync(join(root, target))) {
          broken.push(`${page}: ${link} (no such file)`);
          continue;
        }
        if (
          anchor !== undefined &&
          target.endsWith('.md') &&
          statSync(join(root, target)).isFile() &&
          !anchorsOf(readFileSync(join(root, target), 'utf8')).has(anchor)
        ) {
          broken.push(`${page}: ${link} (no such heading)`);
        }
      }
    }
    expect(broken, broken.join('\n')).to.deep.equal([]);
  });

  it('name only file paths that exist (scripts/doc-paths.mjs; paths under dist/ by their sources)', async () => {
    const result = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(process.execPath, [join(root, 'scripts/doc-paths.mjs')], { cwd: root }, (err, stdout, stderr) =>
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, output: `${stdout}${stderr}` }),
      ),
    );
    expect(result.code, result.output).to.equal(0);
    expect(result.output).to.match(/every path named in \d+ pages exists/);
  });

  describe('the path check itself (scripts/doc-paths.mjs)', () => {
    type Entries = { files: Set<string>; folders: Set<string> };
    let checkPage: (page: string, text: string, entries: Entries) => string[];
    const files = [
      'README.md',
      'docs/testing.md',
      'packages/core/src/shared/deps.ts',
      'packages/core/README.md',
      'packages/adapter-http/test/readme-tour.test.ts',
      'scripts/doc-paths.mjs',
    ];
    const entries: Entries = {
      files: new Set(files),
      folders: new Set([
        'docs',
        'packages',
        'packages/core',
        'packages/core/src',
        'packages/core/src/shared',
        'packages/adapter-http',
        'packages/adapter-http/test',
        'scripts',
      ]),
    };
    const check = (text: string, page = 'docs/testing.md'): string[] => checkPage(page, text, entries);

    before(async () => {
      ({ checkPage } = (await import(pathToFileURL(join(root, 'scripts/doc-paths.mjs')).href)) as { checkPage: typeof checkPage });
    });

    it('passes paths that exist: from the root, shorter ones in code spans, folders, and built files by their sources', () => {
      expect(
        check(
          'See packages/core/src/shared/deps.ts, `shared/deps.ts`, `src/shared/`, `../packages/core/README.md`, ' +
            '`packages/adapter-http/dist/test/readme-tour.test.js` and `packages/core/dist/src/shared/deps.d.ts`.\n' +
            '```sh\nnode scripts/doc-paths.mjs\n```',
        ),
      ).to.deep.equal([]);
    });

    it('reports a deleted file from the root (prose or code block), a shorter path no file ends with, and a built file without its source', () => {
      const problems = check(
        'Once in packages/core/src/application/deps.ts.\n```sh\nnode scripts/gone.mjs\n```\n`application/deps.ts` and `packages/core/dist/src/gone.js`.',
      );
      expect(problems).to.have.length(4);
      expect(problems.join('\n'))
        .to.include('packages/core/src/application/deps.ts')
        .and.include('scripts/gone.mjs')
        .and.include('application/deps.ts (no file');
      expect(problems.join('\n')).to.include('packages/core/dist/src/gone.js (no source for it: packages/core/src/gone.ts)');
    });

    it('checks no URL, node_modules path, package name, media type, URL path or pattern', () => {
      expect(
        check(
          'https://example.com/packages/x.ts `node_modules/koa/lib/application.js` `@debtkit/core/testing` `application/json` ' +
            '`/api/users/{id}` `.../credit_scores` `packages/core/src/<feature>/*.contract.ts`',
        ),
      ).to.deep.equal([]);
    });

    it('skips a passage marked as not in the tree, and hypothetical names, but only with a reason', () => {
      expect(check('<!-- paths: not in the tree (the old layout) -->\n`src/ports/tokens.ts`\n<!-- /paths -->\n')).to.deep.equal([]);
      expect(
        check('<!-- paths: hypothetical goal (a walk) -->\n`packages/core/src/goals/goal.ts` `mongo-goal-repository.ts`'),
      ).to.deep.equal([]);
      expect(check('<!-- paths: hypothetical goal (a walk) -->\n`packages/core/src/gone.ts`')).to.have.length(1);
      expect(check('<!-- paths: not in the tree () -->\n`src/ports/tokens.ts`\n<!-- /paths -->\n').join('\n')).to.include(
        'malformed marker',
      );
    });
  });

  it('have every page the table of contents promises (pending until the branches writing them are merged)', function () {
    const missing = [...WRITTEN_ELSEWHERE].filter((page) => !existsSync(join(root, page)));
    if (missing.length > 0) this.skip(); // shown as pending, never passed: ${missing}
    expect(missing).to.deep.equal([]);
  });
});
