/**
 * The shared transaction runner's use of the async context (shared/transactions.ts):
 * a run joins the joinable transaction it is called under; a plain run is not
 * tracked at all, and a joinable one only while its work is in progress (on
 * Node 20 an enabled AsyncLocalStorage slows every promise of the process,
 * reads included); a callback a finished transaction left behind does not join it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError } from '../src/shared/errors.js';
import { transactionRunner, type ActiveTransaction } from '../src/shared/transactions.js';
import type { AsyncContext, StoreTransaction, TransactionDriver, TransactionPorts } from '../src/shared/unit-of-work.js';

/** A driver whose transactions are numbered; the ports stand in for a store's (only their identity matters here). */
const countingDriver = () => {
  let begun = 0;
  const driver: TransactionDriver<TransactionPorts> = {
    begin: async () => {
      begun += 1;
      const tx: StoreTransaction<TransactionPorts> = {
        ports: { id: begun } as unknown as TransactionPorts,
        commit: async () => E.right(undefined),
        abort: async () => undefined,
      };
      return E.right(tx);
    },
  };
  return { driver, begun: () => begun };
};

/** Node's AsyncLocalStorage, counting `disable` calls and telling whether it is tracking. */
const observedStorage = () => {
  const storage = new AsyncLocalStorage<ActiveTransaction<TransactionPorts>>();
  let disabled = 0;
  const context: AsyncContext<ActiveTransaction<TransactionPorts>> = {
    getStore: () => storage.getStore(),
    run: (store, callback) => storage.run(store, callback),
    exit: (callback) => storage.exit(callback),
    disable: () => {
      disabled += 1;
      storage.disable();
    },
  };
  return { context, disabled: () => disabled };
};

const idOf = (ports: TransactionPorts): number => (ports as unknown as { id: number }).id;

describe('transaction runner: the async context', () => {
  it('a run inside a joinable run joins its transaction (one begin), a run after it begins its own', async () => {
    const { driver, begun } = countingDriver();
    const uow = transactionRunner(driver, observedStorage().context);
    const ids = await uow.runJoinable((outer) =>
      TE.fromTask(async () => {
        const inner = await uow.run((ports) => TE.right(idOf(ports)))();
        return [idOf(outer), E.isRight(inner) ? inner.right : -1];
      }),
    )();
    expect(ids).to.deep.equal(E.right([1, 1]));
    await uow.run(() => TE.right(undefined))();
    expect(begun()).to.equal(2);
  });

  it('a plain run is not tracked: a run inside it begins a transaction of its own, and the context is never touched', async () => {
    const { driver, begun } = countingDriver();
    const storage = observedStorage();
    let ran = 0;
    const context = { ...storage.context, run: <R>(store: ActiveTransaction<TransactionPorts>, callback: () => R): R => (ran++, storage.context.run(store, callback)) };
    const uow = transactionRunner(driver, context);
    const ids = await uow.run((outer) =>
      TE.fromTask(async () => {
        const inner = await uow.run((ports) => TE.right(idOf(ports)))();
        return [idOf(outer), E.isRight(inner) ? inner.right : -1];
      }),
    )();
    expect(ids).to.deep.equal(E.right([1, 2]));
    expect(begun()).to.equal(2);
    expect({ ran, disabled: storage.disabled() }).to.deep.equal({ ran: 0, disabled: 0 });
  });

  it('is tracked only while a joinable transaction is in progress: disabled once the last of two overlapping ones ends', async () => {
    const { driver } = countingDriver();
    const observed = observedStorage();
    const uow = transactionRunner(driver, observed.context);
    let releaseFirst!: () => void;
    const first = uow.runJoinable(() => TE.fromTask(() => new Promise<void>((resolve) => (releaseFirst = resolve))))();
    await uow.runJoinable(() => TE.right(undefined))();
    expect(observed.disabled(), 'the first is still in progress').to.equal(0);
    releaseFirst();
    await first;
    expect(observed.disabled()).to.equal(1);
    // Disabled: nothing is tracked outside a transaction (getStore answers nothing, even where a run once was).
    expect(observed.context.getStore()).to.equal(undefined);
  });

  it('also after work that throws or answers Left', async () => {
    const { driver } = countingDriver();
    const observed = observedStorage();
    const uow = transactionRunner(driver, observed.context);
    const left = await uow.runJoinable((): TE.TaskEither<DomainError, never> => TE.left({ _tag: 'not_found', message: 'gone' } as DomainError))();
    expect(E.isLeft(left)).to.equal(true);
    let thrown: unknown;
    try {
      await uow.runJoinable(() => () => Promise.reject(new Error('boom')))();
    } catch (err) {
      thrown = err;
    }
    expect((thrown as Error).message).to.equal('boom');
    expect(observed.disabled()).to.equal(2);
  });

  it('a callback a finished transaction left behind (a timer) starts a transaction of its own instead of joining the finished one', async () => {
    const { driver, begun } = countingDriver();
    const storage = new AsyncLocalStorage<ActiveTransaction<TransactionPorts>>();
    // Never disabled, so the finished transaction stays the timer's store: only its `open` flag can tell.
    const context: AsyncContext<ActiveTransaction<TransactionPorts>> = {
      getStore: () => storage.getStore(),
      run: (store, callback) => storage.run(store, callback),
      exit: (callback) => storage.exit(callback),
      disable: () => undefined,
    };
    const uow = transactionRunner(driver, context);
    let fire!: () => Promise<E.Either<DomainError, number>>;
    const later = new Promise<E.Either<DomainError, number>>((resolve) => {
      fire = () => {
        const run = uow.run((ports) => TE.right(idOf(ports)))();
        void run.then(resolve);
        return run;
      };
    });
    await uow.runJoinable(() =>
      TE.fromTask(async () => {
        setTimeout(() => void fire(), 0);
      }),
    )();
    expect(await later).to.deep.equal(E.right(2));
    expect(begun()).to.equal(2);
  });
});
