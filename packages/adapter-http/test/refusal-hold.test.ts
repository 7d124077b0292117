/** The hold on a blocked client's refusals (refusal-hold.ts, docs/decisions/rate-limits.md). */
import { expect } from 'chai';
import { createRefusalHold, SLOT_MS } from '../src/http/refusal-hold.js';

describe('refusal hold (docs/decisions/rate-limits.md)', () => {
  const fakeTimers = () => {
    const timers: Array<{ readonly ms: number; readonly fire: () => void }> = [];
    return { timers, setTimer: (fire: () => void, ms: number) => (timers.push({ ms, fire }), () => undefined) };
  };
  const settled = async (p: Promise<void>): Promise<boolean> => {
    let done = false;
    void p.then(() => (done = true));
    await Promise.resolve();
    await Promise.resolve();
    return done;
  };

  it('is off at 0: refusals are answered at once', () => {
    expect(createRefusalHold(0)).to.equal(undefined);
  });

  it('ends each hold at the end of its slot, with one timer per slot shared by every request held until it', async () => {
    const { timers, setTimer } = fakeTimers();
    let now = 1001;
    // The longest hold (random 1 → the whole hold); the spread has its own test below.
    const hold = createRefusalHold(1000, { setTimer, now: () => now, random: () => 1 })!;
    const a = hold();
    now = 1010;
    const b = hold();
    expect(a).to.equal(b);
    expect(timers).to.have.length(1);
    expect(timers[0]!.ms).to.equal(1024); // the hold, to the end of its slot (2025)
    now = 1001 + SLOT_MS;
    const c = hold();
    expect(c).to.not.equal(a);
    expect(timers).to.have.length(2);
    expect(timers[1]!.ms).to.be.within(1000, 1000 + SLOT_MS);
    expect(await settled(a)).to.equal(false);
    timers[0]!.fire();
    expect(await settled(a)).to.equal(true);
    expect(await settled(c)).to.equal(false);
    timers[1]!.fire();
    expect(await settled(c)).to.equal(true);
    // A fired slot is forgotten: a later request in a new slot gets a timer of its own.
    now = 5000;
    void hold();
    expect(timers).to.have.length(3);
  });

  it('spreads holds between half the hold and the hold, so connections refused together do not come back together', () => {
    const { timers, setTimer } = fakeTimers();
    const draws = [0, 0.5, 0.999];
    const hold = createRefusalHold(1000, { setTimer, now: () => 0, random: () => draws.shift() ?? 0 })!;
    for (let i = 0; i < 3; i++) void hold();
    expect(timers.map((t) => t.ms)).to.deep.equal([500, 750, 1000]);
  });
});
