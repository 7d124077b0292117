import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError } from './errors.js';

/** Whether the store answers (`/readyz`). */
export interface StoreHealth {
  ping(): TE.TaskEither<DomainError, void>;
}
