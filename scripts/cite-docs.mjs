#!/usr/bin/env node
/**
 * Rewrites citations of the two documents kept outside the repository, the
 * team's design ("DESIGN 4.6", "DESIGN 4.2, 4.6", "DESIGN 4 and 4.3") and the
 * product's specification ("spec 2.1", "Spec 4.2, 4.3"), into the docs/ page
 * that now holds that section ("docs/decisions/transactions.md"), across the
 * tracked sources, tests, benches, examples and package READMEs. A citation
 * of both that lands on one page twice ("spec 4.4, DESIGN 7.2") names it once.
 *
 * Idempotent: a rewritten citation no longer matches, so a second run changes
 * nothing. Anything it cannot map (a section missing from SECTION_PAGES or
 * SPEC_SECTION_PAGES, or the design's name with no section number after it)
 * is reported with file and line, and the run exits 1, so a new citation
 * cannot slip past it.
 *
 *   node scripts/cite-docs.mjs            rewrite, then report what is left
 *   node scripts/cite-docs.mjs --check    change nothing; exit 1 if any citation is left
 *   node scripts/cite-docs.mjs [--check] <path>...   only under these paths
 *                                         (default: packages examples scripts)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';

/** Each section of the design document, and the docs/ page that holds it now. */
export const SECTION_PAGES = {
  1: 'docs/README.md',
  2: 'docs/architecture.md',
  3: 'docs/operations.md',
  4: 'docs/decisions/api-conventions.md',
  4.1: 'docs/decisions/errors.md',
  4.2: 'docs/decisions/idempotency.md',
  4.3: 'docs/decisions/rate-limits.md',
  4.4: 'docs/decisions/api-conventions.md',
  4.5: 'docs/decisions/transactions.md',
  4.6: 'docs/decisions/transactions.md',
  4.7: 'docs/decisions/koa.md',
  4.8: 'docs/decisions/proxies.md',
  4.9: 'docs/decisions/tenancy.md',
  // Section 5 is authentication, tenancy and versioning: a citation whose line
  // speaks of versions goes to the versioning page (VERSION_HINT below).
  5: 'docs/decisions/tenancy.md',
  6: 'docs/operations.md',
  7: 'docs/api/reference.md',
  7.1: 'docs/api/reference.md',
  7.2: 'docs/api/reference.md',
  7.3: 'docs/decisions/payoff-and-outlook.md',
  7.4: 'docs/api/reference.md',
  7.5: 'docs/decisions/payoff-and-outlook.md',
  7.6: 'docs/decisions/payoff-and-outlook.md',
  7.7: 'docs/decisions/payoff-and-outlook.md',
  7.8: 'docs/api/reference.md',
  7.9: 'docs/operations.md',
  '7.10': 'docs/decisions/payoff-and-outlook.md',
  7.11: 'docs/decisions/webhooks.md',
  7.12: 'docs/decisions/payoff-and-outlook.md',
  7.13: 'docs/sandbox-over-time.md',
  7.14: 'docs/decisions/payoff-and-outlook.md',
  8: 'docs/decisions/mongodb.md',
  9: 'docs/performance.md',
  10: 'docs/embedding.md',
};
/** Each section of the product's specification, and the docs/ page that holds it now. */
export const SPEC_SECTION_PAGES = {
  1: 'docs/api/reference.md',
  2: 'docs/api/reference.md',
  2.1: 'docs/api/reference.md',
  2.2: 'docs/api/reference.md',
  2.3: 'docs/api/reference.md',
  2.4: 'docs/api/reference.md',
  3: 'docs/api/reference.md',
  3.1: 'docs/api/reference.md',
  3.2: 'docs/api/reference.md',
  4: 'docs/api/reference.md',
  4.1: 'docs/api/reference.md',
  4.2: 'docs/api/reference.md',
  4.3: 'docs/api/reference.md',
  4.4: 'docs/api/reference.md',
  4.5: 'docs/api/reference.md',
  4.6: 'docs/api/reference.md',
  4.7: 'docs/api/reference.md',
  4.8: 'docs/api/reference.md',
  5: 'docs/decisions/tenancy.md',
  6: 'docs/decisions/webhooks.md',
  7: 'docs/decisions/errors.md',
  8: 'docs/decisions/api-conventions.md',
  9: 'docs/decisions/versioning.md',
};
const VERSION_PAGE = 'docs/decisions/versioning.md';
const VERSION_HINT = /\bversion/i;

