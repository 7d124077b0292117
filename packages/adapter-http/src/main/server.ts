/**
 * Starting and stopping the API server: compose the app (which opens the store),
 * seed the sandbox demo, listen; on shutdown stop accepting,
 * let in-flight requests finish (forcing them closed after a grace period),
 * then close the store.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import * as E from 'fp-ts/lib/Either.js';
import type { ContainerModule } from 'inversify';
import type { Logger } from '../logger.js';
import { PORTS, newToken, seedDemo, type Clock, type DemoSeedDeps, type StorePorts, type UserId } from '@debtkit/core';
import type { Config } from './config.js';
import { HTTP, StartupError, resolve, systemClock, type WebhookRuntimeOptions } from './container.js';
import { compose } from './composition.js';
import { DEFAULT_CONNECTION_RULES, applyConnectionRules, serverOptions, type ConnectionRules } from './connection-rules.js';

/** In-flight requests get this long after a shutdown signal before their connections are cut (docs/operations.md: exit within 10 s). */
export const SHUTDOWN_GRACE_MS = 8000;

export interface DemoAccess {
  readonly token: string;
  /** The demo user; unknown while the store has been unreachable since the start (seeding waits for it). */
  readonly userId?: UserId;
}

/**
 * The sandbox demo's token on a persistent store (mongo) when
 * DEBTKIT_BOOTSTRAP_TOKEN is not set: the same at every start, so that a
 * restart finds the demo it seeded before instead of adding another (a token is
 * stored only as its hash, so a random one could not be found again). It is
 * public (anyone can compute it) and only ever names the sandbox demo client; a
 * shared sandbox sets its own DEBTKIT_BOOTSTRAP_TOKEN or DEBTKIT_SEED=false
 * (docs/operations.md, the demo seed). The memory store starts empty every time, so it keeps a random one.
 */
export const DEFAULT_DEMO_TOKEN = `dk_sandbox_${createHash('sha256').update('debtkit sandbox demo token').digest('base64url')}`;

/**
 * Seed the sandbox demo (idempotent: a restart finds and completes it); its
 * token is `token`, stored as the bound `TokenHasher` hashes it, as every other token.
 */
export const seedSandboxDemo = async (deps: DemoSeedDeps, token: string = DEFAULT_DEMO_TOKEN): Promise<DemoAccess> => {
  const seeded = await seedDemo(deps, { token })();
  if (E.isLeft(seeded)) throw new StartupError(`seeding the demo failed: ${seeded.left.message}`, { cause: seeded.left });
  return { token, userId: seeded.right.user.id };
};

/** How often seeding is tried again while the store has been unreachable since the start. */
export const SEED_RETRY_MS = 1000;
/** How long the first seeding waits to learn whether the store answers at all. */
const FIRST_PING_MS = 1000;

const isUnavailable = (err: unknown): boolean =>
  err instanceof StartupError &&
  typeof err.cause === 'object' &&
  err.cause !== null &&
  (err.cause as { _tag?: unknown })._tag === 'unavailable';

/**
 * Seed at start when the store answers; when it does not (the database is
 * down), start anyway and seed in the background as soon as it does. Requests
 * answer 503 meanwhile. Returns the demo access and a stop for the retries.
 */
const seedPatiently = async (
  store: DemoSeedDeps & Pick<StorePorts, 'health'>,
  logger: Logger,
  demoToken: string,
): Promise<{ demo: DemoAccess; stop: () => void }> => {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  const ping = await Promise.race([
    store.health
      .ping()()
      .then(E.isRight, () => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), FIRST_PING_MS).unref()),
  ]);
  if (ping) {
    try {
      return { demo: await seedSandboxDemo(store, demoToken), stop };
    } catch (err) {
      if (!isUnavailable(err)) throw err;
    }
  }
  logger.warn('the store is unreachable: serving 503 until it answers; the demo is seeded then');
  const attempt = (): void => {
    timer = setTimeout(() => {
      seedSandboxDemo(store, demoToken).then(
        (seeded) => {
          if (!stopped) logger.info({ user_id: seeded.userId }, 'the store answers: demo seeded');
        },
        (err: unknown) => {
          if (stopped) return;
          if (isUnavailable(err)) attempt();
          else logger.error({ err }, 'seeding the demo failed');
        },
      );
    }, SEED_RETRY_MS);
    timer.unref();
  };
  attempt();
  return { demo: { token: demoToken }, stop };
};

/** Node's channel of every finished HTTP server response (`{ request, response, socket, server }`). */
const RESPONSE_FINISHED = 'http.server.response.finish';

/**
 * From the shutdown on, no connection is kept alive after its response, so that
 * keep-alive clients do not hold the server open until the grace period ends: a
 * request that arrives is answered `Connection: close`, and the connection of a
 * response in flight is closed once it has finished. Set up at the shutdown only,
 * so that serving pays nothing for it (it was a listener on every response:
 * docs/performance.md). Returns its undoing, for when the server has closed.
 */
