/**
 * Rate limits (docs/decisions/rate-limits.md) as the HTTP layer sees them: a budget of requests per
 * client, and a count of failed authentications per client address. The
 * counting is rate-limiter-flexible's, in process memory or in MongoDB (so
 * every API process behind a load balancer shares the counters).
 */
import {
  BurstyRateLimiter,
  RateLimiterMemory,
  RateLimiterMongo,
  RateLimiterRes,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Requests per second of the sustained budget (`RateLimit-Limit`). */
  readonly limit: number;
  /** What is left of it in the current window (`RateLimit-Remaining`). */
  readonly remaining: number;
  /** Whole seconds until the window resets (`RateLimit-Reset`; `Retry-After` when refused), at least 1 when refused. */
  readonly resetSeconds: number;
}

export interface ClientRateLimiter {
  consume(clientKey: string): Promise<RateLimitDecision>;
  /**
   * The refusal of a client this process has already seen over its limit, for
   * the rest of that window, without counting (no store command, no promise);
   * `undefined` when the client is not blocked here and must be counted.
   */
  blocked(clientKey: string): RateLimitDecision | undefined;
}

export interface AuthFailureLimiter {
  /** Seconds until `address` may try again (at least 1), or 0 when it may now (kept in this process: no I/O, so no promise). */
  blockedFor(address: string): number;
  /**
   * Take one try from `address`'s budget before a token is looked up: 0 when
   * the try may go ahead, else the seconds until the address may try again
   * (the address is then blocked in this process too). Taken in the shared
   * counter in one step, so concurrent tries (in any number of processes on
   * MongoDB) never get more than the limit between them.
   */
  attempt(address: string): Promise<number>;
  /** Give back a try taken by `attempt` whose token was good: only failures count. */
  giveBack(address: string): Promise<void>;
  /** Count a failure that took no try first (a wrong token where nothing is looked up). */
  recordFailure(address: string): Promise<void>;
}

export interface RateLimits {
  /** Absent: no per-client limit (`DEBTKIT_RATE_LIMIT=0`). */
  readonly clients?: ClientRateLimiter;
  /** Absent: failed authentications are not limited (`DEBTKIT_AUTH_FAILURE_LIMIT=0`). */
  readonly authFailures?: AuthFailureLimiter;
  /** Release what the counters hold open (the MongoDB connection). */
  close(): Promise<void>;
}

export interface RateLimitSettings {
  /** Sustained requests per second per client; 0 disables. */
  readonly requestsPerSecond: number;
  /** Failed authentications per minute per address before 429; 0 disables. */
  readonly authFailuresPerMinute: number;
}

/** Where the counters live. */
/**
 * A MongoDB driver client (the `mongodb` package's `MongoClient`, made by the
 * mongo adapter's `openRateLimitConnection`), as rate-limiter-flexible uses it;
 * described by shape so this package's types need no database driver.
 */
export interface MongoClientLike {
  db(name: string): unknown;
  close(): Promise<void>;
}

export type RateLimitBackend =
  | { readonly kind: 'memory' }
  | { readonly kind: 'mongo'; readonly client: MongoClientLike; readonly dbName: string; readonly closeClient?: boolean };

/** The collection of the MongoDB counters (one document per key and window). */
export const RATE_LIMIT_COLLECTION = 'rate_limits';

/**
 * The burst allowance: on top of the per-second budget, as many requests again
 * once per this many seconds (docs/decisions/rate-limits.md: "bursts up to 2×").
 */
export const BURST_WINDOW_SECONDS = 10;

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** Runs `task` once successfully; a failure lets the next caller try again. */
const once = (task: () => Promise<void>): (() => Promise<void>) => {
  let attempt: Promise<void> | undefined;
  return () =>
    (attempt ??= task().catch((err: unknown) => {
      attempt = undefined;
      throw err;
    }));
};

/** The part of a rate-limiter-flexible limiter used here. */
interface Counter {
  consume(key: string, points?: number, options?: object): Promise<RateLimiterRes>;
  penalty(key: string, points?: number, options?: object): Promise<RateLimiterRes>;
  reward(key: string, points?: number, options?: object): Promise<RateLimiterRes>;
}

