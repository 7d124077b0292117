/**
 * The composition root: the only place that picks adapters and touches the
 * container. Port tokens come from core (`PORTS`); each adapter brings a
 * `ContainerModule` binding its classes to them (`memoryStoreModule`,
 * `mongoStoreModule`, `sandboxBureauModule`, and `httpModule` here); core's use
 * cases are plain functions, bound with `toResolvedValue` to the ports they
 * read. An embedding service loads its own modules last and `rebind`s any port.
 */
import 'reflect-metadata';
import { Container, ContainerModule } from 'inversify';
import type Koa from 'koa';
import type { Logger } from 'pino';
import {
  Application,
  ApplicationDeps,
  ClientAccess,
  ClientAccessDeps,
  Clock,
  CreditBureau,
  StoreHealth,
  PORTS,
  PortToken,
  StorePorts,
  createApplication,
  createClientAccess,
} from '@debtkit/core';
import { memoryStoreModule, sandboxBureauModule } from '@debtkit/adapter-memory';
import { mongoStoreModule, openMongoContext } from '@debtkit/adapter-mongo';
import type { AppState, RouteDef } from '../http/app-context.js';
import { createApp } from '../http/app.js';
import { createApiRoutes } from '../http/routes/index.js';
import { RandomSecretGenerator, Sha256TokenHasher } from '../http/token-issuer.js';
import type { Config } from './config.js';

/** Tokens of what the HTTP adapter adds to core's ports. */
export const HTTP = {
  Config: Symbol.for('debtkit.http.Config') as PortToken<Config>,
  Logger: Symbol.for('debtkit.http.Logger') as PortToken<Logger>,
  Application: Symbol.for('debtkit.http.Application') as PortToken<Application>,
  ClientAccess: Symbol.for('debtkit.http.ClientAccess') as PortToken<ClientAccess>,
  Routes: Symbol.for('debtkit.http.Routes') as PortToken<ReadonlyArray<RouteDef>>,
  App: Symbol.for('debtkit.http.App') as PortToken<Koa<AppState>>,
} as const;

/** A startup failure with a message meant for the operator (printed as one line, exit 1). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

export const systemClock: Clock = { now: () => new Date() };

/** Typed lookup: a `PortToken<T>` resolves to a `T`. */
export const resolve = <T>(container: Container, token: PortToken<T>): T => container.get<T>(token);

/** The storage ports bound in `container`, as one record (for seeding, and for tests that look into the store). */
export const storePortsOf = (container: Container, close: () => Promise<void>): StorePorts => ({
  clients: resolve(container, PORTS.ClientRepository),
  tokens: resolve(container, PORTS.TokenRepository),
  users: resolve(container, PORTS.UserRepository),
  accounts: resolve(container, PORTS.AccountRepository),
  creditScores: resolve(container, PORTS.CreditScoreRepository),
  bureauFlows: resolve(container, PORTS.BureauFlowRepository),
  paymentPlans: resolve(container, PORTS.PaymentPlanRepository),
  planPayments: resolve(container, PORTS.PlanPaymentRepository),
  content: resolve(container, PORTS.ContentRepository),
  health: resolve(container, PORTS.StoreHealth),
  close,
});

/** A store opened elsewhere (a test's store with injected faults, one on the wire-protocol test server), port by port. */
export const storePortsModule = (store: StorePorts): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(PORTS.ClientRepository).toConstantValue(store.clients);
    bind(PORTS.TokenRepository).toConstantValue(store.tokens);
    bind(PORTS.UserRepository).toConstantValue(store.users);
    bind(PORTS.AccountRepository).toConstantValue(store.accounts);
    bind(PORTS.CreditScoreRepository).toConstantValue(store.creditScores);
    bind(PORTS.BureauFlowRepository).toConstantValue(store.bureauFlows);
    bind(PORTS.PaymentPlanRepository).toConstantValue(store.paymentPlans);
    bind(PORTS.PlanPaymentRepository).toConstantValue(store.planPayments);
    bind(PORTS.ContentRepository).toConstantValue(store.content);
    bind(PORTS.StoreHealth).toConstantValue(store.health);
  });

export interface HttpModuleInput {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Routes added after the API's (tests of the middleware register probes of their own). */
  readonly extraRoutes?: ReadonlyArray<RouteDef>;
}

