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
  IdempotencyStore,
  StoreHealth,
  PORTS,
  PortToken,
  StorePorts,
  createApplication,
  createClientAccess,
} from '@debtkit/core';
import { memoryStoreModule, sandboxBureauModule } from '@debtkit/adapter-memory';
import { mongoStoreModule, openMongoContext } from '@debtkit/adapter-mongo';
import type { AppConfig, AppState, RouteDef } from '../http/app-context.js';
import { createApp } from '../http/app.js';
import { createApiRoutes } from '../http/routes/index.js';
import { RandomSecretGenerator, Sha256TokenHasher } from '../http/token-issuer.js';
import type { Config } from './config.js';
import type { RateLimits } from '../http/rate-limits.js';
import { openRateLimits } from './rate-limit-backend.js';
import { createMetrics, type Metrics } from '../http/metrics.js';
import { DeliveryWorker, DEFAULT_WEBHOOK_TIMEOUT_MS } from '../webhooks/delivery-worker.js';
import { WebhookUrlGuard, type ResolveHost } from '../webhooks/webhook-url-guard.js';
import { createHttpWebhookSender } from '../webhooks/webhook-sender.js';
import { type ClientAccessMaybeCached, withTokenCache } from './token-cache.js';

/** Tokens of what the HTTP adapter adds to core's ports. */
export const HTTP = {
  Config: Symbol.for('debtkit.http.Config') as PortToken<Config>,
  Logger: Symbol.for('debtkit.http.Logger') as PortToken<Logger>,
  Application: Symbol.for('debtkit.http.Application') as PortToken<Application>,
  /** Core's client access; with the token cache's `knownClient` when it has one (bound here, it does). */
  ClientAccess: Symbol.for('debtkit.http.ClientAccess') as PortToken<ClientAccessMaybeCached>,
  Routes: Symbol.for('debtkit.http.Routes') as PortToken<ReadonlyArray<RouteDef>>,
  App: Symbol.for('debtkit.http.App') as PortToken<Koa<AppState>>,
  RateLimits: Symbol.for('debtkit.http.RateLimits') as PortToken<RateLimits>,
  /** The metrics registry `GET /metrics` serves; other parts inject it to count what they own. */
  Metrics: Symbol.for('debtkit.http.Metrics') as PortToken<Metrics>,
  WebhookUrlGuard: Symbol.for('debtkit.http.WebhookUrlGuard') as PortToken<WebhookUrlGuard>,
  DeliveryWorker: Symbol.for('debtkit.http.DeliveryWorker') as PortToken<DeliveryWorker>,
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
  idempotency: resolve(container, PORTS.IdempotencyStore),
  events: resolve(container, PORTS.EventOutbox),
  webhookEndpoints: resolve(container, PORTS.WebhookEndpointRepository),
  webhookDeliveries: resolve(container, PORTS.WebhookDeliveryRepository),
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
    bind(PORTS.IdempotencyStore).toConstantValue(store.idempotency);
    bind(PORTS.EventOutbox).toConstantValue(store.events);
    bind(PORTS.WebhookEndpointRepository).toConstantValue(store.webhookEndpoints);
    bind(PORTS.WebhookDeliveryRepository).toConstantValue(store.webhookDeliveries);
  });

/**
 * What the app needs of the configuration. The public address defaults to the
 * listen address, unless the port is chosen at listen time (PORT=0).
 */
const appConfigOf = (config: Config): AppConfig => {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const publicUrl = config.publicUrl ?? (config.port === 0 ? undefined : `http://${host}:${config.port}`);
  return {
    environment: config.environment,
    ...(config.adminToken === undefined ? {} : { adminToken: config.adminToken }),
    ...(publicUrl === undefined ? {} : { publicUrl }),
  };
};

/** What tests (and operators' embeddings) may change about webhook delivery. */
export interface WebhookRuntimeOptions {
  /** Name resolution for the SSRF guard (tests make a name resolve to 127.0.0.1). */
  readonly resolveHost?: ResolveHost;
  /** Time limit of one attempt; default 10 s (DESIGN 7.11). */
  readonly timeoutMs?: number;
  /** How often an idle worker looks for due deliveries; default 1 s. */
  readonly pollMs?: number;
}

export interface HttpModuleInput {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Routes added after the API's (tests of the middleware register probes of their own). */
  readonly extraRoutes?: ReadonlyArray<RouteDef>;
  readonly webhooks?: WebhookRuntimeOptions;
}

