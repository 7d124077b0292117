/**
 * The hold on a blocked client's refusals (docs/decisions/rate-limits.md, "A blocked
 * client's refusals"; docs/performance.md, isolation under a flood). A client refused by its rate
 * limit is blocked in this process for the rest of its window; a request it sends while blocked
 * is answered its 429 only after between half of `holdMs` and `holdMs` (spread at random). A client sending back to back on its connections (a
 * flood) then sends at most one request per connection per hold, instead of as many as the event
 * loop can refuse: its refusals stop crowding out every other client's requests. A client that
 * waits its `Retry-After` is never held.
 *
 * Holds end on shared timers: the end of each hold is rounded up to a slot of `SLOT_MS`, and every
 * request held until the same slot waits on one promise and one timer, so a flood costs a timer
 * per slot, not one per request.
 */
import { performance } from 'node:perf_hooks';
import { realTimer, type SetTimer } from './admission-queue.js';

/** Waits out one refused request's hold. */
export type RefusalHold = () => Promise<void>;

/** DEBTKIT_REFUSAL_HOLD_MS's default: one second, the shortest `Retry-After` (docs/decisions/rate-limits.md). */
export const DEFAULT_REFUSAL_HOLD_MS = 1000;

/** Holds ending within one slot end together. */
export const SLOT_MS = 25;

export interface RefusalHoldOptions {
  /** Default: `setTimeout`. */
  readonly setTimer?: SetTimer;
  /** Milliseconds; default `performance.now`. */
  readonly now?: () => number;
  /** A number in [0, 1) (default `Math.random`): where in its spread a hold ends. */
  readonly random?: () => number;
}

/** A hold of `holdMs` (rounded up to the next slot's end), or `undefined` for 0: refusals are answered at once. */
export const createRefusalHold = (holdMs: number, options: RefusalHoldOptions = {}): RefusalHold | undefined => {
  if (holdMs <= 0) return undefined;
  const setTimer = options.setTimer ?? realTimer;
  const now = options.now ?? (() => performance.now());
  const random = options.random ?? Math.random;
  const slots = new Map<number, Promise<void>>();
  return () => {
    const at = now();
    // Spread between half the hold and the hold: the connections of a flood, refused together, must not come back
    // together, or their next requests arrive as one burst at the start of the client's next window.
    const slot = Math.ceil((at + holdMs * (0.5 + random() / 2)) / SLOT_MS);
    const waiting = slots.get(slot);
    if (waiting !== undefined) return waiting;
    const ends = new Promise<void>((resolve) => {
      setTimer(
        () => {
          slots.delete(slot);
          resolve();
        },
        slot * SLOT_MS - at,
      );
    });
    slots.set(slot, ends);
    return ends;
  };
};
