/**
 * One started debtkit for a test file: the `npm start` server (sandbox, memory
 * store, demo data) on 127.0.0.1 at a free port, with a fixed clock, so the
 * client's tests talk to the real API over the network.
 */
import * as E from 'fp-ts/lib/Either.js';
import pino from 'pino';
import { loadConfig, startServer, type RunningServer } from '@debtkit/adapter-http';

/** The day the test server lives in. */
export const TODAY = '2026-03-15';
export const NOW = new Date(`${TODAY}T12:00:00.000Z`);

export interface TestDebtkit {
  readonly url: string;
  readonly token: string;
  readonly demoUserId: number;
  readonly running: RunningServer;
}

export const startDebtkit = async (env: Readonly<Record<string, string>> = {}): Promise<TestDebtkit> => {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DEBTKIT_ENV: 'sandbox',
    DEBTKIT_STORE: 'memory',
    LOG_LEVEL: 'silent',
    DEBTKIT_RATE_LIMIT: '0',
    ...env,
  });
  if (E.isLeft(config)) throw new Error(config.left);
  const running = await startServer({
    config: config.right,
    logger: pino({ level: 'silent' }),
    clock: { now: () => NOW },
    webhooks: { pollMs: 20 },
  });
  const demo = running.demo;
  if (demo?.userId === undefined) throw new Error('the sandbox server seeded no demo user');
  return { url: running.url, token: demo.token, demoUserId: demo.userId, running };
};
