/**
 * Answers of the pure computations kept by their input (docs/decisions/tenancy.md,
 * docs/performance.md "Isolation"). A credit outlook is a function of its
 * input alone (the plan's terms, the user's accounts as read, today), and its
 * answer is up to 600 months of six factors: about 190 KB of JSON. A client
 * reading the same outlook again and again, with nothing changed, would
 * otherwise cost the event loop a copy of its input to a worker, a copy of the
 * answer back and a serialisation of it, each time. Here the same input is
 * answered the same answer, computed once:
 *
 * - The key is a SHA-256 of the computation's name and its input's JSON. Any
 *   change to an input (an account's balance, its APR, a day passing) is
 *   another key: nothing is ever invalidated, because nothing can go stale.
 * - Concurrent requests with one input share one computation (the promise is
 *   kept, not only its result).
 * - Each answer is deeply frozen, and its key is its revision
 *   (`keptRevision`, http/kept-revisions.ts): the render cache keeps its bytes, and their
 *   compressed bytes, by that revision (render-cache.ts), so a kept outlook is
 *   served as a kept plan is.
 * - The computations are only ever called after the store read that proves
 *   the plan exists and is the client's (core's use cases), so a kept answer
 *   is never served to anyone the store would not answer.
 * - Bounded by entries (`lru-cache`): `COMPUTATION_MEMO_ENTRIES` answers, least
 *   recently used out first.
 *
 * The plan creation's schedule is not kept: each creation is a new plan.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import * as E from 'fp-ts/lib/Either.js';
import type { Computations } from '@debtkit/core';
import { keepRevision } from '../http/kept-revisions.js';

/** Answers kept: a 361-month outlook measured 101 KB of heap, so 64 of the largest (600 months) are about 11 MiB. */
export const COMPUTATION_MEMO_ENTRIES = 64;

const deepFreeze = <A>(value: A): A => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
};

const keyOf = (name: string, input: unknown): string =>
  createHash('sha256').update(name).update('\n').update(JSON.stringify(input)).digest('base64url');

/**
 * `computations` with the comparison and the outlook answered from kept
 * answers when their input was seen (`entries` of them, default
 * `COMPUTATION_MEMO_ENTRIES`).
 */
export const memoizeComputations = <C extends Computations>(computations: C, entries: number = COMPUTATION_MEMO_ENTRIES): C => {
  const kept = new LRUCache<string, Promise<E.Either<unknown, unknown>>>({ max: entries });
  const memo =
    <I extends unknown[], R extends E.Either<unknown, unknown>>(name: string, compute: (...input: I) => Promise<R>) =>
    (...input: I): Promise<R> => {
      const key = keyOf(name, input);
      const found = kept.get(key);
      if (found !== undefined) return found as Promise<R>;
      const answer = compute(...input).then((result) => {
        deepFreeze(result);
        if (E.isRight(result) && typeof result.right === 'object' && result.right !== null) keepRevision(result.right, key);
        return result;
      });
      kept.set(key, answer);
      // A failed computation (a worker that died) is not kept: the next request computes again.
      answer.catch(() => {
        if (kept.peek(key) === answer) kept.delete(key);
      });
      return answer;
    };
  return {
    ...computations,
    comparePayoffStrategies: memo('comparePayoffStrategies', computations.comparePayoffStrategies),
    creditOutlook: memo('creditOutlook', computations.creditOutlook),
  };
};
