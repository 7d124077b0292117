// Per-package test run (`npm test -w @debtkit/core`); specs are given on the command line.
module.exports = { reporter: require.resolve('./scripts/summary-reporter.cjs'), failZero: true, timeout: 20000, exit: true };