/** The HTTP adapter: the clock, the token cryptography, core's use cases on their ports, the routes and the Koa app. */
export const httpModule = (input: HttpModuleInput): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(HTTP.Config).toConstantValue(input.config);
    bind(HTTP.Logger).toConstantValue(input.logger);
    bind(PORTS.Clock).toConstantValue(input.clock);
    bind(PORTS.TokenHasher).to(Sha256TokenHasher).inSingletonScope();
    bind(PORTS.SecretGenerator).to(RandomSecretGenerator).inSingletonScope();
    const webhooks = input.webhooks ?? {};
    bind(HTTP.WebhookUrlGuard).toConstantValue(
      new WebhookUrlGuard({ environment: input.config.environment, ...(webhooks.resolveHost === undefined ? {} : { resolveHost: webhooks.resolveHost }) }),
    );
    bind(HTTP.DeliveryWorker).toResolvedValue(
      (
        events: ApplicationDeps['events'],
        webhookEndpoints: ApplicationDeps['webhookEndpoints'],
        webhookDeliveries: ApplicationDeps['webhookDeliveries'],
        clock: Clock,
        guard: WebhookUrlGuard,
        config: Config,
        logger: Logger,
        metrics: Metrics,
      ) => {
        const timeoutMs = webhooks.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
        const send = createHttpWebhookSender({ guard, environment: config.environment, timeoutMs });
        const onOutcome = (outcome: string): void => void metrics.webhookDeliveries.inc({ outcome });
        return new DeliveryWorker(
          { events, webhookEndpoints, webhookDeliveries, clock, send, logger, onOutcome },
          {
            timeoutMs,
            ...(config.webhookRetrySeconds === undefined ? {} : { retrySeconds: config.webhookRetrySeconds }),
            ...(webhooks.pollMs === undefined ? {} : { pollMs: webhooks.pollMs }),
          },
        );
      },
      [PORTS.EventOutbox, PORTS.WebhookEndpointRepository, PORTS.WebhookDeliveryRepository, PORTS.Clock, HTTP.WebhookUrlGuard, HTTP.Config, HTTP.Logger, HTTP.Metrics],
    );
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
        events: ApplicationDeps['events'],
        webhookEndpoints: ApplicationDeps['webhookEndpoints'],
        webhookDeliveries: ApplicationDeps['webhookDeliveries'],
        clock: Clock,
        bureau: CreditBureau,
        webhookUrls: WebhookUrlGuard,
        secrets: ApplicationDeps['secrets'],
      ) =>
        createApplication({
          clients, tokens, users, accounts, creditScores, bureauFlows, paymentPlans, planPayments, content,
          events, webhookEndpoints, webhookDeliveries, clock, bureau, webhookUrls, secrets,
        }),
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
        PORTS.EventOutbox,
        PORTS.WebhookEndpointRepository,
        PORTS.WebhookDeliveryRepository,
        PORTS.Clock,
        PORTS.CreditBureau,
        HTTP.WebhookUrlGuard,
        PORTS.SecretGenerator,
      ],
    );
    bind(HTTP.ClientAccess).toResolvedValue(
      (
        clients: ClientAccessDeps['clients'],
        tokens: ClientAccessDeps['tokens'],
        clock: Clock,
        tokenHasher: ClientAccessDeps['tokenHasher'],
        secrets: ClientAccessDeps['secrets'],
      ) => withTokenCache(createClientAccess({ clients, tokens, clock, tokenHasher, secrets }), {}),
      [PORTS.ClientRepository, PORTS.TokenRepository, PORTS.Clock, PORTS.TokenHasher, PORTS.SecretGenerator],
    );
    bind(HTTP.Routes).toResolvedValue((application: Application) => [...createApiRoutes(application), ...(input.extraRoutes ?? [])], [HTTP.Application]);
    bind(HTTP.Metrics).toResolvedValue(() => createMetrics({ processMetrics: true }));
    bind(HTTP.RateLimits).toResolvedValue((config: Config) => openRateLimits(config), [HTTP.Config]);
    bind(HTTP.App).toResolvedValue(
      (
        config: Config,
        logger: Logger,
        health: StoreHealth,
        clientAccess: ClientAccessMaybeCached,
        idempotency: IdempotencyStore,
        clock: Clock,
        routes: ReadonlyArray<RouteDef>,
        rateLimits: RateLimits,
        metrics: Metrics,
      ) =>
        createApp({
          health,
          clientAccess,
          ...(clientAccess.knownClient === undefined ? {} : { knownClient: clientAccess.knownClient }),
          idempotency,
          clock,
          logger,
          routes,
          rateLimits,
          metrics,
          config: appConfigOf(config),
        }),
      [HTTP.Config, HTTP.Logger, PORTS.StoreHealth, HTTP.ClientAccess, PORTS.IdempotencyStore, PORTS.Clock, HTTP.Routes, HTTP.RateLimits, HTTP.Metrics],
    );
  });

export interface ContainerInput {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  /** A store already open; default: the one `config.store` names. */
  readonly store?: StorePorts;
  readonly extraRoutes?: ReadonlyArray<RouteDef>;
  readonly webhooks?: WebhookRuntimeOptions;
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
    const ctx = await openMongoContext(config.mongodbUrl ?? '', { onStandalone: (reason) => input.logger.error(reason) }).catch((err: unknown) => {
      throw new StartupError(`MONGODB_URL: cannot open the mongo store (${err instanceof Error ? err.message : String(err)})`);
    });
    container.load(mongoStoreModule(ctx));
    close = ctx.close;
  }
  // Simulated data never serves production unless the operator asked for it (DEBTKIT_BUREAU=sandbox).
  if (config.environment === 'sandbox' || config.bureau === 'sandbox') container.load(sandboxBureauModule());
  container.load(
    httpModule({
      config,
      logger: input.logger,
      clock: input.clock,
      ...(input.extraRoutes === undefined ? {} : { extraRoutes: input.extraRoutes }),
      ...(input.webhooks === undefined ? {} : { webhooks: input.webhooks }),
    }),
  );
  if (input.modules !== undefined) container.load(...input.modules);
  return { container, close };
};
