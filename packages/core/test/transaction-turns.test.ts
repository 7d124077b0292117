/**
 * Hot records in the shared transaction runner (shared/transactions.ts,
 * docs/decisions/transactions.md): runs naming one turn run one at a time, first come first
 * served; other turns are not held up; a write conflict backs off with full
 * jitter (the random source and the timers injected: deterministic) until the
 * deadline, then answers `conflict` with `retryAfterSeconds`; an outage answers
 * at once, and so do the runs waiting for the turn of the run that met it; a
 * turn's entry is dropped once nobody holds it.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { unavailable, type StoreError } from '../src/shared/errors.js';
import { Turns, transactionRunner, type Cancel } from '../src/shared/transactions.js';
import { writeConflict, type StoreTransaction, type TransactionDriver, type TransactionPorts } from '../src/shared/unit-of-work.js';

/** A driver whose commits answer what `commitWith` says (default: committed); counts begins. */
const driverOf = (commitWith: () => E.Either<StoreError, void> = () => E.right(undefined)) => {
  let begun = 0;
  const driver: TransactionDriver<TransactionPorts> = {
    begin: async () => {
      begun += 1;
      const tx: StoreTransaction<TransactionPorts> = {
        ports: {} as TransactionPorts,
        commit: async () => commitWith(),
        abort: async () => undefined,
      };
      return E.right(tx);
    },
  };
  return { driver, begun: () => begun };
};

/** Timers the test fires by hand, and a clock it moves. */
const manualTime = () => {
  let clock = 0;
  const pending: Array<{ at: number; fire: () => void; cancelled: boolean }> = [];
  const schedule = (callback: () => void, ms: number): Cancel => {
    const timer = { at: clock + ms, fire: callback, cancelled: false };
    pending.push(timer);
    return () => void (timer.cancelled = true);
  };
  /** Move the clock to `to` and fire the timers due by then, in order. */
  const advance = (to: number): void => {
    clock = to;
    for (const t of pending.filter((p) => !p.cancelled && p.at <= to).sort((a, b) => a.at - b.at)) {
      t.cancelled = true;
      t.fire();
    }
  };
  return { now: () => clock, schedule, advance };
};

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('transaction runner: turns and backoff (hot records)', () => {
  it('runs naming one turn run one at a time, in the order they asked; another turn is not held up', async () => {
    const { driver } = driverOf();
    const uow = transactionRunner(driver);
    const started: string[] = [];
    const gates = [gate(), gate(), gate()];
    const runs = gates.map((g, i) =>
      uow.run(() => TE.fromTask(async () => (started.push(`a${i}`), await g.opened, i)), { turn: 'user:1:1' })(),
    );
    const other = uow.run(() => TE.fromTask(async () => (started.push('b'), 'b')), { turn: 'user:1:2' })();
    await settle();
    expect(started).to.deep.equal(['a0', 'b']);
    expect(await other).to.deep.equal(E.right('b'));
    gates[1]!.open(); // the second may not start before the first ends, however it is released
    await settle();
    expect(started).to.deep.equal(['a0', 'b']);
    gates[0]!.open();
    await settle();
    expect(started).to.deep.equal(['a0', 'b', 'a1', 'a2']);
    gates[2]!.open();
    expect(await Promise.all(runs)).to.deep.equal([E.right(0), E.right(1), E.right(2)]);
  });

  it('a write conflict backs off with full jitter, doubling to the cap, until the deadline; then conflict with retryAfterSeconds', async () => {
    const time = manualTime();
    const { driver, begun } = driverOf(() => E.left(writeConflict()));
    const waits: number[] = [];
    const uow = transactionRunner(driver, {
      deadlineMs: 100,
      backoffBaseMs: 2,
      backoffCapMs: 16,
      now: time.now,
      random: () => 0.5,
      // Each wait passes at once on the manual clock.
      schedule: (callback, ms) => {
        waits.push(ms);
        const cancel = time.schedule(callback, ms);
        queueMicrotask(() => time.advance(time.now() + ms));
        return cancel;
      },
    });
    const result = await uow.run(() => TE.right(1), { turn: 'user:1:1' })();
    expect(result).to.deep.equal(
      E.left({ _tag: 'conflict', message: 'The change lost to concurrent changes; retry', retryAfterSeconds: 1 }),
    );
    // Half of min(16, 2·2^(n-1)) before attempt n+1 (random 0.5), the last one cut at the deadline.
    expect(waits.slice(0, 6)).to.deep.equal([1, 2, 4, 8, 8, 8]);
    expect(waits.reduce((a, b) => a + b, 0)).to.equal(100);
    expect(begun()).to.equal(waits.length + 1);
  });

  it('an outage answers at once (no retry, no wait), and the runs waiting for its turn answer unavailable without beginning', async () => {
    let down = false;
    const { driver, begun } = driverOf(() => (down ? E.left(unavailable('store down')) : E.right(undefined)));
    const uow = transactionRunner(driver);
    const holding = gate();
    down = true;
    const first = uow.run(() => TE.fromTask(() => holding.opened), { turn: 'user:1:1' })();
    const queued = [1, 2, 3].map(() => uow.run(() => TE.right('ran'), { turn: 'user:1:1' })());
    await settle();
    holding.open();
    const answered = await first;
    expect(E.isLeft(answered) && answered.left._tag).to.equal('unavailable');
    for (const r of await Promise.all(queued)) expect(E.isLeft(r) && r.left._tag).to.equal('unavailable');
    expect(begun(), 'only the first began').to.equal(1);
    // The outage is over: the next run of the turn begins and commits.
    down = false;
    expect(await uow.run(() => TE.right('ran'), { turn: 'user:1:1' })()).to.deep.equal(E.right('ran'));
  });

  it('a run that waited the whole deadline for its turn answers conflict with retryAfterSeconds, and begins nothing', async () => {
    const time = manualTime();
    const { driver, begun } = driverOf();
    const uow = transactionRunner(driver, { deadlineMs: 1000, now: time.now, schedule: time.schedule });
    const holding = gate();
    const first = uow.run(() => TE.fromTask(() => holding.opened), { turn: 'user:1:1' })();
    const late = uow.run(() => TE.right('late'), { turn: 'user:1:1' })();
    await settle();
    time.advance(999);
    await settle();
    time.advance(1000);
    expect(await late).to.deep.equal(
      E.left({ _tag: 'conflict', message: 'The change lost to concurrent changes; retry', retryAfterSeconds: 1 }),
    );
    holding.open();
    expect(E.isRight(await first)).to.equal(true);
    expect(begun()).to.equal(1);
  });

  it('a turn is kept only while held: memory is bounded by the runs in progress', async () => {
    const turns = new Turns((callback, ms) => {
      const timer = setTimeout(callback, ms);
      return () => clearTimeout(timer);
    });
    const first = await turns.take('k', 1000);
    const second = turns.take('k', 1000);
    expect(turns.size).to.equal(1);
    if (first._tag !== 'granted') throw new Error('not granted');
    first.turn.release(false);
    const got = await second;
    expect(got).to.include({ _tag: 'granted', waited: true });
    if (got._tag === 'granted') got.turn.release(false);
    expect(turns.size).to.equal(0);
  });
});
