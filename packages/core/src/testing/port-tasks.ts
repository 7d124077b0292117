/**
 * The port wrapping the test stores share (fault injection, forced
 * interleaving): every method of a port that answers a task answers
 * `f(task)` instead; any other answer passes through.
 */
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError } from '../shared/errors.js';

export const mapPortTasks = <P extends object>(
  port: P,
  f: (task: TE.TaskEither<DomainError, unknown>) => TE.TaskEither<DomainError, unknown>,
): P =>
  new Proxy(port, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        return typeof result === 'function' ? f(result as TE.TaskEither<DomainError, unknown>) : result;
      };
    },
  });
