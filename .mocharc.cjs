// Root test run: every package's compiled tests in one mocha run, so the
// summary line counts the totals over all packages. Files run in two worker
// processes (the machines it runs on have 2 cores; most files wait on child
// processes and loopback servers), which halves the suite's time: 8 m 59 s
// serial, 5 m 9 s in parallel on the same tree (docs/testing.md).
//
// Mocha hands the files to the workers in the order given, each worker taking
// the next when it is free, so the longest go first (the longest-first rule
// keeps the two workers' loads even at the end): the order is the per-file
// times recorded in scripts/test-durations.json (`DEBTKIT_RECORD_DURATIONS=1
// npm test` records them again; scripts/summary-reporter.cjs prints them after
// every run). A file not recorded yet goes first; every file under the
// directories below runs, recorded or not.
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const DIRECTORIES = [
  'packages/core/dist/test',
  'packages/adapter-memory/dist/test',
  'packages/mongo-wire-test-server/dist/test',
  'packages/adapter-mongo/dist/test',
  'packages/adapter-http/dist/test',
  'packages/client/dist/test',
  'examples/dist/test',
];

const testFiles = (directory) =>
  existsSync(join(__dirname, directory))
    ? readdirSync(join(__dirname, directory), { recursive: true })
        .map((name) => String(name).split('\\').join('/'))
        .filter((name) => name.endsWith('.test.js'))
        .sort()
        .map((name) => `${directory}/${name}`)
    : [];

const recorded = (() => {
  try {
    return JSON.parse(readFileSync(join(__dirname, 'scripts/test-durations.json'), 'utf8'));
  } catch {
    return {};
  }
})();

const files = DIRECTORIES.flatMap(testFiles);
const longestFirst = files
  .map((file, index) => ({ file, index, ms: recorded[file] ?? Number.POSITIVE_INFINITY }))
  .sort((a, b) => b.ms - a.ms || a.index - b.index)
  .map(({ file }) => file);

module.exports = {
  spec: longestFirst.length > 0 ? longestFirst : DIRECTORIES.map((directory) => `${directory}/**/*.test.js`),
  reporter: './scripts/summary-reporter.cjs',
  require: ['./scripts/file-durations.cjs'],
  failZero: true,
  timeout: 20000,
  exit: true,
  parallel: true,
  jobs: 2,
};
