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
import type { Logger } from '../logger.js';
import {
  AnswerRenderer,
  Application,
  ApplicationDeps,
  ClientAccess,
  ClientAccessDeps,
  Clock,
  Computations,
  SandboxComputations,
  CreditBureau,
  IdempotencyStore,
  StoreHealth,
  PORTS,
  STORE_PORTS,
  STORE_PORT_KEYS,
  type PortToken,
  type StorePortKey,
  type StorePorts,
  type TransactionPorts,
  buildStorePorts,
  portToken,
  storePortTokens,
  createApplication,
  createClientAccess,
  versioning,
  withClaimTimeout,
} from '@debtkit/core';
import { memoryStoreModule, sandboxBureauModule } from '@debtkit/adapter-memory';
import type { AppConfig, AppState, RouteDef } from '../http/app-context.js';
import { answerRenderer } from '../http/answer-renderer.js';
import type { AnswerForm } from '../http/pipeline/keyed-answer.js';
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
import { loadMongoAdapter, type MongoAdapterModule } from './optional-peers.js';
import { StartupError } from './startup-error.js';
import { traceStorePorts } from './traced-store-ports.js';
import { processComputePool } from '../compute/compute-pool.js';
import { DEFAULT_RENDER_CACHE_MB, MIB, createRenderCache, type RenderCache } from '../http/render-cache.js';
import { keptAccountViews } from '../http/account-views.js';
import {
  DEFAULT_CLIENT_CONCURRENCY,
  DEFAULT_QUEUE_WAIT_MS,
  createAdmissionQueue,
  defaultMaxInProgress,
  type AdmissionQueue,
} from '../http/admission-queue.js';

export { StartupError };

/** Tokens of what the HTTP adapter adds to core's ports. */
export const HTTP = {
  Config: portToken<Config>('http.Config'),
  Logger: portToken<Logger>('http.Logger'),
  Application: portToken<Application>('http.Application'),
  /** Core's client access; with the token cache's `knownClient` when it has one (bound here, it does). */
  ClientAccess: portToken<ClientAccessMaybeCached>('http.ClientAccess'),
  Routes: portToken<ReadonlyArray<RouteDef>>('http.Routes'),
  App: portToken<Koa<AppState>>('http.App'),
  /**
   * Core's `AnswerRenderer` port, the HTTP adapter's (answer-renderer.ts): what the answer of a request
   * under an Idempotency-Key is sent and kept as. One, bound here; the app hands it to core's `runKeyed` once.
   */
  AnswerRenderer: portToken<AnswerRenderer<AnswerForm>>('http.AnswerRenderer'),
  RateLimits: portToken<RateLimits>('http.RateLimits'),
  /** The metrics registry `GET /metrics` serves; other parts inject it to count what they own. */
  Metrics: portToken<Metrics>('http.Metrics'),
  WebhookUrlGuard: portToken<WebhookUrlGuard>('http.WebhookUrlGuard'),
  DeliveryWorker: portToken<DeliveryWorker>('http.DeliveryWorker'),
  /** Where the use cases compute schedules, comparisons and outlooks: the process's worker pool (docs/decisions/tenancy.md); rebind to `inThreadComputations` to keep them on the event loop. */
  Computations: portToken<Computations>('http.Computations'),
  /** Where a sandbox advance computes its months: the same pool; rebind to `inThreadSandboxComputations` to keep them on the event loop. */
  SandboxComputations: portToken<SandboxComputations>('http.SandboxComputations'),
  /** The fair share of the process (docs/decisions/tenancy.md): admission of `/api` requests, per client and process-wide. */
  Admission: portToken<AdmissionQueue>('http.Admission'),
  /** Rendered answers of resources that cannot change (render-cache.ts, docs/decisions/tenancy.md), bounded by DEBTKIT_RENDER_CACHE_MB. */
  RenderCache: portToken<RenderCache>('http.RenderCache'),
} as const;

export const systemClock: Clock = { now: () => new Date() };

/** Typed lookup: a `PortToken<T>` resolves to a `T`. */
export const resolve = <T>(container: Container, token: PortToken<T>): T => container.get<T>(token);

/** The store ports bound where `get` looks (a container, a resolution context), by the port table. */
const storePortsFrom = (get: <T>(token: PortToken<T>) => T): TransactionPorts => buildStorePorts((key) => get(storePortTokens[key]));

