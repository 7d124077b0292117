/**
 * Account views kept by the key that names them (docs/decisions/tenancy.md, docs/performance.md,
 * round 5, session 6). An account's view is a function of its record and its owner's today, and
 * every write of an account raises its version, so core's `accountViewKey` (id, version, today)
 * names a view: an unchanged account read again on the same day is the view built before. Core's
 * account read builds its view through this memo (`ApplicationDeps.accountViews`).
 *
 * - Each kept view is frozen, and its key is its revision (`keptRevision`, kept-revisions.ts): the render
 *   cache keeps its bytes by it (render-cache.ts), so such a read is a store read and two lookups,
 *   with no view built and nothing serialised. A version's transforms make new bodies and never
 *   change the one they are given (core's field-transforms.ts).
 * - Nothing is invalidated, because nothing can go stale: a write is another version, a new day
 *   another key.
 * - Only reached after the owned read that proves the account exists and is the client's.
 * - Bounded by entries (`lru-cache`): `ACCOUNT_VIEW_ENTRIES`, least recently used out first.
 */
import { LRUCache } from 'lru-cache';
import type { Account, AccountViews } from '@debtkit/core';
import { keepRevision } from './kept-revisions.js';

/** Views kept: an account's JSON is about 1 KB (916 bytes for the demo's card), its view a few KB of heap: a few MiB in all. */
export const ACCOUNT_VIEW_ENTRIES = 1024;

/** A bounded memo of account views (`entries` of them, default `ACCOUNT_VIEW_ENTRIES`). */
export const keptAccountViews = (entries: number = ACCOUNT_VIEW_ENTRIES): AccountViews => {
  const kept = new LRUCache<string, Account>({ max: entries });
  return (key, build) => {
    const found = kept.get(key);
    if (found !== undefined) return found;
    const view = Object.freeze(build());
    keepRevision(view, key);
    kept.set(key, view);
    return view;
  };
};