interface Counters {
  /**
   * A counter of `points` per `durationSeconds`. `blockInMemory`: once a key
   * has used its points, this process refuses it until its window ends without
   * asking the shared counter (rate-limiter-flexible's `inMemoryBlockOnConsumed`):
   * a client over its limit costs no store command per refusal.
   */
  readonly counter: (keyPrefix: string, points: number, durationSeconds: number, blockInMemory?: boolean) => Counter;
  readonly close: () => Promise<void>;
}

const memoryCounters = (): Counters => ({
  counter: (keyPrefix, points, duration) => new RateLimiterMemory({ keyPrefix, points, duration }),
  close: async () => undefined,
});

/**
 * MongoDB counters. Each limiter falls back to a memory one of the same shape
 * while MongoDB cannot be reached (the library's insurance limiter): an outage
 * of the store must not turn into 500s or unlimited traffic. The library's own
 * index creation runs once at construction and gives up for good when the server
 * is down then, so the indexes (among them the unique key that makes concurrent
 * first hits safe) are made here, before the first count, and retried until they exist.
 */
const mongoCounters = (backend: Extract<RateLimitBackend, { kind: 'mongo' }>): Counters => {
  let first: RateLimiterMongo | undefined;
  // All limiters share one collection, hence its indexes.
  const indexes = once(async () => first?.createIndexes());
  return {
    counter: (keyPrefix, points, duration, blockInMemory) => {
      const options: IRateLimiterOptions = { keyPrefix, points, duration };
      const insurance = new RateLimiterMemory(options);
      const mongo = new RateLimiterMongo({
        ...options,
        // The request that uses the last point blocks the key here for the rest of its window:
        // every later one in that window would be refused by the counter anyway.
        ...(blockInMemory === true ? { inMemoryBlockOnConsumed: points } : {}),
        storeClient: backend.client,
        dbName: backend.dbName,
        tableName: RATE_LIMIT_COLLECTION,
        disableIndexesCreation: true,
        insuranceLimiter: insurance,
      });
      first ??= mongo;
      const limiter = (): Promise<Counter> =>
        indexes().then(
          () => mongo,
          () => insurance,
        );
      return {
        consume: async (key, n, o) => (await limiter()).consume(key, n, o),
        penalty: async (key, n, o) => (await limiter()).penalty(key, n, o),
        reward: async (key, n, o) => (await limiter()).reward(key, n, o),
      };
    },
    close: async () => {
      if (backend.closeClient === true) await backend.client.close();
    },
  };
};

/**
 * The per-client budget: `perSecond` a second, and a burst of as many again per
 * `BURST_WINDOW_SECONDS`. Both counters block a client in this process once it
 * has used their points, for the rest of their window (docs/performance.md, cheap
 * refusals): while the client is over both, a refusal is answered from memory
 * (on MongoDB: no command), and the sustained budget still comes back each second.
 */
const clientLimiter = (counters: Counters, perSecond: number): ClientRateLimiter => {
  // BurstyRateLimiter only calls `consume` on the two limiters it is given.
  const limiter = (prefix: string, window: number) => counters.counter(prefix, perSecond, window, true) as unknown as RateLimiterAbstract;
  const bursty = new BurstyRateLimiter(limiter('clients', 1), limiter('clients_burst', BURST_WINDOW_SECONDS));
  // A client refused by the counters, until the end of the window they named (on `Date`, like the library's
  // windows): every request before then would be refused by them too, since a window's count only grows
  // until it ends. Kept per client (clients are few and made by an operator), an entry dropped once past.
  const blockedUntil = new Map<string, number>();
  const refusal = (msLeft: number): RateLimitDecision => ({
    allowed: false,
    limit: perSecond,
    remaining: 0,
    resetSeconds: seconds(msLeft),
  });
  return {
    // A promise chain rather than an async function: one step fewer on every request (docs/performance.md).
    consume: (clientKey) =>
      bursty.consume(clientKey).then(
        (res): RateLimitDecision => ({
          allowed: true,
          limit: perSecond,
          remaining: res.remainingPoints,
          resetSeconds: seconds(res.msBeforeNext),
        }),
        (refused: unknown): RateLimitDecision => {
          if (!(refused instanceof RateLimiterRes)) throw refused;
          if (refused.msBeforeNext > 0) blockedUntil.set(clientKey, Date.now() + refused.msBeforeNext);
          return refusal(refused.msBeforeNext);
        },
      ),
    blocked: (clientKey) => {
      const until = blockedUntil.get(clientKey);
      if (until === undefined) return undefined;
      const left = until - Date.now();
      if (left > 0) return refusal(left);
      blockedUntil.delete(clientKey);
      return undefined;
    },
  };
};

