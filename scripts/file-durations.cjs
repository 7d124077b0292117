'use strict';
/**
 * A root hook plugin (`require` in the root .mocharc.cjs) that records how long
 * each test file holds its worker: from the end of the worker's previous file
 * (or the worker's start) to the end of this file's last hook, so loading the
 * file and its imports counts too. In parallel mode it runs in each worker; it
 * appends one JSON line per file ({ file, ms, worker }) to the file the
 * reporter names in DEBTKIT_FILE_DURATIONS (scripts/summary-reporter.cjs), which
 * prints the longest files and the workers' busy time at the end of the run.
 * Only in a worker (MOCHA_WORKER_ID): in serial mode root hooks run once for
 * the whole run, not per file. Without the variable it records nothing.
 */
const { appendFileSync } = require('node:fs');
const { relative } = require('node:path');

let previousEnd = performance.now();

/** The file a root suite was loaded from: its first suite's or test's `file`. */
const fileOf = (suite) => {
  if (suite.file) return suite.file;
  for (const test of suite.tests) if (test.file) return test.file;
  for (const child of suite.suites) {
    const file = fileOf(child);
    if (file) return file;
  }
  return undefined;
};

exports.mochaHooks = {
  afterAll() {
    const out = process.env.DEBTKIT_FILE_DURATIONS;
    const now = performance.now();
    const ms = Math.round(now - previousEnd);
    previousEnd = now;
    const file = fileOf(this.test.parent);
    const worker = process.env.MOCHA_WORKER_ID;
    if (!out || !file || worker === undefined) return;
    appendFileSync(out, `${JSON.stringify({ file: relative(process.cwd(), file).split('\\').join('/'), ms, worker: Number(worker) })}\n`);
  },
};
