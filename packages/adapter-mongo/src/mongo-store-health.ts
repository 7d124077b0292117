/**
 * `StoreHealth` on MongoDB (`/readyz`): a `ping` command after the index gate,
 * so "ready" means the store is usable, not merely reachable. (`ping` does no
 * work on the server; the client's socket timeout bounds the wait.) A
 * standalone server is not ready: `unavailable` with the reason (docs/decisions/transactions.md).
 */
import { inject, injectable } from 'inversify';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { StoreError, StoreHealth } from '@debtkit/core';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { mongoTask } from './mongo-errors.js';

@injectable()
export class MongoStoreHealth implements StoreHealth {
  constructor(@inject(MONGO_CONTEXT) private readonly ctx: MongoContext) {}

  ping(): TE.TaskEither<StoreError, void> {
    return mongoTask(
      this.ctx.ready,
      async () => {
        await this.ctx.db.command({ ping: 1 });
        // Reachable but standalone: not ready (writes need transactions), with the reason.
        await this.ctx.requireTransactions();
      },
      'ping cannot conflict',
    );
  }
}
