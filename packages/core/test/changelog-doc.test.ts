/**
 * docs/api/changelog.md is generated from the version-change modules
 * (`npm run docs:changelog`), like `GET /api/versions`: this keeps the page
 * equal to what the modules say.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { changelogMarkdown, versioning } from '../src/registry/versioning/versions.js';

const PAGE = fileURLToPath(
  new URL(`${import.meta.url.includes('/dist/test/') ? '../../../../' : '../../../'}docs/api/changelog.md`, import.meta.url),
);

describe('docs/api/changelog.md', () => {
  it('is what the version-change modules say (regenerate with npm run docs:changelog)', () => {
    expect(readFileSync(PAGE, 'utf8')).to.equal(changelogMarkdown(versioning));
  });

  it('lists every release newest first with each change', () => {
    const page = changelogMarkdown(versioning);
    expect(page.indexOf('## 2026-11-26')).to.be.lessThan(page.indexOf('## 2024-07-01'));
    for (const change of versioning.releases.flatMap((r) => r.changes)) expect(page).to.contain(change.description);
  });
});
