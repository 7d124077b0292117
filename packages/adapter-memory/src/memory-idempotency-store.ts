/**
 * `IdempotencyStore` in memory: one process's keys, in a Map. Each method reads
 * and writes in one synchronous step, so a claim is atomic. Expired keys are
 * dropped as they are met (a claim treats them as free) and swept on claims.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { IDEMPOTENCY_KEY_TTL_MS, decideClaim, pendingRecord } from '@debtkit/core';
import type {
  ClientId,
  StoreError,
  IdempotencyClaim,
  IdempotencyClaimRequest,
  IdempotencyRecord,
  IdempotencyStore,
  StoredResponse,
} from '@debtkit/core';
import { MEMORY_SESSION, lazyEither } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

/** Keys are scoped per client; NUL cannot occur in a key (visible ASCII only). */
const slot = (clientId: ClientId, key: string): string => `${clientId}\u0000${key}`;

/** Sweep expired keys at most this often, so memory does not grow with old keys. */
const SWEEP_EVERY = 1000;

/** Keys of every client are one partition. */
const ALL = 0;

@injectable()
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records;
  private claims = 0;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.records = s.db.table<number, string, IdempotencyRecord>('idempotency');
  }

  claim(request: IdempotencyClaimRequest): TE.TaskEither<StoreError, IdempotencyClaim> {
    return lazyEither((): E.Either<StoreError, IdempotencyClaim> => {
      if (++this.claims % SWEEP_EVERY === 0) this.sweep(request.now.getTime());
      const id = slot(request.clientId, request.key);
      const decision = decideClaim(this.records.get(this.s, ALL, id), request);
      if (decision._tag !== 'take') return E.right(decision);
      const done = this.records.set(this.s, ALL, id, pendingRecord(request, IDEMPOTENCY_KEY_TTL_MS));
      return E.isLeft(done) ? done : E.right({ _tag: 'claimed' });
    });
  }

  complete(clientId: ClientId, key: string, claimId: string, response: StoredResponse, now: Date): TE.TaskEither<StoreError, void> {
    return lazyEither(() => {
      const id = slot(clientId, key);
      const held = O.fromNullable(this.records.get(this.s, ALL, id));
      if (O.isNone(held) || held.value.claimId !== claimId) return E.right(undefined);
      return this.records.set(this.s, ALL, id, {
        ...held.value,
        response: { ...response },
        expiresAt: now.getTime() + IDEMPOTENCY_KEY_TTL_MS,
      });
    });
  }

  release(clientId: ClientId, key: string, claimId: string): TE.TaskEither<StoreError, void> {
    return lazyEither(() => {
      const id = slot(clientId, key);
      if (this.records.get(this.s, ALL, id)?.claimId !== claimId) return E.right(undefined);
      const done = this.records.delete(this.s, ALL, id);
      return E.isLeft(done) ? done : E.right(undefined);
    });
  }

  /** Outside any transaction, as MongoDB's TTL monitor. */
  private sweep(now: number): void {
    const outside = this.s.db.autocommit;
    for (const [id, record] of [...this.records.entries(outside, ALL)]) if (record.expiresAt <= now) this.records.delete(outside, ALL, id);
  }
}
