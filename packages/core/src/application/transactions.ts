/**
 * The policy every store's `UnitOfWork` shares (DESIGN 4.6), written once: join
 * an enclosing transaction, abort on `Left` or a throw, and run again on a write
 * conflict, bounded by attempts and by a deadline, so a store outage or a hot
 * record never turns into a hanging request. The store adapter brings only
 * `begin` / `commit` / `abort` (ports/unit-of-work.ts).
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { conflict, type DomainError } from '../domain/errors.js';
import { isWriteConflict, type AsyncContext, type TransactionDriver, type UnitOfWork, type TransactionPorts } from '../ports/unit-of-work.js';

export interface TransactionRunnerOptions {
  /** Runs of one transaction before a write conflict is answered `conflict`; default 5. */
  readonly maxAttempts?: number;
  /** No new attempt starts after this many milliseconds since the first began; default 2000. */
  readonly deadlineMs?: number;
  /** Milliseconds, monotonic (tests inject one); default `performance.now`. */
  readonly now?: () => number;
  /**
   * Milliseconds to wait before attempt `n` (2, 3, …) after a write conflict; default none.
   * A store whose round trips take time (MongoDB) spreads the losers out with a
   * random wait, so that N writers of one record do not collide again in lockstep.
   */
  readonly backoffMs?: (attempt: number) => number;
}

export interface ActiveTransaction<P> {
  readonly ports: P;
  /** False once its work has ended: a callback the work left behind (a timer) that runs later starts a transaction of its own. */
  open: boolean;
}

export const transactionRunner = <P extends TransactionPorts>(
  driver: TransactionDriver<P>,
  context: AsyncContext<ActiveTransaction<P>>,
  options: TransactionRunnerOptions = {},
): UnitOfWork => {
  const maxAttempts = options.maxAttempts ?? 5;
  const deadlineMs = options.deadlineMs ?? 2000;
  const now = options.now ?? (() => performance.now());
  // Joinable works in progress (under `context.run`): the context is tracked only while there is one (AsyncContext.disable).
  let inProgress = 0;

  /** The work of one attempt: tracked in `context` (for `runJoinable`) or not. */
  const untracked = <A>(work: (ports: P) => TE.TaskEither<DomainError, A>, ports: P): Promise<E.Either<DomainError, A>> => work(ports)();
  const tracked = async <A>(work: (ports: P) => TE.TaskEither<DomainError, A>, ports: P): Promise<E.Either<DomainError, A>> => {
    const active: ActiveTransaction<P> = { ports, open: true };
    inProgress += 1;
    try {
      return await context.run(active, () => work(ports)());
    } finally {
      active.open = false;
      if (--inProgress === 0) context.disable();
    }
  };
  type Runner = typeof untracked;

  const attempt = async <A>(work: (ports: P) => TE.TaskEither<DomainError, A>, runWork: Runner, n: number, started: number): Promise<E.Either<DomainError, A>> => {
    const begun = await driver.begin();
    if (E.isLeft(begun)) return begun;
    const tx = begun.right;
    let result: E.Either<DomainError, A>;
    try {
      result = await runWork(work, tx.ports);
    } catch (err) {
      await tx.abort();
      throw err;
    }
    const outcome = E.isLeft(result) ? (await tx.abort(), result) : await tx.commit().then((c) => (E.isLeft(c) ? c : result));
    if (E.isRight(outcome) || !isWriteConflict(outcome.left)) return outcome;
    if (n >= maxAttempts || now() - started >= deadlineMs) return E.left(conflict('The change lost to concurrent changes; retry'));
    const wait = options.backoffMs?.(n + 1) ?? 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, Math.max(0, deadlineMs - (now() - started)))));
    return attempt(work, runWork, n + 1, started);
  };

  /** Join the joinable transaction this is called in, or begin one (tracked or not). */
  const joinOr =
    (runWork: Runner) =>
    <A>(work: (ports: TransactionPorts) => TE.TaskEither<DomainError, A>): TE.TaskEither<DomainError, A> =>
    () => {
      const active = context.getStore();
      return active?.open === true ? work(active.ports)() : attempt(work, runWork, 1, now());
    };

  return {
    run: joinOr(untracked),
    runJoinable: joinOr(tracked),
    runAlone:
      <A>(work: (ports: TransactionPorts) => TE.TaskEither<DomainError, A>): TE.TaskEither<DomainError, A> =>
      () =>
        context.exit(() => attempt(work, untracked, 1, now())),
  };
};
