/**
 * The connection the HTTP adapter's rate-limit counters keep in MongoDB when
 * the store is mongo (docs/decisions/rate-limits.md), so every API process shares them. Made here
 * so that the HTTP package imports no MongoDB driver: it counts through
 * rate-limiter-flexible on whatever client this answers.
 */
import { MongoClient } from 'mongodb';
import { DEFAULT_DB_NAME, databaseInUrl } from './mongo-store.js';

/**
 * How long a count waits for MongoDB before the process's own counters take
 * over: short, because every request waits for it before doing its work.
 */
export const RATE_LIMIT_SERVER_SELECTION_MS = 1000;

export interface RateLimitConnection {
  /** A driver client, not connected yet: it connects on the first count. */
  readonly client: MongoClient;
  /** The database of `url` (its path), else debtkit's default. */
  readonly dbName: string;
}

/** Its own client (the store's is private to the store), with short timeouts. */
export const openRateLimitConnection = (url: string): RateLimitConnection => ({
  client: new MongoClient(url, {
    serverSelectionTimeoutMS: RATE_LIMIT_SERVER_SELECTION_MS,
    connectTimeoutMS: RATE_LIMIT_SERVER_SELECTION_MS,
    appName: 'debtkit-rate-limits',
  }),
  dbName: databaseInUrl(url) ?? DEFAULT_DB_NAME,
});