/** The storage ports bound in `container`, as one record (for seeding, and for tests that look into the store). */
export const storePortsOf = (container: Container, close: () => Promise<void>): StorePorts => ({
  ...storePortsFrom((token) => container.get(token)),
  health: container.get(PORTS.StoreHealth),
  unitOfWork: container.get(PORTS.UnitOfWork),
  close,
});

/** A store opened elsewhere (a test's store with injected faults, one on the wire-protocol test server), port by port. */
export const storePortsModule = (store: StorePorts): ContainerModule =>
  new ContainerModule(({ bind }) => {
    const bindPort = <K extends StorePortKey>(key: K): void => void bind(storePortTokens[key]).toConstantValue(store[key]);
    for (const key of STORE_PORT_KEYS) bindPort(key);
    bind(PORTS.StoreHealth).toConstantValue(store.health);
    bind(PORTS.UnitOfWork).toConstantValue(store.unitOfWork);
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
    ...(config.trustedProxies === undefined ? {} : { trustedProxies: config.trustedProxies }),
    ...(config.docs === true ? { docs: true } : {}),
    ...(config.refusalHoldMs === undefined ? {} : { refusalHoldMs: config.refusalHoldMs }),
  };
};

/** What tests (and operators' embeddings) may change about webhook delivery. */
export interface WebhookRuntimeOptions {
  /** Name resolution for the SSRF guard (tests make a name resolve to 127.0.0.1). */
  readonly resolveHost?: ResolveHost;
  /** Time limit of one attempt; default 10 s (docs/decisions/webhooks.md). */
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
  /** `@debtkit/adapter-mongo`, loaded when the store is mongo: the rate-limit counters live in its database. */
  readonly mongo?: MongoAdapterModule;
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
      new WebhookUrlGuard({
        environment: input.config.environment,
        ...(webhooks.resolveHost === undefined ? {} : { resolveHost: webhooks.resolveHost }),
      }),
    );
    bind(HTTP.DeliveryWorker).toResolvedValue(
      (events, webhookEndpoints, webhookDeliveries, erasures, clock, guard, config, logger, metrics, unitOfWork) => {
        const timeoutMs = webhooks.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
        const send = createHttpWebhookSender({ guard, environment: config.environment, timeoutMs });
        const onOutcome = (outcome: string): void => void metrics.webhookDeliveries.inc({ outcome });
        return new DeliveryWorker(
          { events, webhookEndpoints, webhookDeliveries, erasures, clock, send, logger, onOutcome, unitOfWork },
          {
            timeoutMs,
            ...(config.webhookRetrySeconds === undefined ? {} : { retrySeconds: config.webhookRetrySeconds }),
            ...(webhooks.pollMs === undefined ? {} : { pollMs: webhooks.pollMs }),
          },
        );
      },
      [
        STORE_PORTS.events,
        STORE_PORTS.webhookEndpoints,
        STORE_PORTS.webhookDeliveries,
        STORE_PORTS.erasures,
        PORTS.Clock,
        HTTP.WebhookUrlGuard,
        HTTP.Config,
        HTTP.Logger,
        HTTP.Metrics,
        PORTS.UnitOfWork,
      ],
    );
    // Every store port by the port table, then what else the use cases need.
    bind(HTTP.Application).toDynamicValue((context) =>
      createApplication({
        ...storePortsFrom((token) => context.get(token)),
        unitOfWork: context.get(PORTS.UnitOfWork),
        clock: context.get(PORTS.Clock),
        bureau: context.get(PORTS.CreditBureau),
        webhookUrls: context.get(HTTP.WebhookUrlGuard),
        secrets: context.get(PORTS.SecretGenerator),
        ...(input.config.quotas === undefined ? {} : { quotas: input.config.quotas }),
        computations: context.get(HTTP.Computations),
        sandboxComputations: context.get(HTTP.SandboxComputations),
        sandboxClock: input.config.environment === 'sandbox',
        accountViews: keptAccountViews(),
        // A long use case (a sandbox advance) lets the event loop read and answer other requests between its steps.
        yieldToOthers: () => new Promise<void>((resolve) => setImmediate(resolve)),
      }),
    );
    bind(HTTP.Computations).toConstantValue(processComputePool());
    bind(HTTP.SandboxComputations).toConstantValue(processComputePool());
    bind(HTTP.ClientAccess).toResolvedValue(
      (clients, tokens, audit, clock, tokenHasher, secrets, unitOfWork) =>
        withTokenCache(createClientAccess({ clients, tokens, audit, clock, tokenHasher, secrets, unitOfWork, versioning }), { clock }),
      [STORE_PORTS.clients, STORE_PORTS.tokens, STORE_PORTS.audit, PORTS.Clock, PORTS.TokenHasher, PORTS.SecretGenerator, PORTS.UnitOfWork],
    );
    bind(HTTP.Routes).toResolvedValue((application) => [...createApiRoutes(application), ...(input.extraRoutes ?? [])], [HTTP.Application]);
    bind(HTTP.Metrics).toResolvedValue(() => createMetrics({ processMetrics: true }));
    bind(HTTP.RateLimits).toResolvedValue((config) => openRateLimits(config, input.mongo), [HTTP.Config]);
    bind(HTTP.Admission).toResolvedValue(
      (config) =>
        createAdmissionQueue({
          maxInProgress: config.maxInProgress ?? defaultMaxInProgress(),
          clientConcurrency: config.clientConcurrency ?? DEFAULT_CLIENT_CONCURRENCY,
          queueWaitMs: config.queueWaitMs ?? DEFAULT_QUEUE_WAIT_MS,
        }),
      [HTTP.Config],
    );
    bind(HTTP.RenderCache).toResolvedValue(
      (config) => createRenderCache({ maxBytes: config.renderCacheBytes ?? DEFAULT_RENDER_CACHE_MB * MIB }),
      [HTTP.Config],
    );
    bind(HTTP.AnswerRenderer).toResolvedValue((renderCache) => answerRenderer({ renderCache }), [HTTP.RenderCache]);
    bind(HTTP.App).toResolvedValue(
      (config, logger, health, clientAccess, idempotency, clock, routes, rateLimits, metrics, erasures, admission, renderCache, renderer) =>
        createApp({
          health,
          clientAccess,
          ...(clientAccess.knownClient === undefined ? {} : { knownClient: clientAccess.knownClient }),
          // The deployment's claim timeout decides when a dead request's key is free again.
          idempotency: withClaimTimeout(idempotency, config.idempotencyClaimTimeoutSeconds * 1000),
          erasures,
          answerRenderer: renderer,
          clock,
          logger,
          routes,
          rateLimits,
          metrics,
          admission,
          renderCache,
          config: appConfigOf(config),
        }),
      [
        HTTP.Config,
        HTTP.Logger,
        PORTS.StoreHealth,
        HTTP.ClientAccess,
        STORE_PORTS.idempotency,
        PORTS.Clock,
        HTTP.Routes,
        HTTP.RateLimits,
        HTTP.Metrics,
        STORE_PORTS.erasures,
        HTTP.Admission,
        HTTP.RenderCache,
        HTTP.AnswerRenderer,
      ],
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
  // A child span per store port call, whichever store is bound (off unless a tracer provider is registered).
  traceStorePorts(container);
  let close = (): Promise<void> => Promise.resolve();
  // An optional peer (docs/embedding.md): loaded only for the mongo store, with one line naming it when it is not installed.
  const mongo = config.store === 'mongo' ? await loadMongoAdapter() : undefined;
  if (input.store !== undefined) container.load(storePortsModule(input.store));
  else if (mongo === undefined) container.load(memoryStoreModule({ deadlineMs: config.writeConflictDeadlineMs }));
  else {
    const { openMongoContext, mongoStoreModule } = mongo;
    // Config guarantees the URL with the mongo store. A bad URL or refused
    // credentials fail here; an unreachable server does not (requests answer
    // 503 until it is back).
    const ctx = await openMongoContext(config.mongodbUrl ?? '', {
      onStandalone: (reason) => input.logger.error(reason),
      writeConflictDeadlineMs: config.writeConflictDeadlineMs,
    }).catch((err: unknown) => {
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
      ...(mongo === undefined ? {} : { mongo }),
    }),
  );
  if (input.modules !== undefined) container.load(...input.modules);
  return { container, close };
};
