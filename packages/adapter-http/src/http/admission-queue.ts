/**
 * The fair share of the process (docs/decisions/tenancy.md): at most `maxInProgress` requests
 * in progress at once, and at most `clientConcurrency` of any one client.
 * A request over either waits in its client's own queue (first come, first
 * served within the client) for at most `queueWaitMs`; when a slot frees,
 * waiting requests are admitted in turn across clients (round robin), so a
 * client with a long queue never delays another client's next request by more
 * than one turn.
 *
 * No I/O and no clock of its own: the wait's deadline is a timer the caller
 * may inject (`setTimer`), so tests drive the queue with promises alone. The
 * Koa step around it is pipeline/fair-admission.ts.
 */
import { availableParallelism } from 'node:os';

export interface AdmissionSettings {
  /** Requests in progress at once in this process (DEBTKIT_MAX_IN_PROGRESS). */
  readonly maxInProgress: number;
  /** Requests in progress at once per client (DEBTKIT_CLIENT_CONCURRENCY). */
  readonly clientConcurrency: number;
  /** How long a request may wait for its slot (DEBTKIT_QUEUE_WAIT_MS). */
  readonly queueWaitMs: number;
}

/** Requests in progress per core by default: most of a request's time is spent waiting on the store, not on a core. */
export const IN_PROGRESS_PER_CORE = 64;
export const DEFAULT_CLIENT_CONCURRENCY = 16;
export const DEFAULT_QUEUE_WAIT_MS = 10_000;

/** DEBTKIT_MAX_IN_PROGRESS's default: 64 × the cores Node may use (`os.availableParallelism()`). */
export const defaultMaxInProgress = (cores: number = availableParallelism()): number => IN_PROGRESS_PER_CORE * Math.max(1, cores);

/** Give the slot back (once; later calls do nothing). */
export type Release = () => void;

/** What `acquire` answers: the slot, or why there is none. */
export type Admission =
  | {
      readonly admitted: true;
      readonly release: Release;
      /** Milliseconds spent in the queue (0 when admitted at once). */ readonly waitedMs: number;
    }
  | { readonly admitted: false; readonly reason: 'timed_out' | 'abandoned'; readonly waitedMs: number };

/** Starts a timer; answers a function that cancels it. */
export type SetTimer = (callback: () => void, ms: number) => () => void;

export const realTimer: SetTimer = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};

export interface AdmissionQueueOptions {
  /** Default: `setTimeout`. */
  readonly setTimer?: SetTimer;
  /** Milliseconds, for `waitedMs`; default `performance.now`. */
  readonly now?: () => number;
}

export interface AdmissionQueue {
  readonly settings: AdmissionSettings;
  /** A slot for one request of `clientKey` when both limits allow it now, else `undefined` (nothing is queued). */
  tryAcquire(clientKey: string): Release | undefined;
  /**
   * A slot for one request of `clientKey`. Admitted at once when both limits
   * allow it (the promise is then already settled); else after waiting its
   * turn, or `timed_out` after `queueWaitMs`, or `abandoned` when `signal`
   * aborts first (the client left while waiting: its place is freed).
   */
  acquire(clientKey: string, signal?: AbortSignal): Promise<Admission>;
  /** Requests in progress now (all clients). */
  inProgress(): number;
  /** Requests waiting now (all clients). */
  waiting(): number;
}

interface Waiter {
  readonly enqueuedAt: number;
  readonly settle: (admission: Admission) => void;
  cancelTimer: () => void;
}

interface ClientSlots {
  running: number;
  readonly queue: Waiter[];
  /** Index of the queue's head (the queue is an array consumed from the front). */
  head: number;
}

const queued = (c: ClientSlots): number => c.queue.length - c.head;

