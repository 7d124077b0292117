// Writes docs/api/changelog.md from core's version-change modules (docs/decisions/versioning.md):
// `npm run docs:changelog` (after a build). packages/core/test/changelog-doc.test.ts keeps the page equal.
import { writeFileSync } from 'node:fs';
import { changelogMarkdown, versioning } from '../packages/core/dist/src/index.js';

writeFileSync(new URL('../docs/api/changelog.md', import.meta.url), changelogMarkdown(versioning));