/** The HTTP adapter: the clock, the token cryptography, core's use cases on their ports, the routes and the Koa app. */
export const httpModule = (input: HttpModuleInput): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(HTTP.Config).toConstantValue(input.config);
    bind(HTTP.Logger).toConstantValue(input.logger);
    bind(PORTS.Clock).toConstantValue(input.clock);
    bind(PORTS.TokenHasher).to(Sha256TokenHasher).inSingletonScope();
    bind(PORTS.SecretGenerator).to(RandomSecretGenerator).inSingletonScope();
    bind(HTTP.Application).toResolvedValue(
      (
        clients: ApplicationDeps['clients'],
        tokens: ApplicationDeps['tokens'],
        users: ApplicationDeps['users'],
        accounts: ApplicationDeps['accounts'],
        creditScores: ApplicationDeps['creditScores'],
        bureauFlows: ApplicationDeps['bureauFlows'],
        paymentPlans: ApplicationDeps['paymentPlans'],
        planPayments: ApplicationDeps['planPayments'],
        content: ApplicationDeps['content'],
        clock: Clock,
        bureau: CreditBureau,
      ) => createApplication({ clients, tokens, users, accounts, creditScores, bureauFlows, paymentPlans, planPayments, content, clock, bureau }),
      [
        PORTS.ClientRepository,
        PORTS.TokenRepository,
        PORTS.UserRepository,
        PORTS.AccountRepository,
        PORTS.CreditScoreRepository,
        PORTS.BureauFlowRepository,
        PORTS.PaymentPlanRepository,
        PORTS.PlanPaymentRepository,
        PORTS.ContentRepository,
        PORTS.Clock,
        PORTS.CreditBureau,
      ],
    );
    bind(HTTP.ClientAccess).toResolvedValue(
      (
        clients: ClientAccessDeps['clients'],
        tokens: ClientAccessDeps['tokens'],
        clock: Clock,
        tokenHasher: ClientAccessDeps['tokenHasher'],
        secrets: ClientAccessDeps['secrets'],
      ) => createClientAccess({ clients, tokens, clock, tokenHasher, secrets }),
      [PORTS.ClientRepository, PORTS.TokenRepository, PORTS.Clock, PORTS.TokenHasher, PORTS.SecretGenerator],
    );
    bind(HTTP.Routes).toResolvedValue((application: Application) => [...createApiRoutes(application), ...(input.extraRoutes ?? [])], [HTTP.Application]);
    bind(HTTP.App).toResolvedValue(
      (config: Config, logger: Logger, health: StoreHealth, clientAccess: ClientAccess, routes: ReadonlyArray<RouteDef>) =>
        createApp({ health, clientAccess, logger, routes, config: { environment: config.environment, adminToken: config.adminToken } }),
      [HTTP.Config, HTTP.Logger, PORTS.StoreHealth, HTTP.ClientAccess, HTTP.Routes],
    );
  });

export interface ContainerInput {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  /** A store already open; default: the one `config.store` names. */
  readonly store?: StorePorts;
  readonly extraRoutes?: ReadonlyArray<RouteDef>;
  /** The embedding service's own modules, loaded last: a `rebind` there wins. */
  readonly modules?: ReadonlyArray<ContainerModule>;
}

export interface DebtkitContainer {
  readonly container: Container;
  /** Closes the store when the container opened it. */
  close(): Promise<void>;
}

/** Load debtkit's modules (the store the configuration names, the sandbox bureau where allowed, HTTP), then the caller's. */
export const createContainer = async (input: ContainerInput): Promise<DebtkitContainer> => {
  const { config } = input;
  const container = new Container({ defaultScope: 'Singleton' });
  let close = (): Promise<void> => Promise.resolve();
  if (input.store !== undefined) container.load(storePortsModule(input.store));
  else if (config.store === 'memory') container.load(memoryStoreModule());
  else {
    // Config guarantees the URL with the mongo store. A bad URL or refused
    // credentials fail here; an unreachable server does not (requests answer
    // 503 until it is back).
    const ctx = await openMongoContext(config.mongodbUrl ?? '').catch((err: unknown) => {
      throw new StartupError(`MONGODB_URL: cannot open the mongo store (${err instanceof Error ? err.message : String(err)})`);
    });
    container.load(mongoStoreModule(ctx));
    close = ctx.close;
  }
  // Simulated data never serves production unless the operator asked for it (DEBTKIT_BUREAU=sandbox).
  if (config.environment === 'sandbox' || config.bureau === 'sandbox') container.load(sandboxBureauModule());
  container.load(httpModule({ config, logger: input.logger, clock: input.clock, ...(input.extraRoutes === undefined ? {} : { extraRoutes: input.extraRoutes }) }));
  if (input.modules !== undefined) container.load(...input.modules);
  return { container, close };
};
