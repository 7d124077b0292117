/**
 * The rule every `IdempotencyStore` applies to a key it already holds
 * (docs/decisions/idempotency.md), as one total function, so that stores differ only in how they
 * make it atomic.
 */
import type { ClientId } from './primitives.js';

/** How long a key is kept after its request (docs/decisions/idempotency.md: at least 24 hours). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim whose request never completed (a crash) is released after this long,
 * unless the claim request names its own timeout (a deployment's setting).
 */
export const IDEMPOTENCY_CLAIM_TIMEOUT_MS = 60 * 1000;

/** What makes two requests with one key "the same request". */
export interface IdempotencyFingerprint {
  readonly method: string;
  readonly path: string;
  /** A digest of the body as parsed JSON (equal bodies, equal digests). */
  readonly bodyHash: string;
}

/** The response kept for a key, replayed byte for byte. */
export interface StoredResponse {
  readonly status: number;
  /** The response body exactly as sent ('' for none). */
  readonly body: string;
  readonly apiVersion: string | null;
}

export interface IdempotencyClaimRequest {
  readonly clientId: ClientId;
  readonly key: string;
  readonly fingerprint: IdempotencyFingerprint;
  /** A new random id naming this claim; only its holder can complete or release it. */
  readonly claimId: string;
  readonly now: Date;
  /**
   * How long a claim whose request never completed keeps the key from this
   * request (milliseconds); default `IDEMPOTENCY_CLAIM_TIMEOUT_MS`. Set from
   * the deployment's configuration (`withClaimTimeout`).
   */
  readonly claimTimeoutMs?: number;
}

export type IdempotencyClaim =
  /** The key is this request's: run it, then `complete` or `release`. */
  | { readonly _tag: 'claimed' }
  /** Another request with the key is still running (claimed less than the claim timeout ago). */
  | { readonly _tag: 'in_progress' }
  /** The key was used with another method, path or body. */
  | { readonly _tag: 'mismatch' }
  /** The same request ran already: answer this again. */
  | { readonly _tag: 'completed'; readonly response: StoredResponse };

/** What a store keeps per (client, key). Times are epoch milliseconds. */
export interface IdempotencyRecord {
  readonly fingerprint: IdempotencyFingerprint;
  readonly claimId: string;
  readonly claimedAt: number;
  readonly expiresAt: number;
  /** `null` while the first request runs. */
  readonly response: StoredResponse | null;
}

const sameFingerprint = (a: IdempotencyFingerprint, b: IdempotencyFingerprint): boolean =>
  a.method === b.method && a.path === b.path && a.bodyHash === b.bodyHash;

/**
 * What a claim finds: `take` when the key is free for this request (never
 * used, expired, or abandoned by a request that died), else the answer.
 */
export const decideClaim = (
  existing: IdempotencyRecord | undefined,
  request: Pick<IdempotencyClaimRequest, 'fingerprint' | 'now' | 'claimTimeoutMs'>,
): { readonly _tag: 'take' } | Exclude<IdempotencyClaim, { _tag: 'claimed' }> => {
  const now = request.now.getTime();
  if (existing === undefined || existing.expiresAt <= now) return { _tag: 'take' };
  if (!sameFingerprint(existing.fingerprint, request.fingerprint)) return { _tag: 'mismatch' };
  if (existing.response !== null) return { _tag: 'completed', response: existing.response };
  return now - existing.claimedAt < (request.claimTimeoutMs ?? IDEMPOTENCY_CLAIM_TIMEOUT_MS) ? { _tag: 'in_progress' } : { _tag: 'take' };
};

/** The record a request that takes a key stores while it runs. */
export const pendingRecord = (request: IdempotencyClaimRequest, ttlMs: number): IdempotencyRecord => ({
  fingerprint: request.fingerprint,
  claimId: request.claimId,
  claimedAt: request.now.getTime(),
  expiresAt: request.now.getTime() + ttlMs,
  response: null,
});
