/**
 * The token → client cache (docs/performance.md: once a token is known, authentication
 * costs no store round trip). A decorator of core's `ClientAccess`, bound in
 * the composition over the use cases, so every caller (the `/api` and `/admin`
 * authentication) goes through it and core stays free of caching.
 *
 * - Only a token that authenticated is kept (with its client), for at most
 *   `ttlMs` (1 s) of elapsed time, measured on a monotonic time source
 *   (`performance.now`; injectable for tests): a wall clock that is set back,
 *   or frozen in a test, cannot stretch the bound. Unknown, malformed and revoked tokens
 *   are never kept: a token issued by another process works at once, and
 *   guessing tokens cannot fill the cache.
 * - A revocation in this process empties the cache before it answers, so this
 *   process refuses the revoked token at once. Other processes sharing the
 *   store refuse it once their entry expires: within `ttlMs` (the bounded
 *   staleness of docs/performance.md, documented in docs/operations.md).
 * - Bounded: at most `max` tokens (least recently used evicted).
 * - A store failure is not cached (the next request asks the store again).
 */
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { LRUCache } from 'lru-cache';
import { performance } from 'node:perf_hooks';
import type { Client, ClientAccess, Clock, Environment } from '@debtkit/core';
import type { KnownClient } from '../http/pipeline/bearer-token.js';

/** How long another process may still accept a token revoked elsewhere. */
export const TOKEN_CACHE_TTL_MS = 1000;
export const TOKEN_CACHE_MAX = 10_000;

export interface TokenCacheOptions {
  /** Milliseconds on a monotonic scale; default `performance.now`. */
  readonly now?: () => number;
  /** The wall clock a token's `expires_at` is compared with (core's `Clock`, injected in tests); default the system's. */
  readonly clock?: Clock;
  readonly ttlMs?: number;
  readonly max?: number;
}

interface Entry {
  readonly client: O.Option<Client>;
  /** The time (ms, `now`'s scale) after which the store is asked again. */
  readonly expiresAt: number;
  /** When the token itself stops working (ms since the epoch, on `clock`); `Infinity`: never. */
  readonly tokenExpiresAt: number;
}

/** Core's `ClientAccess` with the cache's answer for a token, when it has one, given at once. */
export interface CachingClientAccess extends ClientAccess {
  /**
   * The client of a token this cache holds and may still answer for (the same
   * answer `authenticateToken` would give from the cache), else `undefined`
   * (then ask `authenticateToken`). No promise: the request pipeline checks it
   * first, so a known token costs no asynchronous step (docs/performance.md).
   */
  readonly knownClient: KnownClient;
}

/** What the composition binds as client access: core's, with the cache's `knownClient` unless an embedder rebound it without one. */
export type ClientAccessMaybeCached = ClientAccess & Partial<Pick<CachingClientAccess, 'knownClient'>>;

export const withTokenCache = (access: ClientAccess, options: TokenCacheOptions): CachingClientAccess => {
  const now = options.now ?? (() => performance.now());
  const clock = options.clock ?? { now: () => new Date() };
  const ttlMs = options.ttlMs ?? TOKEN_CACHE_TTL_MS;
  const cache = new LRUCache<string, Entry>({ max: options.max ?? TOKEN_CACHE_MAX });
  // The environment is part of the key: a token is only ever valid in one, but the answer depends on both.
  const keyOf = (environment: Environment, token: string): string => `${environment} ${token}`;

  /** The cache's entry for `key` while it may still be answered from; an expired one is dropped. */
  const fresh = (key: string): Entry | undefined => {
    const hit = cache.get(key);
    if (hit === undefined || (now() < hit.expiresAt && (hit.tokenExpiresAt === Infinity || clock.now().getTime() < hit.tokenExpiresAt)))
      return hit;
    cache.delete(key);
    return undefined;
  };

  const authenticateToken: ClientAccess['authenticateToken'] = (environment, token) => {
    const key = keyOf(environment, token);
    return () => {
      const hit = fresh(key);
      if (hit !== undefined) return Promise.resolve(E.right(hit.client));
      // A revocation that starts while the store answers must not be undone by this answer landing after it.
      const generation = revocations;
      return access
        .authenticateTokenWithExpiry(environment, token)()
        .then((found) => {
          if (E.isLeft(found)) return found;
          if (O.isSome(found.right) && generation === revocations) {
            const { client, expiresAt } = found.right.value;
            cache.set(key, {
              client: O.some(client),
              expiresAt: now() + ttlMs,
              tokenExpiresAt: expiresAt === null ? Infinity : Date.parse(expiresAt),
            });
          }
          return E.right(O.map((authenticated: { readonly client: Client }) => authenticated.client)(found.right));
        });
    };
  };

  const knownClient: KnownClient = (environment, token) => {
    const hit = fresh(keyOf(environment, token));
    return hit === undefined ? undefined : O.toUndefined(hit.client);
  };

  let revocations = 0;
  /** Run a change that ends or limits a token's life with the cache emptied before and after it. */
  const emptyingCache =
    <A>(change: () => Promise<A>) =>
    (): Promise<A> => {
      revocations += 1;
      cache.clear();
      return change().then((result) => {
        // Cleared again once the store has it: a lookup that raced the change may have cached the old answer.
        revocations += 1;
        cache.clear();
        return result;
      });
    };
  const revokeToken: ClientAccess['revokeToken'] = (tokenId, actor) => emptyingCache(access.revokeToken(tokenId, actor));
  const rollToken: ClientAccess['rollToken'] = (tokenId, expiresInSeconds, actor) =>
    emptyingCache(access.rollToken(tokenId, expiresInSeconds, actor));
  // The cached client carries its pinned version: this process answers in the new one at once, others within `ttlMs`.
  const changeClientApiVersion: ClientAccess['changeClientApiVersion'] = (clientId, apiVersion, actor) =>
    emptyingCache(access.changeClientApiVersion(clientId, apiVersion, actor));

  return { ...access, authenticateToken, revokeToken, rollToken, changeClientApiVersion, knownClient };
};
