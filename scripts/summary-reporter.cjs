'use strict';
// The spec reporter, followed by one machine-readable totals line: "N passed, M failed".
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const { passes, failures } = runner.stats;
      process.stdout.write(`${passes} passed, ${failures} failed\n`);
    });
  }
}

module.exports = SummaryReporter;
