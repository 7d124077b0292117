/**
 * Where the rate-limit counters of a server live (DESIGN 4.3): in MongoDB when
 * the store is mongo, so every API process shares them; else in this process.
 */
import { MongoClient } from 'mongodb';
import { DEFAULT_DB_NAME, databaseInUrl } from '@debtkit/adapter-mongo';
import { createRateLimits, type RateLimits } from '../http/rate-limits.js';
import type { Config } from './config.js';

/**
 * How long a count waits for MongoDB before the process's own counters take
 * over: short, because every request waits for it before doing its work.
 */
const COUNTER_SERVER_SELECTION_MS = 1000;

export const openRateLimits = (config: Config): RateLimits => {
  const settings = { requestsPerSecond: config.rateLimit, authFailuresPerMinute: config.authFailureLimit };
  const url = config.mongodbUrl;
  if (config.store !== 'mongo' || url === undefined) return createRateLimits(settings, { kind: 'memory' });
  // Its own connection (the store's is private to the adapter); it connects on the first count.
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: COUNTER_SERVER_SELECTION_MS,
    connectTimeoutMS: COUNTER_SERVER_SELECTION_MS,
    appName: 'debtkit-rate-limits',
  });
  return createRateLimits(settings, { kind: 'mongo', client, dbName: databaseInUrl(url) ?? DEFAULT_DB_NAME, closeClient: true });
};
