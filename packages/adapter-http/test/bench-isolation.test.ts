/**
 * `npm run bench:isolation` runs (a benchmark, not a timed test): one short
 * run with a small heavy client measures both phases and its webhooks.
 */
import { expect } from 'chai';
import { isolationRun, isolationSettings } from '../bench/isolation.js';

describe('bench:isolation (smoke)', function () {
  this.timeout(60_000);

  it('runs the light client alone and beside a heavy one, and times its webhooks', async () => {
    const run = await isolationRun({
      ...isolationSettings(),
      runs: 1,
      durationSeconds: 1,
      warmupSeconds: 0.2,
      lightRate: 20,
      heavyPlans: 1,
      heavyDebts: 3,
      heavyMonths: 120,
      heavyEndpoints: 2,
      heavyInFlight: 4,
    });
    expect(run.alone.requests).to.be.greaterThan(0);
    expect(run.beside.requests).to.be.greaterThan(0);
    expect(run.alone.p99Ms).to.be.a('number');
    expect(run.heavy.planIds).to.have.length(1);
    expect(run.heavy.endpoints).to.equal(2);
    expect(run.heavyLoad.requests).to.be.greaterThan(0);
    expect(run.alone.webhookDelaysMs.length + run.alone.webhooksMissing).to.be.greaterThan(0);
  });
});
