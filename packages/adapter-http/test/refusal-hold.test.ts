/** The hold on a blocked client's refusals (refusal-hold.ts, docs/decisions/rate-limits.md). */
import { expect } from 'chai';
import { createRefusalHold, PACED_FOR_MS, SLOT_MS } from '../src/http/refusal-hold.js';

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
    const { hold } = createRefusalHold(1000, { setTimer, now: () => now, random: () => 1 })!;
    const a = hold('c');
    now = 1010;
    const b = hold('c');
    expect(a).to.equal(b);
    expect(timers).to.have.length(1);
    expect(timers[0]!.ms).to.equal(1024); // the hold, to the end of its slot (2025)
    now = 1001 + SLOT_MS;
    const c = hold('c');
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
    void hold('c');
    expect(timers).to.have.length(3);
  });

  it('spreads holds between half the hold and the hold, so connections refused together do not come back together', () => {
    const { timers, setTimer } = fakeTimers();
    const draws = [0, 0.5, 0.999];
    const { hold } = createRefusalHold(1000, { setTimer, now: () => 0, random: () => draws.shift() ?? 0 })!;
    for (let i = 0; i < 3; i++) void hold('c');
    expect(timers.map((t) => t.ms)).to.deep.equal([500, 750, 1000]);
  });

  it('never paces a client that was not held: its allowed requests go on at once, whatever their number', () => {
    const { timers, setTimer } = fakeTimers();
    const { hold, pace } = createRefusalHold(1000, { setTimer, now: () => 0, random: () => 0 })!;
    for (let i = 0; i < 500; i++) expect(pace('well-behaved', 100)).to.equal(undefined);
    void hold('flooder');
    for (let i = 0; i < 500; i++) expect(pace('well-behaved', 100)).to.equal(undefined);
    expect(timers).to.have.length(1); // the flooder's hold only
  });

  it("spreads a held client's allowed requests at its rate, none waiting longer than the hold, until it has not been held for a while", async () => {
    const { timers, setTimer } = fakeTimers();
    let now = 10_000;
    const { hold, pace } = createRefusalHold(1000, { setTimer, now: () => now, random: () => 0 })!;
    void hold('flooder');
    expect(timers).to.have.length(1);
    // Its next window opens: 150 allowed requests arrive at once (its budget, 100 a second, and some of its burst).
    now = 10_600;
    const turns = Array.from({ length: 150 }, () => pace('flooder', 100));
    expect(turns[0], 'the first goes on at once').to.equal(undefined);
    // One turn every 10 ms on shared 25 ms slots: 2 or 3 requests a slot, the last at the hold's end.
    const waits = timers.slice(1).map((t) => t.ms);
    expect(waits[0]).to.equal(25); // its turn, 10,610, is in the slot that ends at 10,625
    expect(waits.at(-1)).to.equal(1000); // 10,600 + the hold
    for (let i = 1; i < waits.length; i++) expect(waits[i]! - waits[i - 1]!).to.equal(SLOT_MS);
    expect(turns.slice(1, 100).every((t) => t !== undefined)).to.equal(true);
    expect(new Set(turns.slice(1)).size).to.equal(waits.length);
    // Waiting turns resolve when their slot's timer fires.
    expect(await settled(turns[1]!)).to.equal(false);
    timers[1]!.fire();
    expect(await settled(turns[1]!)).to.equal(true);
    // PACED_FOR_MS after its last hold the client goes on at once again.
    now = 10_000 + PACED_FOR_MS + 1;
    expect(pace('flooder', 100)).to.equal(undefined);
    expect(pace('flooder', 100)).to.equal(undefined);
  });
});
