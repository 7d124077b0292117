'use strict';
// The spec reporter, followed by one machine-readable totals line: "N passed, M failed".
//
// In the root run (parallel, with scripts/file-durations.cjs required) it also
// collects how long each test file held its worker and prints the longest
// files and each worker's busy time before the totals line (docs/testing.md).
// DEBTKIT_RECORD_DURATIONS=1 writes them, longest first, to
// scripts/test-durations.json: the order the root .mocharc.cjs hands files to
// the workers in.
const Mocha = require('mocha');
const { existsSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const RECORD = join(__dirname, 'test-durations.json');
const SHOWN = 12;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    // Workers are forked after the reporter exists and inherit this (scripts/file-durations.cjs).
    const durations = join(tmpdir(), `debtkit-file-durations-${process.pid}.jsonl`);
    rmSync(durations, { force: true });
    process.env.DEBTKIT_FILE_DURATIONS = durations;
    const started = performance.now();
    runner.once('end', () => {
      const { passes, failures } = runner.stats;
      if (existsSync(durations)) {
        const files = readFileSync(durations, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line))
          .sort((a, b) => b.ms - a.ms);
        rmSync(durations, { force: true });
        const busy = new Map();
        for (const { worker, ms } of files) busy.set(worker, (busy.get(worker) ?? 0) + ms);
        const workers = [...busy].sort(([a], [b]) => a - b).map(([worker, ms]) => `worker ${worker} ${seconds(ms)}`);
        process.stdout.write(
          `\n  ${files.length} files in ${seconds(performance.now() - started)} (${workers.join(', ')}); the longest:\n`,
        );
        for (const { file, ms, worker } of files.slice(0, SHOWN))
          process.stdout.write(`    ${seconds(ms).padStart(7)}  ${file} (worker ${worker})\n`);
        if (process.env.DEBTKIT_RECORD_DURATIONS === '1') {
          writeFileSync(RECORD, `${JSON.stringify(Object.fromEntries(files.map(({ file, ms }) => [file, ms])), null, 2)}\n`);
          process.stdout.write(`  recorded in ${RECORD}\n`);
        }
      }
      process.stdout.write(`${passes} passed, ${failures} failed\n`);
    });
  }
}

module.exports = SummaryReporter;
