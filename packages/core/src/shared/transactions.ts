/**
 * The policy every store's `UnitOfWork` shares (docs/decisions/transactions.md), written once:
 * abort on `Left` or a throw, and run again on a write
 * conflict, so a hot record never turns into a 409 storm and a store outage
 * never into a hanging request. The store adapter brings only `begin` /
 * `commit` / `abort` (shared/unit-of-work.ts).
 *
 * Hot records (docs/decisions/transactions.md, docs/performance.md), two mechanisms:
 * - **Turns, within a process.** A run that names a turn (`RunOptions.turn`, the
 *   aggregate it changes: a user and what is under it) waits, first in first
 *   out, until no other run of this process holds that turn, and holds it
 *   across its attempts until it commits or gives up. So N concurrent changes
 *   to one account from one process commit one after the other instead of
 *   conflicting. It is an in-process queue in front of the store, not a store
 *   lock: the store's isolation is unchanged (snapshot reads, first writer
 *   wins), so two changes under different turns, or without one, still meet
 *   as write conflicts (and write skew still needs the owner bump). Memory is
 *   bounded: a turn's entry exists only while someone holds it.
 * - **Backoff, across processes** (what turns cannot see): a write conflict
 *   runs the work again after a random wait ("full jitter": 0 to
 *   min(cap, base·2^(n-1)) ms before attempt n+1), until the deadline
 *   (`DEBTKIT_WRITE_CONFLICT_DEADLINE_MS`, default 10 s) counted from when the
 *   run got its turn (or asked, without one); then `conflict` with
 *   `retryAfterSeconds` (409 with `Retry-After`). The wait for a turn is
 *   bounded by the same deadline, with the same answer. So a change answers
 *   within two deadlines (plus one attempt), and a long line of changes to one
 *   account drains at the store's pace without its tail giving up early.
 * - The deadline is for conflicts, not outages: `unavailable` is answered at
 *   once, and the runs queued for the turn of a run that met it answer
 *   `unavailable` at once too, instead of each waiting out the outage in turn.
 *
 * Random waits and timers are injectable (`random`, `now`, `schedule`), so
 * tests are deterministic.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { unavailable, type Conflict, type DomainError, type StoreError } from './errors.js';
import { isWriteConflict, type RunOptions, type TransactionDriver, type UnitOfWork, type TransactionPorts } from './unit-of-work.js';

/** DEBTKIT_WRITE_CONFLICT_DEADLINE_MS's default: how long a change keeps trying before it answers 409 `conflict`. */
export const WRITE_CONFLICT_DEADLINE_MS = 10_000;

/** The `Retry-After` (seconds) of a change that kept losing: the contention is usually over by then. */
export const CONFLICT_RETRY_AFTER_SECONDS = 1;

/** Cancels a scheduled callback (a no-op once it ran). */
export type Cancel = () => void;

export interface TransactionRunnerOptions {
  /** How long a change may wait for its turn and run again after write conflicts, in ms since it asked; default 10000. */
  readonly deadlineMs?: number;
  /** An extra bound on the runs of one transaction after write conflicts; default none (the deadline bounds them). */
  readonly maxAttempts?: number;
  /** The backoff's first cap, in ms: attempt n+1 waits up to `backoffBaseMs`·2^(n-1); default 2. */
  readonly backoffBaseMs?: number;
  /** The largest wait between two attempts, in ms; default 100. */
  readonly backoffCapMs?: number;
  /** Milliseconds, monotonic (tests inject one); default `performance.now`. */
  readonly now?: () => number;
  /** Uniform in [0, 1): the jitter (tests inject one); default `Math.random`. */
  readonly random?: () => number;
  /** Run `callback` after `ms` (backoff waits, turn deadlines); default `setTimeout`. */
  readonly schedule?: (callback: () => void, ms: number) => Cancel;
}

/** One run of the runner, across its attempts: when it asked (the deadline counts from there) and the turn it holds. */
export interface RunState {
  /** When it asked, then when it got its turn: the deadline counts from here. */
  started: number;
  turn: HeldTurn | undefined;
}

export interface HeldTurn {
  readonly key: string;
  /** Hand the turn to the next in line; `outage`: the store was unreachable, everyone in line answers `unavailable`. */
  readonly release: (outage: boolean) => void;
}

export type TurnOutcome =
  | { readonly _tag: 'granted'; readonly turn: HeldTurn; /** After others held it (not at once). */ readonly waited: boolean }
  | { readonly _tag: 'timeout' }
  | { readonly _tag: 'outage' };

interface Waiter {
  readonly grant: (outcome: TurnOutcome) => void;
  cancelTimer: Cancel;
}

/**
 * First-in-first-out turns per key, within this process. A key's entry (its
 * line of waiters) exists only while the turn is held: memory is bounded by the
 * runs in progress, whatever the number of keys ever used.
 */
export class Turns {
  private readonly lines = new Map<string, Waiter[]>();

  constructor(private readonly schedule: (callback: () => void, ms: number) => Cancel) {}

