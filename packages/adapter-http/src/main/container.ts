/**
 * The composition root: the only place that picks adapters and touches the
 * container. Port tokens come from core (`PORTS`); the store adapter is chosen
 * from the configuration; everything else receives its dependencies.
 */
import { Container } from 'inversify';
import type Koa from 'koa';
import type { Logger } from 'pino';
import {
  Application,
  Clock,
  CreditBureau,
  PORTS,
  PortToken,
  StorePorts,
  createApplication,
} from '@debtkit/core';
import { connectMongoStore } from '@debtkit/adapter-mongo';
import { SandboxCreditBureau, createMemoryStore } from '@debtkit/adapter-memory';
import type { AppConfig, AppState, RouteDef } from '../http/app-context.js';
import { createApp } from '../http/app.js';
import { createApiRoutes } from '../http/routes/index.js';
import type { Config } from './config.js';
import type { RateLimits } from '../http/rate-limits.js';
import { openRateLimits } from './rate-limit-backend.js';
import { createMetrics, type Metrics } from '../http/metrics.js';
import { DeliveryWorker, DEFAULT_WEBHOOK_TIMEOUT_MS } from '../webhooks/delivery-worker.js';
import { WebhookUrlGuard, type ResolveHost } from '../webhooks/webhook-url-guard.js';
import { createHttpWebhookSender } from '../webhooks/webhook-sender.js';
import { nodeSecretSource } from '../webhooks/webhook-secrets.js';