const keepNoneAlive = (server: Server): (() => void) => {
  const closeWithAnswer = (_req: IncomingMessage, res: ServerResponse): void => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  // Published as the response finishes, before Node marks its connection idle: closed on the next turn.
  const finished = (message: unknown): void => {
    if ((message as { server?: unknown }).server === server) setImmediate(() => server.closeIdleConnections());
  };
  server.on('request', closeWithAnswer);
  subscribe(RESPONSE_FINISHED, finished);
  return () => {
    server.off('request', closeWithAnswer);
    unsubscribe(RESPONSE_FINISHED, finished);
  };
};

export interface RunningServer {
  readonly url: string;
  readonly server: Server;
  readonly demo?: DemoAccess;
  /** Stop accepting, finish in-flight requests (cut after the grace period), close the store. Idempotent. */
  shutdown(): Promise<void>;
}

export interface StartOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock?: Clock;
  readonly graceMs?: number;
  /** Overrides of docs/decisions/api-conventions.md's deadlines (tests use short ones); the connection cap defaults to the configuration's. */
  readonly connectionRules?: Partial<ConnectionRules>;
  readonly webhooks?: WebhookRuntimeOptions;
  /** The embedding service's own container modules (e.g. its `CreditBureau`), loaded last. */
  readonly modules?: ReadonlyArray<ContainerModule>;
}

const listen = (server: Server, port: number, host: string): Promise<AddressInfo> =>
  new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolvePromise(server.address() as AddressInfo);
    });
  });

/** The configured host (as the operator wrote it) and the bound port (PORT=0 picks a free one). */
const urlOf = (host: string, address: AddressInfo): string => `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

export const startServer = async (options: StartOptions): Promise<RunningServer> => {
  const { config, logger } = options;
  const clock = options.clock ?? systemClock;
  const { app, store, close, container } = await compose({
    config,
    logger,
    clock,
    ...(options.modules === undefined ? {} : { modules: options.modules }),
    ...(options.webhooks === undefined ? {} : { webhooks: options.webhooks }),
  });
  try {
    if (config.trustedProxies !== undefined && config.publicUrl === undefined) {
      // Behind a proxy the listen address is not where clients are: the OpenAPI document would name it.
      logger.warn(
        'DEBTKIT_TRUSTED_PROXIES is set without DEBTKIT_PUBLIC_URL: set it to the address clients reach the proxy at (the OpenAPI document names it)',
      );
    }
    const demoToken =
      config.bootstrapToken ??
      (config.store === 'memory' ? newToken(resolve(container, PORTS.SecretGenerator), 'sandbox') : DEFAULT_DEMO_TOKEN);
    const seedDeps = { ...store, clock, tokenHasher: resolve(container, PORTS.TokenHasher) };
    const seeding = config.seed ? await seedPatiently(seedDeps, logger, demoToken) : undefined;
    const demo = seeding?.demo;
    // Every API process delivers webhooks; the store's leases keep them from sending one attempt twice.
    const worker = resolve(container, HTTP.DeliveryWorker);
    const rules: ConnectionRules = { ...DEFAULT_CONNECTION_RULES, maxConnections: config.maxConnections, ...options.connectionRules };
    const server = createServer(serverOptions(rules), app.callback());
    applyConnectionRules(server, rules);
    const address = await listen(server, config.port, config.host);
    worker.start();

    let stopped: Promise<void> | undefined;
    const shutdown = (): Promise<void> =>
      (stopped ??= new Promise<void>((resolvePromise) => {
        const endKeepNoneAlive = keepNoneAlive(server);
        seeding?.stop();
        // No new attempts from now on; the ones in flight finish (or are cut after the grace
        // period, like requests) and are recorded before the store closes.
        const graceMs = options.graceMs ?? SHUTDOWN_GRACE_MS;
        const workerStopped = worker.stop(graceMs);
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          endKeepNoneAlive();
          workerStopped
            .then(() => close())
            .then(
              () => resolvePromise(),
              (err: unknown) => {
                logger.error({ err }, 'closing the store failed');
                resolvePromise();
              },
            );
        });
        server.closeIdleConnections();
      }));

    return { url: urlOf(config.host, address), server, ...(demo === undefined ? {} : { demo }), shutdown };
  } catch (err) {
    await close();
    throw err;
  }
};

/**
 * What `debtkit serve` prints once listening (docs/operations.md). The demo
 * token is printed when debtkit chose it (random on memory, the public one on
 * mongo); a token the operator set (`DEBTKIT_BOOTSTRAP_TOKEN`) is theirs and
 * may guard a shared sandbox, so the log stream gets only a hint (its last 4
 * characters) and the curl names the variable.
 */
export const startupLines = (config: Config, running: RunningServer): string[] => {
  const lines = [`debtkit listening on ${running.url} (${config.environment}, ${config.store} store)`];
  if (running.demo !== undefined) {
    const { token, userId } = running.demo;
    const operatorSet = config.bootstrapToken !== undefined;
    lines.push(operatorSet ? `demo token: the one in DEBTKIT_BOOTSTRAP_TOKEN (ending …${token.slice(-4)})` : `demo token: ${token}`);
    const path = userId === undefined ? '/api/users' : `/api/users/${userId}/credit_scores`;
    lines.push(`try: curl -s -H "Authorization: Bearer ${operatorSet ? '$DEBTKIT_BOOTSTRAP_TOKEN' : token}" ${running.url}${path}`);
  }
  return lines;
};