  /** The turn of `key` once every earlier asker released it; `timeout` after `waitMs`; `outage` when the holder met an outage. */
  take(key: string, waitMs: number): Promise<TurnOutcome> {
    const line = this.lines.get(key);
    if (line === undefined) {
      this.lines.set(key, []);
      return Promise.resolve({ _tag: 'granted', turn: this.held(key), waited: false });
    }
    return new Promise<TurnOutcome>((resolve) => {
      const waiter: Waiter = { grant: resolve, cancelTimer: () => undefined };
      waiter.cancelTimer = this.schedule(
        () => {
          const at = line.indexOf(waiter);
          if (at >= 0) line.splice(at, 1);
          resolve({ _tag: 'timeout' });
        },
        Math.max(0, waitMs),
      );
      line.push(waiter);
    });
  }

  /** Keys whose turn is held now (tests check that memory is given back). */
  get size(): number {
    return this.lines.size;
  }

  private held(key: string): HeldTurn {
    let released = false;
    return {
      key,
      release: (outage) => {
        if (released) return;
        released = true;
        const line = this.lines.get(key) ?? [];
        const next = outage ? undefined : line.shift();
        if (next === undefined) {
          this.lines.delete(key);
          for (const waiter of line.splice(0)) {
            waiter.cancelTimer();
            waiter.grant({ _tag: 'outage' });
          }
          return;
        }
        next.cancelTimer();
        next.grant({ _tag: 'granted', turn: this.held(key), waited: true });
      },
    };
  }
}

const defaultSchedule = (callback: () => void, ms: number): Cancel => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};

/** What a change that kept losing answers: 409 `conflict`, with `Retry-After`. */
export const contendedConflict = (): Conflict => ({
  _tag: 'conflict',
  message: 'The change lost to concurrent changes; retry',
  retryAfterSeconds: CONFLICT_RETRY_AFTER_SECONDS,
});

const TURN_OUTAGE = 'The data store is unavailable; try again later';

export const transactionRunner = <P extends TransactionPorts>(
  driver: TransactionDriver<P>,
  options: TransactionRunnerOptions = {},
): UnitOfWork => {
  const maxAttempts = options.maxAttempts ?? Number.POSITIVE_INFINITY;
  const deadlineMs = options.deadlineMs ?? WRITE_CONFLICT_DEADLINE_MS;
  const baseMs = options.backoffBaseMs ?? 2;
  const capMs = options.backoffCapMs ?? 100;
  const now = options.now ?? (() => performance.now());
  const random = options.random ?? Math.random;
  const schedule = options.schedule ?? defaultSchedule;
  const turns = new Turns(schedule);
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => void schedule(resolve, ms));
  const remaining = (state: RunState): number => deadlineMs - (now() - state.started);

  /** Wait for `key`'s turn within the run's deadline: `undefined` once held, else what the run answers. */
  const takeTurn = async (state: RunState, key: string): Promise<StoreError | undefined> => {
    const outcome = await turns.take(key, remaining(state));
    if (outcome._tag === 'granted') {
      state.turn = outcome.turn;
      state.started = now();
      return undefined;
    }
    return outcome._tag === 'outage' ? unavailable(TURN_OUTAGE) : contendedConflict();
  };

  const attempt = async <A, Err extends DomainError>(
    work: (ports: P) => TE.TaskEither<Err, A>,
    state: RunState,
    n: number,
  ): Promise<E.Either<Err | StoreError, A>> => {
    const begun = await driver.begin();
    if (E.isLeft(begun)) return begun;
    const tx = begun.right;
    let result: E.Either<Err, A>;
    try {
      result = await work(tx.ports)();
    } catch (err) {
      await tx.abort();
      throw err;
    }
    const outcome = E.isLeft(result) ? (await tx.abort(), result) : await tx.commit().then((c) => (E.isLeft(c) ? c : result));
    if (E.isRight(outcome) || !isWriteConflict(outcome.left)) return outcome;
    if (n >= maxAttempts || remaining(state) <= 0) return E.left(contendedConflict());
    // Full jitter, growing with the attempt, never past the deadline.
    const wait = Math.min(random() * Math.min(capMs, baseMs * 2 ** (n - 1)), remaining(state));
    if (wait > 0) await sleep(wait);
    return attempt(work, state, n + 1);
  };

  /** One run: its turn (if it names one) held across its attempts, released with its outcome. */
  const run = async <A, Err extends DomainError>(
    work: (ports: P) => TE.TaskEither<Err, A>,
    turn: string | undefined,
  ): Promise<E.Either<Err | StoreError, A>> => {
    const state: RunState = { started: now(), turn: undefined };
    let outage = false;
    try {
      if (turn !== undefined) {
        const refused = await takeTurn(state, turn);
        if (refused !== undefined) return E.left(refused);
      }
      const outcome = await attempt(work, state, 1);
      outage = E.isLeft(outcome) && outcome.left._tag === 'unavailable';
      return outcome;
    } finally {
      state.turn?.release(outage);
    }
  };

  return {
    run:
      <A, Err extends DomainError = never>(
        work: (ports: TransactionPorts) => TE.TaskEither<Err, A>,
        runOptions?: RunOptions,
      ): TE.TaskEither<Err | StoreError, A> =>
      () =>
        run(work, runOptions?.turn),
  };
};

/** The turn of a change to one user or anything under it (accounts, plans, payments, bureau flows): client and user. */
export const userTurn = (clientId: number, userId: number): string => `user:${clientId}:${userId}`;
