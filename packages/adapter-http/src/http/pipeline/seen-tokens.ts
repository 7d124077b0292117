/**
 * The tokens this process has seen authenticate lately (docs/decisions/proxies.md): what the
 * failed-authentication limit still serves from an address over its limit, so
 * an attacker behind the same proxy or NAT as a working client cannot lock it
 * out. Kept apart from the token cache, which answers for a token for 1 s; this
 * set only says "this token worked here within a day", and the token is still
 * looked up (a revoked or expired one is refused as ever).
 *
 * Only SHA-256 hashes are kept, never a token. Bounded (least recently added
 * dropped first) so a busy process cannot grow it without end; guessing tokens
 * cannot fill it, since only a token that authenticated is added.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** How long a token that authenticated is remembered. */
export const SEEN_TOKENS_TTL_MS = 24 * 60 * 60 * 1000;
/** Tokens remembered at most (about 100 bytes each). */
export const SEEN_TOKENS_MAX = 100_000;

export interface SeenTokens {
  /** `token` authenticated just now. */
  add(token: string): void;
  /** Whether `token` authenticated in this process within the time kept. */
  has(token: string): boolean;
}

export interface SeenTokensOptions {
  /** Milliseconds; default `Date.now` (as the failed-authentication counters measure their windows). */
  readonly now?: () => number;
  readonly ttlMs?: number;
  readonly max?: number;
}

const hashOf = (token: string): string => createHash('sha256').update(token).digest('base64url');

export const seenTokens = (options: SeenTokensOptions = {}): SeenTokens => {
  const now = options.now ?? (() => Date.now());
  const seen = new LRUCache<string, true>({
    max: options.max ?? SEEN_TOKENS_MAX,
    ttl: options.ttlMs ?? SEEN_TOKENS_TTL_MS,
    // Read the time on every check: a cached reading could outlive a clock a test moves.
    ttlResolution: 0,
    perf: { now },
  });
  return {
    add: (token) => void seen.set(hashOf(token), true),
    has: (token) => seen.has(hashOf(token)),
  };
};
