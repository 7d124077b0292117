/**
 * The features' list (registry/features.ts, docs/architecture.md "One manifest per feature"): every
 * feature folder has its manifest and its line, and the registry's tables derived from the list agree
 * with it.
 */
import { expect } from 'chai';
import { readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { FEATURES, FEATURE_NAMES, featureStorePorts, bindFeatureUseCases } from '../src/registry/features.js';
import { STORE_PORTS } from '../src/registry/store-ports.js';
import { RELEASES } from '../src/registry/versioning/versions.js';

/** core/src, whether this runs from test/ or dist/test/. */
const here = dirname(fileURLToPath(import.meta.url));
const src = [join(here, '..', 'src'), join(here, '..', '..', 'src')].find((dir) => existsSync(join(dir, 'registry', 'features.ts')))!;
const NOT_FEATURES = new Set(['shared', 'testing', 'registry']);

describe('the features list (registry/features.ts)', () => {
  it('names every feature folder of core/src, each with its manifest.ts', () => {
    const folders = readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !NOT_FEATURES.has(entry.name))
      .map((entry) => entry.name);
    expect([...FEATURE_NAMES]).to.have.members(folders);
    for (const folder of folders) expect(existsSync(join(src, folder, 'manifest.ts')), `${folder}/manifest.ts`).to.equal(true);
  });

  it("gives .dependency-cruiser.cjs the features' ranks in the list's order (it reads them from features.ts)", () => {
    const repo = join(src, '..', '..', '..');
    const config = createRequire(import.meta.url)(join(repo, '.dependency-cruiser.cjs')) as { forbidden: ReadonlyArray<{ name: string }> };
    const ranked = config.forbidden
      .filter((rule) => rule.name.startsWith('feature-rank-'))
      .map((rule) => rule.name.slice('feature-rank-'.length));
    // Every feature but the last has its rule (the last imports any feature below it).
    expect(ranked).to.deep.equal(FEATURE_NAMES.slice(0, -1));
  });

  it('gives the port table every feature store port, each the same token, plus only the kernel idempotency port', () => {
    const features = featureStorePorts();
    const table: Readonly<Record<string, unknown>> = STORE_PORTS;
    expect(Object.keys(table)).to.have.members([...Object.keys(features), 'idempotency']);
    for (const [key, token] of Object.entries(features)) expect(table[key], key).to.equal(token);
  });

  it('binds every feature bundle, no use case named by two features (bindFeatureUseCases throws on one)', () => {
    const deps = {} as Parameters<typeof bindFeatureUseCases>[0];
    const bound = bindFeatureUseCases(deps);
    const expected = Object.values(FEATURES).flatMap((m) => ('useCases' in m ? Object.keys(m.useCases(deps)) : []));
    expect(Object.keys(bound)).to.have.members(expected);
    expect(new Set(expected).size).to.equal(expected.length);
  });

  it("releases exactly the version changes the features' manifests declare", () => {
    const declared = Object.values(FEATURES).flatMap((m) => ('versionChanges' in m ? [...m.versionChanges] : []));
    const released = RELEASES.flatMap((release) => [...release.changes]);
    expect(released).to.have.members(declared);
    expect(new Set(released).size).to.equal(released.length);
  });
});
