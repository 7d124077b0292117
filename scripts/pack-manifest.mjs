#!/usr/bin/env node
/**
 * The published package.json of a workspace package has no `debtkit-source`
 * export condition: it points at `src/`, which is not shipped. npm runs this
 * from the package's folder: `strip` as `prepack` (keeping the workspace's
 * manifest in `package.json.workspace`), `restore` as `postpack`. A `strip`
 * after an interrupted pack restores first, so the kept manifest is always the
 * workspace's own.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const KEPT = 'package.json.workspace';
const CONDITION = 'debtkit-source';

const strip = () => {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  for (const target of Object.values(manifest.exports ?? {})) {
    if (typeof target === 'object' && target !== null) delete target[CONDITION];
  }
  writeFileSync(KEPT, text);
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
};

const restore = () => {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
};

const command = process.argv[2];
if (command === 'strip') strip();
else if (command === 'restore') restore();
else {
  console.error('usage: pack-manifest.mjs strip|restore');
  process.exit(2);
}
