/**
 * The HTTP infrastructure on a fresh memory store, with a captured log and a
 * sandbox client: what the middleware, admin and operations tests drive through
 * `app.callback()`.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import supertest from 'supertest';
import * as E from 'fp-ts/lib/Either.js';
import type Koa from 'koa';
import { Client, Clock, Environment, StorePorts, versioning } from '@debtkit/core';
import { createMemoryStore } from '@debtkit/adapter-memory';
import { createApp } from '../../src/http/app.js';
import type { AppDeps, AppState, RouteDef } from '../../src/http/app-context.js';
import { createClientWithToken } from '../../src/http/token-issuer.js';
import type { RateLimits } from '../../src/http/rate-limits.js';
import type { Metrics } from '../../src/http/metrics.js';

export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';
export const fixedClock = (iso = '2026-03-15T12:00:00.000Z'): Clock => ({ now: () => new Date(iso) });

export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** Log lines as pino writes them, parsed; `next` waits for a line matching a predicate. */
export class CapturedLog extends Writable {
  readonly lines: LogLine[] = [];
  private waiters: Array<{ match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }> = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const text of chunk.toString('utf8').split('\n')) {
      if (text === '') continue;
      const line = JSON.parse(text) as LogLine;
      this.lines.push(line);
      this.waiters = this.waiters.filter((w) => (w.match(line) ? (w.resolve(line), false) : true));
    }
    done();
  }

  next(match: (l: LogLine) => boolean): Promise<LogLine> {
    const seen = this.lines.find(match);
    return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  get text(): string {
    return this.lines.map((l) => JSON.stringify(l)).join('\n');
  }
}

export interface Harness {
  readonly app: Koa<AppState>;
  readonly request: ReturnType<typeof supertest>;
  readonly store: StorePorts;
  readonly log: CapturedLog;
  readonly client: Client;
  readonly token: string;
  readonly auth: { readonly Authorization: string };
  readonly admin: { readonly Authorization: string };
}

export interface HarnessOptions {
  readonly store?: StorePorts;
  readonly environment?: Environment;
  readonly adminToken?: string | null;
  readonly routes?: ReadonlyArray<RouteDef>;
  readonly rateLimits?: RateLimits;
  readonly metrics?: Metrics;
}

export const harness = async (options: HarnessOptions = {}): Promise<Harness> => {
  const store = options.store ?? createMemoryStore();
  const clock = fixedClock();
  const environment = options.environment ?? 'sandbox';
  const created = await createClientWithToken({ store, clock }, { name: 'Test app', environment, apiVersion: versioning.latest })();
  if (E.isLeft(created)) throw new Error(`creating the test client failed: ${created.left.message}`);
  const log = new CapturedLog();
  const adminToken = options.adminToken === null ? undefined : options.adminToken ?? ADMIN_TOKEN;
  const deps: AppDeps = {
    store,
    clock,
    config: adminToken === undefined ? { environment } : { environment, adminToken },
    logger: pino({ level: 'debug' }, log),
    routes: options.routes ?? [],
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
  };
  const app = createApp(deps);
  return {
    app,
    request: supertest(app.callback()),
    store,
    log,
    client: created.right.client,
    token: created.right.token,
    auth: { Authorization: `Bearer ${created.right.token}` },
    admin: { Authorization: `Bearer ${ADMIN_TOKEN}` },
  };
};

/** A promise with its resolver, to step a request and a test in lockstep without sleeping. */
export const deferred = <A = void>(): { promise: Promise<A>; resolve: (a: A) => void } => {
  let resolve!: (a: A) => void;
  const promise = new Promise<A>((r) => (resolve = r));
  return { promise, resolve };
};
