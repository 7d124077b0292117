/**
 * The hold on a blocked client's refusals, and the pace of a held client's allowance
 * (docs/decisions/rate-limits.md, "A blocked client's refusals"; docs/performance.md, isolation
 * under a flood).
 *
 * **The hold.** A client refused by its rate limit is blocked in this process for the rest of its
 * window; a request it sends while blocked is answered its 429 only after between half of `holdMs`
 * and `holdMs` (spread at random). A client sending back to back on its connections (a flood) then
 * sends at most one request per connection per hold, instead of as many as the event loop can
 * refuse: its refusals stop crowding out every other client's requests. A client that waits its
 * `Retry-After` is never held.
 *
 * **The pace.** A client that was held (it sent again before its `Retry-After`) has, for
 * `PACED_FOR_MS` after, the requests its budget allows spread over the window at its rate, one
 * every `1000 / limit` ms, instead of all run at the window's start: a flood's connections are all
 * waiting when the window opens, and would otherwise take the whole second's allowance in its
 * first few milliseconds, while other clients' requests wait behind them. A request waits at most
 * `holdMs` for its turn, holds no admission slot (the rate limit runs before admission) and has
 * read no body. A client that has not been held is never paced: this costs a well-behaved client
 * one map lookup.
 *
 * Waits end on shared timers: the end of each wait is rounded up to a slot of `SLOT_MS`, and
 * every request waiting until the same slot waits on one promise and one timer, so a flood costs
 * a timer per slot, not one per request.
 */
import { performance } from 'node:perf_hooks';
import { realTimer, type SetTimer } from './admission-queue.js';

export interface RefusalHold {
  /** Waits out the refusal of `clientKey`'s request (it is blocked here); the client is paced from now on. */
  hold(clientKey: string): Promise<void>;
  /**
   * The turn of a request `clientKey`'s budget (`limit` a second) allowed: `undefined` to go on at
   * once (a client not paced, or its turn is now), else a promise of its turn.
   */
  pace(clientKey: string, limit: number): Promise<void> | undefined;
}

/** DEBTKIT_REFUSAL_HOLD_MS's default: one second, the shortest `Retry-After` (docs/decisions/rate-limits.md). */
export const DEFAULT_REFUSAL_HOLD_MS = 1000;

/** Waits ending within one slot end together. */
export const SLOT_MS = 25;

/** How long after its last held request a client stays paced: the rest of its block (at most 1 s) and a whole window. */
export const PACED_FOR_MS = 2000;

export interface RefusalHoldOptions {
  /** Default: `setTimeout`. */
  readonly setTimer?: SetTimer;
  /** Milliseconds; default `performance.now`. */
  readonly now?: () => number;
  /** A number in [0, 1) (default `Math.random`): where in its spread a hold ends. */
  readonly random?: () => number;
}

interface Paced {
  /** Paced until this instant (`now`'s clock). */
  until: number;
  /** The next request's turn. */
  next: number;
}

/** A hold of `holdMs` (rounded up to the next slot's end), or `undefined` for 0: refusals are answered at once, nothing is paced. */
export const createRefusalHold = (holdMs: number, options: RefusalHoldOptions = {}): RefusalHold | undefined => {
  if (holdMs <= 0) return undefined;
  const setTimer = options.setTimer ?? realTimer;
  const now = options.now ?? (() => performance.now());
  const random = options.random ?? Math.random;
  const slots = new Map<number, Promise<void>>();
  // Clients are few (an operator makes them): an entry is dropped when its client is next allowed past its pace.
  const paced = new Map<string, Paced>();
  /** Resolves at the end of the slot the instant `end` falls in, `at` being now. */
  const until = (at: number, end: number): Promise<void> => {
    const slot = Math.ceil(end / SLOT_MS);
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
  return {
    hold: (clientKey) => {
      const at = now();
      const known = paced.get(clientKey);
      if (known === undefined) paced.set(clientKey, { until: at + PACED_FOR_MS, next: at });
      else known.until = at + PACED_FOR_MS;
      // Spread between half the hold and the hold: the connections of a flood, refused together, must not come back
      // together, or their next requests arrive as one burst at the start of the client's next window.
      return until(at, at + holdMs * (0.5 + random() / 2));
    },
    pace: (clientKey, limit) => {
      if (paced.size === 0) return undefined;
      const client = paced.get(clientKey);
      if (client === undefined) return undefined;
      const at = now();
      if (at > client.until) {
        paced.delete(clientKey);
        return undefined;
      }
      // One turn every 1000 / limit ms, none further off than the hold.
      const turn = Math.min(Math.max(at, client.next), at + holdMs);
      client.next = turn + 1000 / limit;
      return turn <= at ? undefined : until(at, turn);
    },
  };
};
