/**
 * `StoreHealth` in memory: the store lives in the process, so it always answers.
 */
import { injectable } from 'inversify';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { StoreError, StoreHealth } from '@debtkit/core';

@injectable()
export class MemoryStoreHealth implements StoreHealth {
  ping(): TE.TaskEither<StoreError, void> {
    return TE.right(undefined);
  }
}
