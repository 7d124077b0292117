// The dependency rule (docs/architecture.md "The dependency
// rule, measured"). CI runs `npm run deps:check`, which fails on any violation
// not in the committed baseline (.dependency-cruiser-known-violations.json), so
// the known ones can only shrink; `npm run deps:baseline` rewrites the baseline
// (after a change that removes violations, or after merges the lead reviews).
const CORE = '^packages/core/src/';
const KERNEL = `${CORE}shared/`;
const TESTING = `${CORE}testing/`;
// The registry (top floor): the files at core's root that name every feature.
const REGISTRY = `${CORE}[^/]+\\.ts$`;
// A feature folder: any folder of core/src but the kernel and testing/.
const FEATURE = `${CORE}(?!shared/|testing/)[^/]+/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
      comment: 'shared/ is the kernel: it imports no feature folder, no registry file and not testing/ (docs/architecture.md).',
      from: { path: KERNEL },
      to: { path: `${CORE}(?!shared/)` },
    },
    {
      name: 'no-feature-imports-registry',
      severity: 'error',
      comment: 'The registry (core/src/*.ts: application, ports, index) imports features; no feature imports it.',
      from: { path: FEATURE },
      to: { path: REGISTRY },
    },
    {
      name: 'no-production-imports-testing',
      severity: 'error',
      comment:
        'testing/ (the contract harness and fakes) is imported by tests and by the contract suites (*.contract.ts), never by production code of core.',
      from: { path: CORE, pathNot: [TESTING, '\\.contract\\.ts$'] },
      to: { path: TESTING },
    },
    {
      name: 'no-feature-folder-cycles',
      // A warning until it reaches 0: dependency-cruiser 17's --ignore-known
      // softens module-level violations only (src/analyze/analyze-modules.mjs),
      // so a folder-level baseline cannot hold; `npm run deps:count` counts them.
      severity: 'warn',
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
