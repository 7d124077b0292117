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
import { ContainerModule } from 'inversify';
import { Client, ClientAccess, Clock, Environment, StorePorts, versioning, type Quotas } from '@debtkit/core';
import type { AppState, RouteDef } from '../../src/http/app-context.js';
import { compose } from '../../src/main/composition.js';
import { HTTP, resolve } from '../../src/main/container.js';
import type { RateLimits } from '../../src/http/rate-limits.js';
import type { Metrics } from '../../src/http/metrics.js';
import type { AdmissionQueue } from '../../src/http/admission-queue.js';

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
  /** Core's client and token use cases on the same store. */
  readonly clientAccess: ClientAccess;
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
  /** docs/decisions/tenancy.md quotas, as `DEBTKIT_QUOTA_*` set them; default core's. */
  readonly quotas?: Quotas;
  /** DEBTKIT_TRUSTED_PROXIES (supertest connects from 127.0.0.1). */
  readonly trustedProxies?: ReadonlyArray<string>;
  /** Default: `fixedClock()`. */
  readonly clock?: Clock;
  /** The admission queue (docs/decisions/tenancy.md) the app runs with; default: the configuration's. */
  readonly admission?: AdmissionQueue;
  /** DEBTKIT_DOCS: serve the interactive docs at `/docs` (docs/sandbox-over-time.md); default: the configuration's (on in sandbox). */
  readonly docs?: boolean;
  /** DEBTKIT_REFUSAL_HOLD_MS (docs/decisions/rate-limits.md); default: the configuration's (1000). */
  readonly refusalHoldMs?: number;
}

/**
 * What a test swaps in, the way an embedding service would: rate limits (none
 * unless the test brings its own, so suites that send many requests or many bad
 * tokens are not cut off) and a metrics registry the test reads.
 */
const overrides = (options: HarnessOptions): ContainerModule =>
  new ContainerModule(({ rebind }) => {
    const rateLimits: RateLimits = options.rateLimits ?? { close: () => Promise.resolve() };
    rebind(HTTP.RateLimits).toConstantValue(rateLimits);
    if (options.metrics !== undefined) {
      rebind(HTTP.Metrics).toConstantValue(options.metrics);
    }
    if (options.admission !== undefined) rebind(HTTP.Admission).toConstantValue(options.admission);
  });

export const harness = async (options: HarnessOptions = {}): Promise<Harness> => {
  const environment = options.environment ?? 'sandbox';
  const log = new CapturedLog();
  const adminToken = options.adminToken === null ? undefined : (options.adminToken ?? ADMIN_TOKEN);
  // The production composition; production here runs on the sandbox bureau, as an operator may say explicitly.
  const { app, store, container } = await compose({
    config: {
      environment,
      ...(adminToken === undefined ? {} : { adminToken }),
      ...(environment === 'production' ? { bureau: 'sandbox' as const } : {}),
      ...(options.quotas === undefined ? {} : { quotas: options.quotas }),
      ...(options.trustedProxies === undefined ? {} : { trustedProxies: options.trustedProxies }),
      ...(options.docs === undefined ? {} : { docs: options.docs }),
      ...(options.refusalHoldMs === undefined ? {} : { refusalHoldMs: options.refusalHoldMs }),
    },
    logger: pino({ level: 'debug' }, log),
    clock: options.clock ?? fixedClock(),
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.routes === undefined ? {} : { extraRoutes: options.routes }),
    modules: [overrides(options)],
  });
  const clientAccess = resolve(container, HTTP.ClientAccess);
  const created = await clientAccess.createClient({ name: 'Test app', environment, apiVersion: '2024-07-01' })(); // The version these suites were written for (resource-app.ts SUITE_API_VERSION).
  if (E.isLeft(created)) throw new Error(`creating the test client failed: ${created.left.message}`);
  return {
    app,
    request: supertest(app.callback()),
    store,
    clientAccess,
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
