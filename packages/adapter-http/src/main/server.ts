/**
 * Starting and stopping the API server: compose the app (which opens the store),
 * seed the sandbox demo, listen; on shutdown stop accepting,
 * let in-flight requests finish (forcing them closed after a grace period),
 * then close the store.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as E from 'fp-ts/lib/Either.js';
import type { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { Clock, StorePorts, UserId } from '@debtkit/core';
import { seedDemo } from '@debtkit/adapter-memory';
import { generateToken, hashToken } from '../http/token-issuer.js';
import type { Config } from './config.js';
import { StartupError, systemClock } from './container.js';
import { compose } from './composition.js';

/** In-flight requests get this long after a shutdown signal before their connections are cut (DESIGN 3: exit within 10 s). */
export const SHUTDOWN_GRACE_MS = 8000;

export interface DemoAccess {
  readonly token: string;
  readonly userId: UserId;
}

/** Seed the sandbox demo; its token is `token` when given (DEBTKIT_BOOTSTRAP_TOKEN), else a fresh one. */
export const seedSandboxDemo = async (store: StorePorts, clock: Clock, token: string = generateToken('sandbox')): Promise<DemoAccess> => {
  const seeded = await seedDemo(store, clock, { tokenHash: hashToken(token) })();
  if (E.isLeft(seeded)) throw new StartupError(`seeding the demo failed: ${seeded.left.message}`);
  return { token, userId: seeded.right.user.id };
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
  const { app, store, close } = await compose({ config, logger, clock, ...(options.modules === undefined ? {} : { modules: options.modules }) });
  try {
    const demo = config.seed ? await seedSandboxDemo(store, clock, config.bootstrapToken) : undefined;
    const server = createServer(app.callback());
    let closing = false;
    // During shutdown no connection is kept alive after its response: keep-alive
    // clients must not hold the server open until the grace period ends.
    server.on('request', (_req, res) => {
      if (closing) res.setHeader('Connection', 'close');
      else res.once('finish', () => closing && server.closeIdleConnections());
    });
    const address = await listen(server, config.port, config.host);

    let stopped: Promise<void> | undefined;
    const shutdown = (): Promise<void> =>
      (stopped ??= new Promise<void>((resolvePromise) => {
        closing = true;
        const force = setTimeout(() => server.closeAllConnections(), options.graceMs ?? SHUTDOWN_GRACE_MS);
        server.close(() => {
          clearTimeout(force);
          close().then(resolvePromise, (err: unknown) => {
            logger.error({ err }, 'closing the store failed');
            resolvePromise();
          });
        });
        server.closeIdleConnections();
      }));

    return { url: urlOf(config.host, address), server, ...(demo === undefined ? {} : { demo }), shutdown };
  } catch (err) {
    await close();
    throw err;
  }
};

/** What `debtkit serve` prints once listening (DESIGN 3). */
export const startupLines = (config: Config, running: RunningServer): string[] => {
  const lines = [`debtkit listening on ${running.url} (${config.environment}, ${config.store} store)`];
  if (running.demo !== undefined) {
    const { token, userId } = running.demo;
    lines.push(`demo token: ${token}`);
    lines.push(`try: curl -s -H "Authorization: Bearer ${token}" ${running.url}/api/users/${userId}/credit_scores`);
  }
  return lines;
};
