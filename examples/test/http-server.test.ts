import { expect } from 'chai';
import { CURRENT_VERSION, type Clock, type IsoDate } from '@debtkit/core';
import { demoAccounts } from '@debtkit/adapter-memory';
import { main } from '../http-server/main.js';
import { runExampleScript } from './support/example-script.js';

const TODAY = '2026-03-15' as IsoDate;
const clock: Clock = { now: () => new Date(`${TODAY}T12:00:00.000Z`) };

describe('example: http-server', () => {
  it("serves the demo user's credit score and loan accounts over HTTP", async () => {
    const lines: string[] = [];
    const result = await main((line) => lines.push(line), clock);

    expect(result.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(result.apiVersion).to.equal(CURRENT_VERSION);
    expect(result.creditScore.last_name).to.equal('Rivera');
    expect(result.creditScore.date).to.equal(TODAY);
    expect(result.creditScore.score).to.be.within(300, 850);
    // The seed's loan accounts, in id order; the checking account is filtered out by ?type=loan.
    const loans = demoAccounts(TODAY).filter((a) => a.type === 'loan');
    expect(result.accounts.map((a) => a.name)).to.deep.equal(loans.map((a) => a.name));
    expect(result.accounts.map((a) => a.effective_apr)).to.deep.equal(loans.map((a) => a.apr));
    expect(lines[0]).to.equal(`debtkit listening on ${result.url}`);
    expect(lines).to.include(`GET /api/users/${result.userId}/accounts?type=loan: ${loans.length} accounts`);
  });

  it('runs as a script, prints, and exits once the server is closed', async () => {
    const run = await runExampleScript('http-server');
    expect(run.stderr).to.equal('');
    expect(run.code).to.equal(0);
    expect(run.stdout).to.match(/^debtkit listening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(run.stdout).to.match(/GET \/api\/users\/1\/credit_scores \(API-Version 2026-11-26\): score \d{3} on \d{4}-\d{2}-\d{2}/);
  });
});