export const createAdmissionQueue = (settings: AdmissionSettings, options: AdmissionQueueOptions = {}): AdmissionQueue => {
  const setTimer = options.setTimer ?? realTimer;
  const now = options.now ?? (() => performance.now());
  const { maxInProgress, clientConcurrency, queueWaitMs } = settings;
  const clients = new Map<string, ClientSlots>();
  /** Clients with requests waiting, in turn order: the next to admit from is first. */
  const turns = new Set<string>();
  let running = 0;
  let waitingCount = 0;

  const slotsOf = (key: string): ClientSlots => {
    let c = clients.get(key);
    if (c === undefined) {
      c = { running: 0, queue: [], head: 0 };
      clients.set(key, c);
    }
    return c;
  };

  /** Forget a client holding nothing and waiting for nothing (the map stays as large as the active clients). */
  const tidy = (key: string, c: ClientSlots): void => {
    if (c.running === 0 && queued(c) === 0) clients.delete(key);
  };

  const takeHead = (c: ClientSlots): Waiter | undefined => {
    const w = c.queue[c.head];
    if (w === undefined) return undefined;
    c.head += 1;
    if (c.head === c.queue.length) {
      c.queue.length = 0;
      c.head = 0;
    } else if (c.head > 64 && c.head * 2 > c.queue.length) {
      c.queue.splice(0, c.head);
      c.head = 0;
    }
    waitingCount -= 1;
    return w;
  };

  const slot = (key: string, c: ClientSlots): Release => {
    running += 1;
    c.running += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      running -= 1;
      c.running -= 1;
      admitWaiting();
      tidy(key, c);
    };
  };

  /**
   * Admit waiting requests while the process has slots: one per client per
   * turn, in turn order (an admitted client's next turn is after every other
   * waiting client's); a client at its own limit is passed over, to the back
   * of the order, until one of its requests finishes.
   */
  const admitWaiting = (): void => {
    // Clients passed over in a row: once every waiting client has been, none can go now.
    let passes = turns.size;
    while (running < maxInProgress && passes > 0) {
      const key = turns.values().next().value as string;
      const c = slotsOf(key);
      turns.delete(key);
      if (c.running >= clientConcurrency) {
        turns.add(key);
        passes -= 1;
        continue;
      }
      const w = takeHead(c);
      if (queued(c) > 0) turns.add(key);
      passes = turns.size;
      if (w === undefined) continue;
      w.cancelTimer();
      w.settle({ admitted: true, release: slot(key, c), waitedMs: now() - w.enqueuedAt });
    }
  };

  const remove = (key: string, c: ClientSlots, w: Waiter): boolean => {
    const i = c.queue.indexOf(w, c.head);
    if (i < 0) return false;
    c.queue.splice(i, 1);
    waitingCount -= 1;
    if (queued(c) === 0) {
      c.queue.length = 0;
      c.head = 0;
      turns.delete(key);
    }
    tidy(key, c);
    return true;
  };

  // Nobody waits for a process slot while one is free (admitWaiting runs on every release), so a request
  // under both limits goes ahead without passing anyone; one of a client with a queue is at its own limit.
  const tryAcquire = (clientKey: string): Release | undefined => {
    if (running >= maxInProgress) return undefined;
    const c = clients.get(clientKey);
    if (c === undefined) return slot(clientKey, slotsOf(clientKey));
    return c.running < clientConcurrency && queued(c) === 0 ? slot(clientKey, c) : undefined;
  };

  return {
    settings,
    inProgress: () => running,
    waiting: () => waitingCount,
    tryAcquire,
    acquire: (clientKey, signal) => {
      const release = tryAcquire(clientKey);
      if (release !== undefined) return Promise.resolve({ admitted: true, release, waitedMs: 0 });
      const c = slotsOf(clientKey);
      if (signal?.aborted === true) {
        tidy(clientKey, c);
        return Promise.resolve({ admitted: false, reason: 'abandoned', waitedMs: 0 });
      }
      return new Promise<Admission>((resolve) => {
        const enqueuedAt = now();
        const onAbort = (): void => {
          if (remove(clientKey, c, w)) {
            w.cancelTimer();
            resolve({ admitted: false, reason: 'abandoned', waitedMs: now() - enqueuedAt });
          }
        };
        const w: Waiter = {
          enqueuedAt,
          settle: (admission) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(admission);
          },
          cancelTimer: () => undefined,
        };
        c.queue.push(w);
        waitingCount += 1;
        turns.add(clientKey);
        w.cancelTimer = setTimer(() => {
          if (remove(clientKey, c, w)) w.settle({ admitted: false, reason: 'timed_out', waitedMs: now() - enqueuedAt });
        }, queueWaitMs);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
};