/** Blocked addresses remembered at most; expired ones are swept before this is exceeded. */
const MAX_BLOCKED_ADDRESSES = 100_000;

/**
 * Failures are counted in the shared counter; the block they lead to is kept in
 * this process, so a request that authenticates with a token this process
 * knows costs no trip to the counters. A token that has to be looked up takes
 * a try from the counter first (`attempt`, one atomic increment) and gives it
 * back when it was good, so the limit holds exactly however many requests run
 * at once, in one process or, on MongoDB, in several: each try past the limit
 * is refused by the counter itself, before the token is looked at.
 */
const authFailureLimiter = (counters: Counters, perMinute: number): AuthFailureLimiter => {
  const failures = counters.counter('auth_failures', perMinute, 60);
  const blockedUntil = new Map<string, number>();
  /** Addresses blocked by their last try, which may still turn out good (then they are let in again). */
  const onLastTry = new Set<string>();
  const sweep = (now: number): void => {
    for (const [address, until] of blockedUntil) {
      if (until > now) continue;
      blockedUntil.delete(address);
      onLastTry.delete(address);
    }
  };
  const block = (address: string, msBeforeNext: number): number => {
    // On `Date`, like the library's windows, so the two agree (and a mocked clock moves both).
    const now = Date.now();
    if (blockedUntil.size >= MAX_BLOCKED_ADDRESSES) sweep(now);
    const oldest = blockedUntil.size >= MAX_BLOCKED_ADDRESSES ? blockedUntil.keys().next().value : undefined;
    if (oldest !== undefined) blockedUntil.delete(oldest);
    const wait = Math.max(msBeforeNext, 1000);
    blockedUntil.set(address, now + wait);
    return seconds(wait);
  };
  return {
    attempt: async (address) => {
      const res = await failures.penalty(address, 1);
      if (res.consumedPoints > perMinute) return block(address, res.msBeforeNext);
      if (res.consumedPoints === perMinute) {
        // The last try: blocked here at once, as it will be if it fails.
        block(address, res.msBeforeNext);
        onLastTry.add(address);
      }
      return 0;
    },
    giveBack: async (address) => {
      await failures.reward(address, 1);
      if (onLastTry.delete(address)) blockedUntil.delete(address);
    },
    blockedFor: (address) => {
      const until = blockedUntil.get(address);
      if (until === undefined) return 0;
      const left = until - Date.now();
      if (left > 0) return seconds(left);
      blockedUntil.delete(address);
      onLastTry.delete(address);
      return 0;
    },
    recordFailure: async (address) => {
      const res = await failures.penalty(address, 1);
      if (res.consumedPoints >= perMinute) block(address, res.msBeforeNext);
    },
  };
};

/** The limits of `settings`, counted in `backend`. */
export const createRateLimits = (settings: RateLimitSettings, backend: RateLimitBackend): RateLimits => {
  const counters = backend.kind === 'memory' ? memoryCounters() : mongoCounters(backend);
  return {
    ...(settings.requestsPerSecond > 0 ? { clients: clientLimiter(counters, settings.requestsPerSecond) } : {}),
    ...(settings.authFailuresPerMinute > 0 ? { authFailures: authFailureLimiter(counters, settings.authFailuresPerMinute) } : {}),
    close: counters.close,
  };
};
