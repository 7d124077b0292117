/**
 * Forced interleaving (docs/decisions/transactions.md): the memory store does no I/O, so a use case
 * that reads, computes and writes back runs its read and its write with nothing
 * in between, and last-writer-wins code passes every test by accident. This
 * wrapper makes every store operation give up the event loop before it runs and
 * again after it has run, the way a round trip to a database does: concurrent
 * use cases then read before any of them writes, and a read-modify-write that is
 * not a compare-and-set loses updates on the memory store too.
 */
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError } from '../shared/errors.js';
import { mapStorePorts, type TransactionPorts } from '../shared/store-ports.js';
import { mapUnitOfWork, type StorePorts } from '../shared/unit-of-work.js';
import { mapPortTasks } from './port-tasks.js';

/** One macrotask turn: every task already queued (other requests' continuations) runs first. */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

const interleavedTask =
  <A>(task: TE.TaskEither<DomainError, A>): TE.TaskEither<DomainError, A> =>
  async () => {
    await yieldToEventLoop();
    const result = await task();
    await yieldToEventLoop();
    return result;
  };

/** The port with each method's TaskEither wrapped (methods that return anything else pass through). */
const interleavedPort = <P extends object>(port: P): P => mapPortTasks(port, interleavedTask);

/**
 * `store` with forced interleaving on every repository.
 * @example
 *   runConcurrencyContracts('memory store (interleaved)', async () => interleavingStore(createMemoryStore()));
 */
export const interleavingStore = (store: StorePorts): StorePorts => {
  const interleaved = (ports: TransactionPorts): TransactionPorts => mapStorePorts(ports, (_key, port) => interleavedPort(port));
  return {
    ...interleaved(store),
    health: store.health,
    // A transaction's ports yield too: transactions then overlap, as they do on a database.
    unitOfWork: mapUnitOfWork(store.unitOfWork, interleaved),
    close: () => store.close(),
  };
};
