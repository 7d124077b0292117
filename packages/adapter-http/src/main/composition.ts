/**
 * The one composition path: the server, the tests, the examples and the
 * benchmark all build the app here. `compose` opens (or takes) a store, loads
 * the container and resolves the Koa app; an embedding service passes its own
 * `ContainerModule`s, loaded last, to rebind any port.
 */
import 'reflect-metadata';
import * as E from 'fp-ts/lib/Either.js';
import pino, { type Logger } from 'pino';
import type { ContainerModule, Container } from 'inversify';
import type Koa from 'koa';
import type { Clock, StorePorts } from '@debtkit/core';
import type { AppState } from '../http/app-context.js';
import { loadConfig, type Config } from './config.js';
import { HTTP, createContainer, openStore, resolve, systemClock } from './container.js';

export interface ComposeOptions {
  /** Over the defaults of an empty environment (sandbox, memory store, no admin API). */
  readonly config?: Partial<Config>;
  /** Default: a silent logger. */
  readonly logger?: Logger;
  readonly clock?: Clock;
  /** A store already open (a test's mongo store, a store with injected faults); default: the one `config.store` names. */
  readonly store?: StorePorts;
  /** The embedding service's own bindings, loaded after debtkit's: `rebind` a port here and it is the one used. */
  readonly modules?: ReadonlyArray<ContainerModule>;
}

export interface Composition {
  readonly config: Config;
  readonly container: Container;
  readonly app: Koa<AppState>;
  readonly store: StorePorts;
  /** Close the store (when `compose` opened it). */
  close(): Promise<void>;
}

const defaults = (): Config => {
  const config = loadConfig({});
  if (E.isLeft(config)) throw new Error(`the default configuration does not decode: ${config.left}`);
  return { ...config.right, seed: false };
};

export const compose = async (options: ComposeOptions = {}): Promise<Composition> => {
  const config: Config = { ...defaults(), ...options.config };
  const store = options.store ?? (await openStore(config));
  const container = createContainer({ config, store, logger: options.logger ?? pino({ level: 'silent' }), clock: options.clock ?? systemClock });
  if (options.modules !== undefined) container.load(...options.modules);
  return { config, container, app: resolve(container, HTTP.App), store, close: () => (options.store === undefined ? store.close() : Promise.resolve()) };
};
