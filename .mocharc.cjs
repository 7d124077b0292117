// Root test run: every package's compiled tests in one mocha process, so the
// summary line counts the totals over all packages.
module.exports = {
  spec: [
    'packages/core/dist/test/**/*.test.js',
    'packages/adapter-memory/dist/test/**/*.test.js',
    'packages/mongo-wire-test-server/dist/test/**/*.test.js',
    'packages/adapter-mongo/dist/test/**/*.test.js',
    'packages/adapter-http/dist/test/**/*.test.js',
    'examples/dist/test/**/*.test.js',
  ],
  reporter: './scripts/summary-reporter.cjs',
  failZero: true,
  timeout: 20000,
  exit: true,
};
