import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { StoreError } from './errors.js';

/** Whether the store answers (`/readyz`). */
export interface StoreHealth {
  ping(): TE.TaskEither<StoreError, void>;
}