const WORD = 'DESIGN';
const NUMBER = String.raw`\d+(?:\.\d+)?`;
// A comment may wrap between the word and its number: newline, indent, `*` or `//`.
const GAP = String.raw`(?:[ \t]+|[ \t]*\n[ \t]*(?:\*|\/\/)?[ \t]*)`;
const LIST_SEPARATOR = String.raw`(?:,[ \t]*|[ \t]+and[ \t]+|[ \t]+or[ \t]+|[ \t]*\/[ \t]*|[ \t]*&[ \t]*)`;
const citation = (word) => new RegExp(`\\b${word}${GAP}(${NUMBER}(?:${LIST_SEPARATOR}${NUMBER}(?![\\w.]*[A-Za-z]))*)(?![\\d.]*\\d)`, 'g');
const CITATION = citation(WORD);
const SPEC_CITATION = citation('[Ss]pec');
/** The same page named twice in a row, as a citation of both documents leaves it. */
const REPEATED_PAGE = /(docs\/[\w/.-]+\.md)(?:(?:,[ \t]*|;[ \t]*|[ \t]+and[ \t]+)\1(?![\w/.-]))+/g;
const ANY = new RegExp(`\\b${WORD}\\b`, 'g');

const root = fileURLToPath(new URL('..', import.meta.url));
const self = relative(root, fileURLToPath(import.meta.url));
const TEXT = /\.(?:[cm]?[jt]s|tsx|md|json|ya?ml|sh)$/;

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/** The page(s) for one citation's list of sections, deduplicated; null when one is unknown. */
const pagesFor = (list, line, table = SECTION_PAGES) => {
  const pages = [];
  for (const section of list.match(new RegExp(NUMBER, 'g'))) {
    let page = table[section];
    if (page === undefined) return null;
    if (table === SECTION_PAGES && section === '5' && VERSION_HINT.test(line)) page = VERSION_PAGE;
    if (!pages.includes(page)) pages.push(page);
  }
  return pages.join(', ');
};

const rewriteWith = (text, pattern, table) => {
  const lines = text.split('\n');
  return text.replace(pattern, (match, list, offset) => {
    const line = lines[lineOf(text, offset) - 1] ?? '';
    return pagesFor(list, line, table) ?? match;
  });
};

export const rewrite = (text) =>
  rewriteWith(rewriteWith(text, CITATION, SECTION_PAGES), SPEC_CITATION, SPEC_SECTION_PAGES).replace(REPEATED_PAGE, '$1');

const main = () => {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const paths = args.filter((a) => a !== '--check');
  const files = execFileSync('git', ['ls-files', '-z', '--', ...(paths.length > 0 ? paths : ['packages', 'examples', 'scripts'])], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f !== '' && f !== self && TEXT.test(f));
  let changed = 0;
  let rewritten = 0;
  const left = [];
  for (const file of files) {
    const before = readFileSync(`${root}${file}`, 'utf8');
    if (!before.includes(WORD) && !/\b[Ss]pec[ \t]+\d/.test(before)) continue;
    const after = check ? before : rewrite(before);
    if (after !== before) {
      const count = (t) => (t.match(ANY)?.length ?? 0) + (t.match(SPEC_CITATION)?.length ?? 0);
      rewritten += count(before) - count(after);
      changed += 1;
      writeFileSync(`${root}${file}`, after);
    }
    for (const m of [...after.matchAll(ANY), ...after.matchAll(SPEC_CITATION)]) {
      const n = lineOf(after, m.index);
      left.push(`${file}:${n}: ${after.split('\n')[n - 1].trim()}`);
    }
  }
  if (!check) console.log(`cite-docs: ${rewritten} citation(s) rewritten in ${changed} file(s)`);
  if (left.length > 0) {
    console.error(
      check
        ? `cite-docs: ${left.length} citation(s) of a document outside the repository (run \`node scripts/cite-docs.mjs\` to rewrite those it can map):`
        : `cite-docs: ${left.length} citation(s) it cannot map (add the section to SECTION_PAGES or SPEC_SECTION_PAGES, or cite a docs/ page by hand):`,
    );
    for (const l of left) console.error(`  ${l}`);
    process.exitCode = 1;
  } else console.log('cite-docs: no citation of the design or the specification outside the repository is left');
};

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
