// Root test run: every package's compiled tests in one mocha run, so the
// summary line counts the totals over all packages. Files run in two worker
// processes (the machines it runs on have 2 cores; most files wait on child
// processes and loopback servers), which halves the suite's time: 8 m 59 s
// serial, 5 m 9 s in parallel on the same tree (docs/testing.md).
module.exports = {
  spec: [
    'packages/core/dist/test/**/*.test.js',
    'packages/adapter-memory/dist/test/**/*.test.js',
    'packages/mongo-wire-test-server/dist/test/**/*.test.js',
    'packages/adapter-mongo/dist/test/**/*.test.js',
    'packages/adapter-http/dist/test/**/*.test.js',
    'packages/client/dist/test/**/*.test.js',
    'examples/dist/test/**/*.test.js',
  ],
  reporter: './scripts/summary-reporter.cjs',
  failZero: true,
  timeout: 20000,
  exit: true,
  parallel: true,
  jobs: 2,
};
