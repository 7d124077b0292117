/**
 * The one composition path: the server, the tests, the examples and the
 * benchmark all build the app here. `compose` loads the container
 * (`createContainer`), checks that production has a real credit bureau, and
 * resolves the Koa app. An embedding service passes its own `ContainerModule`s,
 * loaded last, to rebind any port (its `CreditBureau`, a `Clock`, a repository).
 */
import * as E from 'fp-ts/lib/Either.js';
import pino from 'pino';
import type { Logger } from '../logger.js';
import type { ContainerModule, Container } from 'inversify';
import type Koa from 'koa';
import { PORTS, type Clock, type StorePorts } from '@debtkit/core';
import { SandboxCreditBureau } from '@debtkit/adapter-memory';
import type { AppState, RouteDef } from '../http/app-context.js';
import { loadConfig, type Config } from './config.js';
import {
  HTTP,
  StartupError,
  createContainer,
  resolve,
  storePortsOf,
  systemClock,
  type DebtkitContainer,
  type WebhookRuntimeOptions,
} from './container.js';

export interface ComposeOptions {
  /** Over the defaults of an empty environment (sandbox, memory store, no admin API, no seeding). */
  readonly config?: Partial<Config>;
  /**
   * Default: `defaultLogger`, pino JSON lines on stderr at `warn` and above
   * (`config.logLevel` sets another level). Request lines and webhook attempts
   * are at `info`: pass a logger, or `config.logLevel: 'info'`, to see them.
   */
  readonly logger?: Logger;
  readonly clock?: Clock;
  /** A store already open (a test's mongo store, a store with injected faults); default: the one `config.store` names. */
  readonly store?: StorePorts;
  /** The embedding service's own bindings, loaded after debtkit's: `rebind` a port here and it is the one used. */
  readonly modules?: ReadonlyArray<ContainerModule>;
  /** Routes added after the API's (tests register probes of their own). */
  readonly extraRoutes?: ReadonlyArray<RouteDef>;
  /** Webhook delivery settings tests change (name resolution, attempt timeout, polling). */
  readonly webhooks?: WebhookRuntimeOptions;
}

export interface Composition {
  readonly config: Config;
  readonly container: Container;
  readonly app: Koa<AppState>;
  /** The storage ports the app runs on (for seeding, and for tests that look into the store). */
  readonly store: StorePorts;
  /** Close the store when `compose` opened it (idempotent enough: closing a closed store is a no-op). */
  close(): Promise<void>;
}

const defaults = (): Config => {
  const config = loadConfig({});
  if (E.isLeft(config)) throw new Error(`the default configuration does not decode: ${config.left}`);
  return { ...config.right, seed: false };
};

/**
 * The logger `compose` uses when it is given none: pino on stderr (fd 2,
 * written synchronously so nothing is lost at exit) at `level`, `warn` unless
 * the configuration passed to `compose` names one.
 */
export const defaultLogger = (level: Config['logLevel'] = 'warn'): Logger => pino({ level }, pino.destination({ dest: 2, sync: true }));

/** What the operator reads when production has no real bureau (one line; exit 1). */
export const NO_BUREAU_MESSAGE =
  'DEBTKIT_ENV=production has no credit bureau bound: bind your CreditBureau adapter (compose({ modules })), or set DEBTKIT_BUREAU=sandbox to serve simulated test data';

/** What `composeContainer` answers: the container with every binding, nothing resolved yet. */
export interface ComposedContainer extends DebtkitContainer {
  readonly config: Config;
  readonly logger: Logger;
}

/**
 * The first half of `compose`: the configuration over the defaults, the store,
 * and every binding, nothing resolved. On its own for commands that run use
 * cases without serving (`debtkit clients create`): they need no credit bureau
 * and no HTTP app, so production without a bureau bound does not stop them.
 */
export const composeContainer = async (options: ComposeOptions = {}): Promise<ComposedContainer> => {
  const config: Config = { ...defaults(), ...options.config };
  const logger = options.logger ?? defaultLogger(options.config?.logLevel);
  const { container, close } = await createContainer({
    config,
    logger,
    clock: options.clock ?? systemClock,
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.modules === undefined ? {} : { modules: options.modules }),
    ...(options.extraRoutes === undefined ? {} : { extraRoutes: options.extraRoutes }),
    ...(options.webhooks === undefined ? {} : { webhooks: options.webhooks }),
  });
  return { config, logger, container, close };
};

export const compose = async (options: ComposeOptions = {}): Promise<Composition> => {
  const { config, logger, container, close } = await composeContainer(options);
  try {
    if (!container.isBound(PORTS.CreditBureau)) throw new StartupError(NO_BUREAU_MESSAGE);
    if (config.environment === 'production' && resolve(container, PORTS.CreditBureau) instanceof SandboxCreditBureau) {
      logger.warn('DEBTKIT_BUREAU=sandbox: production is serving the simulated credit bureau (test data, not real credit reports)');
    }
    const app = resolve(container, HTTP.App);
    // Everything the composition opened: the store, and the rate-limit counters' own connection (mongo).
    const closeAll = async (): Promise<void> => {
      await Promise.all([close(), resolve(container, HTTP.RateLimits).close()]);
    };
    return { config, container, app, store: storePortsOf(container, close), close: closeAll };
  } catch (err) {
    await close();
    throw err;
  }
};
