/**
 * Where the rate-limit counters of a server live (docs/decisions/rate-limits.md): in MongoDB when
 * the store is mongo, so every API process shares them; else in this process.
 * The MongoDB connection comes from the mongo adapter (an optional peer,
 * loaded with the store): this package imports no database driver.
 */
import { createRateLimits, type RateLimits } from '../http/rate-limits.js';
import type { Config } from './config.js';
import type { MongoAdapterModule } from './optional-peers.js';

export const openRateLimits = (config: Config, mongo?: MongoAdapterModule): RateLimits => {
  const settings = { requestsPerSecond: config.rateLimit, authFailuresPerMinute: config.authFailureLimit };
  const url = config.mongodbUrl;
  if (config.store !== 'mongo' || url === undefined) return createRateLimits(settings, { kind: 'memory' });
  if (mongo === undefined)
    throw new Error('rate limits on the mongo store need @debtkit/adapter-mongo: pass the loaded module as `mongo` (createContainer does)');
  // Its own connection (the store's is private to the adapter); it connects on the first count.
  const { client, dbName } = mongo.openRateLimitConnection(url);
  return createRateLimits(settings, { kind: 'mongo', client, dbName, closeClient: true });
};
