/**
 * The admission queue of docs/decisions/tenancy.md, on its own: limits, per-client queues,
 * round robin across clients, the wait's deadline and a client leaving. Time
 * is an injected timer the test fires; every step is a promise, no sleeps.
 */
import { expect } from 'chai';
import {
  createAdmissionQueue,
  defaultMaxInProgress,
  type Admission,
  type AdmissionSettings,
  type SetTimer,
} from '../src/http/admission-queue.js';

/** Timers the test fires by hand. */
const manualTimers = () => {
  const pending = new Set<{ readonly callback: () => void; readonly ms: number }>();
  const setTimer: SetTimer = (callback, ms) => {
    const timer = { callback, ms };
    pending.add(timer);
    return () => pending.delete(timer);
  };
  const fireAll = (): void => {
    for (const t of [...pending]) {
      pending.delete(t);
      t.callback();
    }
  };
  return { setTimer, fireAll, pending };
};

const settled = async (p: Promise<Admission>): Promise<Admission | 'pending'> => {
  // A queued admission settles only when a slot frees: after the microtasks of this turn, it is still pending.
  const marker = Symbol('pending');
  const result = await Promise.race([
    p,
    Promise.resolve()
      .then(() => Promise.resolve())
      .then(() => marker),
  ]);
  return result === marker ? 'pending' : (result as Admission);
};

const admitted = (a: Admission | 'pending'): (() => void) => {
  if (a === 'pending' || !a.admitted) throw new Error(`expected an admission, got ${JSON.stringify(a)}`);
  return a.release;
};

const queueOf = (settings: Partial<AdmissionSettings> = {}) => {
  const timers = manualTimers();
  const queue = createAdmissionQueue(
    { maxInProgress: 4, clientConcurrency: 2, queueWaitMs: 10_000, ...settings },
    { setTimer: timers.setTimer, now: () => 0 },
  );
  return { queue, timers };
};

describe('admission queue (docs/decisions/tenancy.md)', () => {
  it('admits at once under both limits, and counts what is in progress', () => {
    const { queue } = queueOf();
    const a = queue.tryAcquire('a');
    const b = queue.tryAcquire('b');
    expect(a).to.be.a('function');
    expect(b).to.be.a('function');
    expect(queue.inProgress()).to.equal(2);
    a?.();
    a?.(); // a second release gives nothing back twice
    expect(queue.inProgress()).to.equal(1);
  });

  it("queues a client's request over its own limit, and admits its queue in order as its slots free", async () => {
    const { queue } = queueOf({ clientConcurrency: 2 });
    const first = admitted(await settled(queue.acquire('heavy')));
    admitted(await settled(queue.acquire('heavy')));
    expect(queue.tryAcquire('heavy')).to.equal(undefined);
    const third = queue.acquire('heavy');
    const fourth = queue.acquire('heavy');
    expect(await settled(third)).to.equal('pending');
    expect(queue.waiting()).to.equal(2);
    // Another client is not held back by the heavy one's queue.
    expect(queue.tryAcquire('light')).to.be.a('function');
    first();
    admitted(await settled(third));
    expect(await settled(fourth)).to.equal('pending');
    expect(queue.inProgress()).to.equal(3);
  });

  it('admits waiting requests round robin across clients when process slots free', async () => {
    const { queue } = queueOf({ maxInProgress: 1, clientConcurrency: 10 });
    const hold = admitted(await settled(queue.acquire('heavy')));
    const order: string[] = [];
    const releases: Array<() => void> = [];
    const arrivals = ['heavy1', 'heavy2', 'light1', 'heavy3', 'other1', 'light2'];
    for (const name of arrivals) {
      void queue.acquire(name.slice(0, -1)).then((a) => {
        order.push(name);
        releases.push(admitted(a));
      });
    }
    expect(queue.waiting()).to.equal(6);
    let release = hold;
    for (let i = 0; i < arrivals.length; i++) {
      release();
      // One turn of the event loop: the admitted request's continuation has run (no timer involved).
      await new Promise((resolve) => setImmediate(resolve));
      expect(order).to.have.length(i + 1);
      expect(queue.inProgress()).to.equal(1);
      release = releases[i]!;
    }
    release();
    expect(order).to.deep.equal(['heavy1', 'light1', 'other1', 'heavy2', 'light2', 'heavy3']);
    expect(queue.inProgress()).to.equal(0);
    expect(queue.waiting()).to.equal(0);
  });

  it('passes over a client at its own limit and admits the next client in turn', async () => {
    const { queue } = queueOf({ maxInProgress: 3, clientConcurrency: 2 });
    const h1 = admitted(await settled(queue.acquire('heavy')));
    admitted(await settled(queue.acquire('heavy')));
    const l1 = admitted(await settled(queue.acquire('light')));
    const h3 = queue.acquire('heavy'); // over its own limit
    const l2 = queue.acquire('light'); // the process is full
    l1();
    // The freed slot cannot go to heavy (2 in progress, its limit): light's next request gets it.
    admitted(await settled(l2));
    expect(await settled(h3)).to.equal('pending');
    h1();
    admitted(await settled(h3));
  });

  it('refuses a request that waited queueWaitMs (timed_out), and frees its place', async () => {
    const { queue, timers } = queueOf({ maxInProgress: 1, queueWaitMs: 10_000 });
    const hold = admitted(await settled(queue.acquire('a')));
    const late = queue.acquire('b');
    expect([...timers.pending].map((t) => t.ms)).to.deep.equal([10_000]);
    timers.fireAll();
    const outcome = await late;
    expect(outcome).to.deep.include({ admitted: false, reason: 'timed_out' });
    expect(queue.waiting()).to.equal(0);
    hold();
    expect(queue.inProgress()).to.equal(0);
    // An admitted request's timer is canceled: nothing fires later.
    const next = queue.acquire('c');
    admitted(await settled(next));
    expect(timers.pending.size).to.equal(0);
  });

  it('frees the place of a request whose client left while it waited (abandoned), and admits the next', async () => {
    const { queue, timers } = queueOf({ maxInProgress: 1 });
    const hold = admitted(await settled(queue.acquire('a')));
    const left = new AbortController();
    const gone = queue.acquire('b', left.signal);
    const stays = queue.acquire('c');
    left.abort();
    expect(await gone).to.deep.include({ admitted: false, reason: 'abandoned' });
    expect(queue.waiting()).to.equal(1);
    hold();
    admitted(await settled(stays));
    expect(timers.pending.size).to.equal(0);
  });

  it('sizes the default process limit to the cores', () => {
    expect(defaultMaxInProgress(2)).to.equal(128);
    expect(defaultMaxInProgress(8)).to.equal(512);
  });
});
