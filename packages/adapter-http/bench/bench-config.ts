/**
 * The configuration every benchmark runs debtkit with. The environment is
 * spelled out, not inherited: a DEBTKIT_STORE=mongo in the caller's shell must
 * not change what is measured. One client sends every request: its rate limit
 * is set far above what a run can reach, so the limiter's cost is measured but
 * it never answers 429; likewise its concurrency (docs/decisions/tenancy.md) is set above the
 * connections a run opens, so the admission step's cost is measured but one
 * client's 50 connections do not queue behind its own default limit of 16.
 */
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, type Config } from '../src/main/config.js';

export const benchConfig = (): Config => {
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DEBTKIT_ENV: 'sandbox',
    DEBTKIT_STORE: 'memory',
    DEBTKIT_SEED: 'true',
    LOG_LEVEL: 'info',
    DEBTKIT_RATE_LIMIT: '100000000',
    DEBTKIT_CLIENT_CONCURRENCY: '256',
  });
  if (E.isLeft(config)) throw new Error(`bench configuration: ${config.left}`);
  return config.right;
};