/** Tokens of what the HTTP adapter adds to core's ports. */
export const HTTP = {
  Config: Symbol.for('debtkit.http.Config') as PortToken<Config>,
  Logger: Symbol.for('debtkit.http.Logger') as PortToken<Logger>,
  Store: Symbol.for('debtkit.http.Store') as PortToken<StorePorts>,
  Application: Symbol.for('debtkit.http.Application') as PortToken<Application>,
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

/** Open the store the configuration names. */
export const openStore = async (config: Config): Promise<StorePorts> => {
  switch (config.store) {
    case 'memory':
      return createMemoryStore();
    case 'mongo':
      // Config guarantees the URL with the mongo store. A bad URL or refused
      // credentials fail here; an unreachable server does not (requests answer
      // 503 until it is back).
      try {
        return await connectMongoStore(config.mongodbUrl ?? '');
      } catch (err) {
        throw new StartupError(`MONGODB_URL: cannot open the mongo store (${err instanceof Error ? err.message : String(err)})`);
      }
  }
};

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

export const systemClock: Clock = { now: () => new Date() };

export interface ContainerInput {
  readonly config: Config;
  readonly store: StorePorts;
  readonly logger: Logger;
  readonly clock?: Clock;
  readonly webhooks?: WebhookRuntimeOptions;
}

/** What tests (and operators' embeddings) may change about webhook delivery. */
export interface WebhookRuntimeOptions {
  /** Name resolution for the SSRF guard (tests make a name resolve to 127.0.0.1). */
  readonly resolveHost?: ResolveHost;
  /** Time limit of one attempt; default 10 s (DESIGN 7.11). */
  readonly timeoutMs?: number;
  /** How often an idle worker looks for due deliveries; default 1 s. */
  readonly pollMs?: number;
}

/** Typed lookup: a `PortToken<T>` resolves to a `T`. */
export const resolve = <T>(container: Container, token: PortToken<T>): T => container.get<T>(token);

export const createContainer = (input: ContainerInput): Container => {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(HTTP.Config).toConstantValue(input.config);
  container.bind(HTTP.Logger).toConstantValue(input.logger);
  container.bind(HTTP.Store).toConstantValue(input.store);
  container.bind(PORTS.Clock).toConstantValue(input.clock ?? systemClock);

  // Each storage port is the store's; an embedding service may rebind one.
  container.bind(PORTS.ClientRepository).toResolvedValue((s: StorePorts) => s.clients, [HTTP.Store]);
  container.bind(PORTS.TokenRepository).toResolvedValue((s: StorePorts) => s.tokens, [HTTP.Store]);
  container.bind(PORTS.UserRepository).toResolvedValue((s: StorePorts) => s.users, [HTTP.Store]);
  container.bind(PORTS.AccountRepository).toResolvedValue((s: StorePorts) => s.accounts, [HTTP.Store]);
  container.bind(PORTS.CreditScoreRepository).toResolvedValue((s: StorePorts) => s.creditScores, [HTTP.Store]);
  container.bind(PORTS.BureauFlowRepository).toResolvedValue((s: StorePorts) => s.bureauFlows, [HTTP.Store]);
  container.bind(PORTS.PaymentPlanRepository).toResolvedValue((s: StorePorts) => s.paymentPlans, [HTTP.Store]);
  container.bind(PORTS.PlanPaymentRepository).toResolvedValue((s: StorePorts) => s.planPayments, [HTTP.Store]);
  container.bind(PORTS.ContentRepository).toResolvedValue((s: StorePorts) => s.content, [HTTP.Store]);
  container.bind(PORTS.StoreHealth).toResolvedValue((s: StorePorts) => s.health, [HTTP.Store]);
  container.bind(PORTS.EventOutbox).toResolvedValue((s: StorePorts) => s.events, [HTTP.Store]);
  container.bind(PORTS.WebhookEndpointRepository).toResolvedValue((s: StorePorts) => s.webhookEndpoints, [HTTP.Store]);
  container.bind(PORTS.WebhookDeliveryRepository).toResolvedValue((s: StorePorts) => s.webhookDeliveries, [HTTP.Store]);
  const webhooks = input.webhooks ?? {};
  container
    .bind(HTTP.WebhookUrlGuard)
    .toConstantValue(new WebhookUrlGuard({ environment: input.config.environment, ...(webhooks.resolveHost === undefined ? {} : { resolveHost: webhooks.resolveHost }) }));
  container.bind(HTTP.DeliveryWorker).toResolvedValue(
    (store: StorePorts, clock: Clock, guard: WebhookUrlGuard, config: Config, logger: Logger) => {
      const timeoutMs = webhooks.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
      const send = createHttpWebhookSender({ guard, environment: config.environment, timeoutMs });
      return new DeliveryWorker(
        { events: store.events, webhookEndpoints: store.webhookEndpoints, webhookDeliveries: store.webhookDeliveries, clock, send, logger },
        {
          timeoutMs,
          ...(config.webhookRetrySeconds === undefined ? {} : { retrySeconds: config.webhookRetrySeconds }),
          ...(webhooks.pollMs === undefined ? {} : { pollMs: webhooks.pollMs }),
        },
      );
    },
    [HTTP.Store, PORTS.Clock, HTTP.WebhookUrlGuard, HTTP.Config, HTTP.Logger],
  );
  // The sandbox bureau is the only bureau adapter there is; it serves production too until a real one exists.
  container.bind(PORTS.CreditBureau).toConstantValue(new SandboxCreditBureau());

  container
    .bind(HTTP.Application)
    .toResolvedValue(
      (store: StorePorts, clock: Clock, bureau: CreditBureau, webhookUrls: WebhookUrlGuard) =>
        createApplication({ ...store, clock, bureau, webhookUrls, secrets: nodeSecretSource }),
      [HTTP.Store, PORTS.Clock, PORTS.CreditBureau, HTTP.WebhookUrlGuard],
    );
  container.bind(HTTP.Metrics).toResolvedValue(() => createMetrics({ processMetrics: true }));
  container.bind(HTTP.RateLimits).toResolvedValue((config: Config) => openRateLimits(config), [HTTP.Config]);
  container.bind(HTTP.Routes).toResolvedValue((application: Application) => createApiRoutes(application), [HTTP.Application]);
  container
    .bind(HTTP.App)
    .toResolvedValue(
      (config: Config, logger: Logger, store: StorePorts, clock: Clock, routes: ReadonlyArray<RouteDef>, application: Application, rateLimits: RateLimits, metrics: Metrics) =>
        createApp({ store, clock, logger, routes, application, rateLimits, metrics, config: appConfigOf(config) }),
      [HTTP.Config, HTTP.Logger, HTTP.Store, PORTS.Clock, HTTP.Routes, HTTP.Application, HTTP.RateLimits, HTTP.Metrics],
    );
  return container;
};
