import { expect } from 'chai';
import { main } from '../mongo/main.js';
import { runExampleScript } from './support/example-script.js';

// Like the adapter's own suites: a real server when MONGODB_URL is set, else the wire-protocol test server.
const mongodbUrl = process.env['MONGODB_URL'] || undefined;
const target = mongodbUrl === undefined ? 'wire-protocol test server' : 'MONGODB_URL';

describe(`example: mongo (against the ${target})`, () => {
  it('seeds the demo on MongoDB and serves its credit score', async () => {
    const lines: string[] = [];
    const result = await main((line) => lines.push(line), mongodbUrl);

    expect(result.target).to.equal(target);
    expect(result.readyStatus).to.equal(200);
    expect(result.creditScore.last_name).to.equal('Rivera');
    expect(result.creditScore.score).to.be.within(300, 850);
    expect(lines).to.include(`MongoDB: ${target}, database debtkit_example`);
    expect(lines).to.include(
      `GET /api/users/${result.userId}/credit_scores → score ${result.creditScore.score} for Rivera on ${result.creditScore.date}`,
    );
  });

  it('runs as a script and shuts everything down', async () => {
    const run = await runExampleScript('mongo');
    expect(run.stderr).to.equal('');
    expect(run.code).to.equal(0);
    expect(run.stdout).to.contain(`MongoDB: ${target}, database debtkit_example`);
    expect(run.stdout).to.contain('GET /readyz → 200');
  });
});
