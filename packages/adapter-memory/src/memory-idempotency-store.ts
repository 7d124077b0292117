/**
 * `IdempotencyStore` in memory: one process's keys, in a Map. Each method reads
 * and writes in one synchronous step, so a claim is atomic. Expired keys are
 * dropped as they are met (a claim treats them as free) and swept on claims.
 */
import { injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { IDEMPOTENCY_KEY_TTL_MS, decideClaim, pendingRecord } from '@debtkit/core';
import type { ClientId, DomainError, IdempotencyClaim, IdempotencyClaimRequest, IdempotencyRecord, IdempotencyStore, StoredResponse } from '@debtkit/core';
import { lazyRight } from './memory-collection.js';

/** Keys are scoped per client; NUL cannot occur in a key (visible ASCII only). */
const slot = (clientId: ClientId, key: string): string => `${clientId}\u0000${key}`;

/** Sweep expired keys at most this often, so memory does not grow with old keys. */
const SWEEP_EVERY = 1000;

@injectable()
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord>();
  private claims = 0;

  claim(request: IdempotencyClaimRequest): TE.TaskEither<DomainError, IdempotencyClaim> {
    return lazyRight((): IdempotencyClaim => {
      if (++this.claims % SWEEP_EVERY === 0) this.sweep(request.now.getTime());
      const id = slot(request.clientId, request.key);
      const decision = decideClaim(this.records.get(id), request);
      if (decision._tag !== 'take') return decision;
      this.records.set(id, pendingRecord(request, IDEMPOTENCY_KEY_TTL_MS));
      return { _tag: 'claimed' };
    });
  }

  complete(clientId: ClientId, key: string, claimId: string, response: StoredResponse, now: Date): TE.TaskEither<DomainError, void> {
    return lazyRight(() => {
      const id = slot(clientId, key);
      const held = O.fromNullable(this.records.get(id));
      if (O.isNone(held) || held.value.claimId !== claimId) return;
      this.records.set(id, { ...held.value, response: { ...response }, expiresAt: now.getTime() + IDEMPOTENCY_KEY_TTL_MS });
    });
  }

  release(clientId: ClientId, key: string, claimId: string): TE.TaskEither<DomainError, void> {
    return lazyRight(() => {
      const id = slot(clientId, key);
      if (this.records.get(id)?.claimId === claimId) this.records.delete(id);
    });
  }

  private sweep(now: number): void {
    for (const [id, record] of this.records) if (record.expiresAt <= now) this.records.delete(id);
  }
}
