/**
 * The full API on a fresh memory store with the sandbox demo seeded: what the
 * resource tests drive through `app.callback()`.
 */
import supertest from 'supertest';
import * as E from 'fp-ts/lib/Either.js';
import { Application, Clock, PORTS, StorePorts } from '@debtkit/core';
import { seedDemo, type DemoSeed } from '@debtkit/adapter-memory';
import { generateToken } from '../../src/http/token-issuer.js';
import { offlineResolveHost } from './webhook-harness.js';
import { compose } from '../../src/main/composition.js';
import { HTTP, resolve } from '../../src/main/container.js';
import type { Config } from '../../src/main/config.js';

export const TODAY = '2026-03-15';
export const fixedClock = (iso = `${TODAY}T12:00:00.000Z`): Clock => ({ now: () => new Date(iso) });

export interface ResourceHarness {
  readonly request: ReturnType<typeof supertest.agent>;
  /** The app's request handler, for a test that listens on a loopback port. */
  readonly callback: ReturnType<Awaited<ReturnType<typeof compose>>['app']['callback']>;
  readonly token: string;
  readonly store: StorePorts;
  readonly application: Application;
  readonly demo: DemoSeed;
  readonly auth: { Authorization: string };
  /** Every response the agent received, for checking against the OpenAPI document. */
  readonly responses: supertest.Response[];
}

/**
 * The version the demo client of these suites is pinned to: 2024-07-01, the
 * version they were written for, so every suite written before 2026-11-26 runs
 * as that version's client (its unchanged requests keep working: docs/decisions/versioning.md).
 * test/api-versions.test.ts drives the latest version.
 */
export const SUITE_API_VERSION = '2024-07-01';

/** The production composition on `store` (default: a fresh memory store), seeded with the sandbox demo (its client pinned to `apiVersion`). */
export const resourceHarness = async (
  given?: StorePorts,
  clock: Clock = fixedClock(),
  config: Partial<Config> = {},
  apiVersion: string = SUITE_API_VERSION,
  /** Seed the second demo user (docs/decisions/payoff-and-outlook.md); false: user 1 alone, as the demo was before round 5. */
  statementUser = true,
): Promise<ResourceHarness> => {
  const { app, store, container } = await compose({
    // Limits are measured in their own suites; these send many requests from one client.
    config: { adminToken: 'admin-secret-token-for-tests', rateLimit: 0, authFailureLimit: 0, ...config },
    clock,
    webhooks: { resolveHost: offlineResolveHost },
    ...(given === undefined ? {} : { store: given }),
  });
  const token = generateToken('sandbox');
  const seeded = await seedDemo(
    { ...store, clock, tokenHasher: resolve(container, PORTS.TokenHasher) },
    { token, apiVersion, statementUser },
  )();
  if (E.isLeft(seeded)) throw new Error(`seed failed: ${seeded.left.message}`);
  const application = resolve(container, HTTP.Application);
  const responses: supertest.Response[] = [];
  const request = supertest.agent(app.callback());
  request.use((req: { on(event: 'response', listener: (res: supertest.Response) => void): unknown }) => {
    req.on('response', (res: supertest.Response) => responses.push(res));
  });
  return {
    request,
    callback: app.callback(),
    responses,
    token,
    store,
    application,
    demo: seeded.right,
    auth: { Authorization: `Bearer ${token}` },
  };
};
