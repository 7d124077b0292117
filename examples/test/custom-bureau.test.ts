import { expect } from 'chai';
import { factorObject } from '@debtkit/core';
import { main } from '../custom-bureau/main.js';
import { runExampleScript } from './support/example-script.js';

describe('example: custom-bureau (rebinding CreditBureau)', () => {
  it("runs production on the lender's bureau: its one-time code and its score, not the sandbox's", async () => {
    const lines: string[] = [];
    const result = await main((line) => lines.push(line));

    // The sandbox's magic code is just a wrong code for the lender's bureau.
    expect(result.sandboxOtpStatus).to.equal(400);
    expect(result.lenderOtpStatus).to.equal(200);
    // The score stored is the one the lender's file holds (the sandbox would derive one from the user's accounts: there are none).
    expect(result.score).to.equal(742);
    expect(result.paymentHistory).to.deep.equal(factorObject('payment_history', 98.5));
    expect(lines).to.include("credit score from the lender's bureau: 742");
  });

  it('runs as a script and prints the same', async () => {
    const run = await runExampleScript('custom-bureau');
    expect(run.stderr).to.equal('');
    expect(run.code).to.equal(0);
    expect(run.stdout).to.contain("credit score from the lender's bureau: 742");
  });
});
