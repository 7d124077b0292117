/**
 * Faults inside transactions, the way MongoDB's `failCommand` fail point
 * injects them (docs/decisions/transactions.md): `failNthCall(n)` makes the n-th store call made
 * through a transaction's ports (counted from the next transaction begun)
 * answer `unavailable` once, without running. The suite then checks that the
 * change left nothing behind (all or nothing) and that a retry makes it once.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { unavailable, type DomainError } from '../shared/errors.js';
import { mapStorePorts, type TransactionPorts } from '../shared/store-ports.js';
import { mapUnitOfWork, type StorePorts } from '../shared/unit-of-work.js';
import { mapPortTasks } from './port-tasks.js';

export interface FaultInjectingStore extends StorePorts {
  /** Arm the injector: the n-th call (1-based) from now on, inside a transaction, fails once. */
  failNthCall(n: number): void;
  /** Store calls made inside transactions since the injector was last armed or reset. */
  readonly callsSinceArmed: number;
  /** Disarm, and count from zero. */
  reset(): void;
}

/**
 * `store` with a fault injector on the ports its transactions hand out.
 * @example
 *   const store = faultInjectingStore(createMemoryStore());
 *   store.failNthCall(3); // the third store call of the next change answers 503
 */
export const faultInjectingStore = (store: StorePorts): FaultInjectingStore => {
  let calls = 0;
  let failAt = 0;
  const counted = <P extends object>(port: P): P =>
    mapPortTasks(port, (task) => () => {
      calls += 1;
      if (calls === failAt) {
        failAt = 0;
        return TE.left(unavailable('Injected fault: the store call failed'))();
      }
      return task();
    });
  const faulty = (ports: TransactionPorts): TransactionPorts => mapStorePorts(ports, (_key, port) => counted(port));
  return {
    ...store,
    unitOfWork: mapUnitOfWork(store.unitOfWork, faulty),
    failNthCall: (n) => {
      calls = 0;
      failAt = n;
    },
    get callsSinceArmed() {
      return calls;
    },
    reset: () => {
      calls = 0;
      failAt = 0;
    },
  };
};
