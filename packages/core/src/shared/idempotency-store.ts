/**
 * Idempotency keys (docs/decisions/idempotency.md): what a POST with an `Idempotency-Key` needs
 * from the store, so that a key holds across processes and restarts. The HTTP
 * adapter decides what a request's fingerprint is and what a response looks
 * like; the store only has to make `claim` atomic.
 */
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { StoreError } from './errors.js';
import type { ClientId } from './primitives.js';
import type { IdempotencyClaim, IdempotencyClaimRequest, StoredResponse } from './idempotency.js';

export interface IdempotencyStore {
  /**
   * Atomically, across processes: take the key for this request if it is free
   * (never used, expired, or claimed longer than the claim timeout ago without
   * completing), else say what holds it. A key is compared on its fingerprint
   * before anything else: another request's fingerprint is a `mismatch`, whatever its state.
   */
  claim(request: IdempotencyClaimRequest): TE.TaskEither<StoreError, IdempotencyClaim>;
  /** Keep `response` for the key (for `IDEMPOTENCY_KEY_TTL_MS` from `now`); ignored unless `claimId` still holds it. */
  complete(clientId: ClientId, key: string, claimId: string, response: StoredResponse, now: Date): TE.TaskEither<StoreError, void>;
  /** Free the key (the response is not kept); ignored unless `claimId` still holds it. */
  release(clientId: ClientId, key: string, claimId: string): TE.TaskEither<StoreError, void>;
}

/**
 * `store` with the deployment's claim timeout on every claim (a claim request
 * that names its own keeps it): how long a request that died keeps its key.
 * @example withClaimTimeout(store.idempotency, 5_000) // a dead request's key is free after 5 s
 */
export const withClaimTimeout = (store: IdempotencyStore, claimTimeoutMs: number): IdempotencyStore => ({
  claim: (request) => store.claim({ claimTimeoutMs, ...request }),
  complete: (clientId, key, claimId, response, now) => store.complete(clientId, key, claimId, response, now),
  release: (clientId, key, claimId) => store.release(clientId, key, claimId),
});
