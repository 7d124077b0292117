import { expect } from 'chai';
import { main } from '../embed-core/main.js';
import { runExampleScript } from './support/example-script.js';

describe('example: embed-core', () => {
  it('returns what the core computes for its inputs', () => {
    const lines: string[] = [];
    const result = main((line) => lines.push(line));

    expect(result.ratings).to.deep.equal({
      'payment_history 89.995': 'Good',
      'credit_utilization 30.005': 'Poor',
      'derogatory_marks 0': 'Good',
      'credit_mix 2': 'Poor',
    });
    expect(result.creditAge).to.deep.equal({ amount: 5, factor: 'Poor' });
    // 10 rated months (not `*` or `0`), 8 of them on time (`1`, `E`); one `6`.
    expect(result.onTime).to.equal(80);
    expect(result.derogatoryMonths).to.equal(1);
    expect(result.anyDerogatory).to.equal(true);
    expect(result.bureau.map((s) => [s.event, s.status, s.awaiting])).to.deep.equal([
      ['invoke', 'pending', 'consent'],
      ['consent', 'pending', 'validate_otp'],
      ['otp_failure', 'pending', 'validate_otp'],
      ['validate_otp', 'pending', 'identity'],
      ['identity', 'authenticated', null],
      ['invoke', 'pending', 'validate_otp'],
    ]);
    expect(result.outOfOrder).to.deep.equal({ _tag: 'conflict', message: 'The bureau flow awaits validate_otp' });
    expect(result.plan).to.deep.equal({ months: 18, payoffDate: '2027-07-15', totalInterest: 123_368, order: [1, 2, 3] });
    expect(lines).to.include('avalanche, $600.00/month: order 1, 2, 3; paid off 2027-07-15 after 18 months; interest $1,233.68');
    // The comparison's avalanche is the plan above; savings are against paying only the minimums.
    expect(result.comparison).to.deep.equal({
      strategies: [
        { strategy: 'avalanche', months: 18, totalInterest: 123_368, interestSaved: 235_277 },
        { strategy: 'snowball', months: 19, totalInterest: 129_495, interestSaved: 229_150 },
        { strategy: 'minimum_only', months: 56, totalInterest: 358_645, interestSaved: 0 },
      ],
      recommended: 'avalanche',
    });
    expect(lines).to.include('compare snowball    : 19 months, interest $1,294.95, saves $2,291.50 against minimums only');
  });

  it('runs as a script and prints the same', async () => {
    const run = await runExampleScript('embed-core');
    expect(run.stderr).to.equal('');
    expect(run.code).to.equal(0);
    expect(run.stdout).to.contain('classify payment_history 89.995 → Good');
    expect(run.stdout).to.contain('bureau identity now → conflict: The bureau flow awaits validate_otp');
    expect(run.stdout).to.contain('paid off 2027-07-15 after 18 months; interest $1,233.68');
    expect(run.stdout).to.contain('recommended: avalanche');
  });
});
