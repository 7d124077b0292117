/**
 * CPU-heavy pure work off the event loop (docs/decisions/tenancy.md): a small pool of
 * `worker_threads` (piscina) that runs core's computations (a plan's schedule,
 * the strategy comparison, a plan's credit outlook, a sandbox advance's month),
 * handed to core's use cases as their `computations` and `sandboxComputations`
 * dependencies. Core stays pure and keeps its in-thread
 * default; only the HTTP adapter's composition passes this pool, so a light
 * request is never stuck behind another client's computation.
 *
 * Size: one thread per core beyond the one the event loop runs on, at least one
 * and at most 4 (`computeThreads`). Threads start on the first computation and
 * are unref'd by piscina while idle (they keep no process alive); `close` ends them.
 * On Linux the threads run at a lower priority than the event loop
 * (compute-priority.ts): a computation never takes the CPU from the thread
 * that answers the light requests.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { memoizeComputations } from './computation-memo.js';
import type * as E from 'fp-ts/lib/Either.js';
import type {
  AccountRecord,
  Computations,
  CreditOutlookInput,
  DomainError,
  MonthInput,
  PayoffBudgetInput,
  PayoffPlanInput,
  SandboxComputations,
} from '@debtkit/core';

export type ComputeTask =
  | { readonly kind: 'planPayoff'; readonly input: PayoffPlanInput }
  | { readonly kind: 'comparePayoffStrategies'; readonly input: PayoffBudgetInput; readonly accounts: ReadonlyArray<AccountRecord> }
  | { readonly kind: 'creditOutlook'; readonly input: CreditOutlookInput }
  | { readonly kind: 'sandboxMonth'; readonly input: MonthInput };

export interface ComputePool extends Computations, SandboxComputations {
  /** Worker threads the pool runs at most. */
  readonly threads: number;
  /** End the worker threads (pending computations fail). */
  close(): Promise<void>;
}

/** The default pool size: `min(4, max(1, cores − 1))`. */
export const computeThreads = (cores: number = availableParallelism()): number => Math.min(4, Math.max(1, cores - 1));

const WORKER_FILE = fileURLToPath(new URL('./compute-worker.js', import.meta.url));

/**
 * A pool of `threads` workers (default `computeThreads()`), started on its
 * first computation.
 */
export const createComputePool = (options: { readonly threads?: number } = {}): ComputePool => {
  const threads = options.threads ?? computeThreads();
  let pool: Piscina | undefined;
  // The answer is the worker's `Either`, cloned: the same data the in-thread function returns.
  const run = <A, Err extends DomainError>(task: ComputeTask): Promise<E.Either<Err, A>> => {
    pool ??= new Piscina({ filename: WORKER_FILE, minThreads: threads, maxThreads: threads, idleTimeout: 60_000 });
    return pool.run(task) as Promise<E.Either<Err, A>>;
  };
  return {
    threads,
    planPayoff: (input) => run({ kind: 'planPayoff', input }),
    comparePayoffStrategies: (input, accounts) => run({ kind: 'comparePayoffStrategies', input, accounts }),
    creditOutlook: (input) => run({ kind: 'creditOutlook', input }),
    sandboxMonth: (input) => run({ kind: 'sandboxMonth', input }),
    close: async () => {
      const started = pool;
      pool = undefined;
      await started?.destroy();
    },
  };
};

let shared: ComputePool | undefined;

/**
 * The process's pool, made on first use: the computations are pure, so every
 * app composed in one process (a server, a test file's many) shares one small
 * pool instead of starting threads each, and one memo of their answers
 * (computation-memo.ts). Its idle threads keep no process alive.
 */
export const processComputePool = (): ComputePool => (shared ??= memoizeComputations(createComputePool()));
