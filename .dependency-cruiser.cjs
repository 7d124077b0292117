// The dependency rule (docs/architecture.md "The dependency
// rule, measured"). CI runs `npm run deps:check`, which fails on any violation
// not in the committed baseline (.dependency-cruiser-known-violations.json), so
// the known ones can only shrink; `npm run deps:baseline` rewrites the baseline
// (after a change that removes violations, or after merges the lead reviews).
const CORE = '^packages/core/src/';
// The ground floor: the kernel (shared/) and its test support (testing/: the contract harness,
// the fault-injecting and interleaving stores, the kernel's mothers).
const KERNEL = `${CORE}(shared|testing)/`;
const TESTING = `${CORE}testing/`;
// The top floor: the registry (registry/ and the files at core's root: application, ports, index),
// which names every feature.
const REGISTRY = `${CORE}(registry/|[^/]+\\.ts$)`;
// A feature folder: any folder of core/src but the kernel's and the registry's.
const FEATURE = `${CORE}(?!shared/|testing/|registry/)[^/]+/`;
// Test support outside testing/: the contract suites, each feature's mothers, test tokens and `testing.ts`, and
// the `./testing` entry point (registry/testing.ts, registry/feature-testing.ts).
const TEST_SUPPORT = [
  '\\.contract\\.ts$',
  '/record-mothers\\.ts$',
  '/test-tokens\\.ts$',
  // A feature's test support in one file (its suites, mothers and row of suites), and the registry's list of them.
  `${FEATURE}testing\\.ts$`,
  `${CORE}registry/(feature-)?testing\\.ts$`,
];

// The direction between features (docs/architecture.md, "The dependency rule"), lowest first: a
// feature may import the kernel and the features before it in this list, never one after it. The
// list is core's features' list itself (`FEATURE_MODULES` in registry/features.ts, its keys in
// order), read from its source here, so a new feature's rank is its one line there.
const FEATURE_RANKS = featureRanks();
function featureRanks() {
  const source = require('node:fs').readFileSync(require('node:path').join(__dirname, 'packages/core/src/registry/features.ts'), 'utf8');
  const list = /export const FEATURE_MODULES = \{([^}]*)\}/.exec(source);
  if (list === null) throw new Error('.dependency-cruiser.cjs: no FEATURE_MODULES list in packages/core/src/registry/features.ts');
  const ranks = [...list[1].matchAll(/^\s*(?:'([a-z-]+)'|([a-zA-Z]+))\s*[:,]/gm)].map((m) => m[1] ?? m[2]);
  if (ranks.length === 0) throw new Error('.dependency-cruiser.cjs: the FEATURE_MODULES list is empty');
  return ranks;
}
const rankRules = FEATURE_RANKS.slice(0, -1).map((feature, i) => ({
  name: `feature-rank-${feature}`,
  severity: 'error',
  comment: `${feature}/ imports only the kernel and the features below it (${FEATURE_RANKS.slice(0, i).join(', ') || 'none'}): the features above it are ${FEATURE_RANKS.slice(i + 1).join(', ')}.`,
  from: { path: `${CORE}${feature}/` },
  to: { path: `${CORE}(${FEATURE_RANKS.slice(i + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...rankRules,
    {
      name: 'feature-has-a-rank',
      severity: 'error',
      comment: 'Every folder of core/src is the kernel (shared/, testing/), the registry (registry/) or a feature listed in FEATURE_RANKS.',
      from: { path: CORE },
      to: { path: `${CORE}(?!shared/|testing/|registry/|(${FEATURE_RANKS.join('|')})/)[^/]+/` },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere in packages/*/src (issue 44 item 1).',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'kernel-imports-no-feature',
      severity: 'error',
      comment: 'shared/ (the kernel) and testing/ (its test support) import no feature folder and no registry file (docs/architecture.md).',
      from: { path: KERNEL },
      to: { path: `${CORE}(?!shared/|testing/)` },
    },
    {
      name: 'no-feature-imports-registry',
      severity: 'error',
      comment: 'The registry (registry/ and core/src/*.ts: application, ports, index) imports features; no feature imports it.',
      from: { path: FEATURE },
      to: { path: REGISTRY },
    },
    {
      name: 'no-production-imports-testing',
      severity: 'error',
      comment:
        'Test support (testing/, the contract suites, the mothers, the ./testing entry point) is imported by tests and by other test support, never by production code of core.',
      from: { path: CORE, pathNot: [TESTING, ...TEST_SUPPORT] },
      to: { path: [TESTING, ...TEST_SUPPORT] },
    },
    {
      name: 'no-feature-folder-cycles',
      // An error since it reached 0 (dependency-cruiser 17's --ignore-known softens module-level
      // violations only, so a folder-level one could never sit in the baseline).
      severity: 'error',
      comment: 'Features import each other in one direction only: no pair (or ring) of core folders imports each other.',
      scope: 'folder',
      from: { path: `${CORE}[^/]+$` },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['/dist/', 'node_modules', '^packages/client/src/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['debtkit-source', 'import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: {},
  },
};
