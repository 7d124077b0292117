/**
 * Prometheus metrics (docs/operations.md) with prom-client, in a registry of their own
 * (not prom-client's global one), so two apps in one process never share or
 * clash. Other parts increment what they own, through a callback the composition
 * wires: `idempotentReplays` (the Idempotency-Key middleware's `onReplay`),
 * `webhookDeliveries` (the delivery worker's `onOutcome`).
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { createRequestMetrics, createUnlabelledHistogram } from './request-metrics.js';

export interface Metrics {
  readonly registry: Registry;
  /**
   * Counts an answered request and observes its duration in seconds, by method,
   * route pattern (`unmatched` when no route matched) and status:
   * `debtkit_http_requests_total` and `debtkit_http_request_duration_seconds`
   * (request-metrics.ts: once per request, so not through prom-client's `inc`/`observe`).
   */
  readonly recordRequest: (method: string, route: string, status: number, seconds: number) => void;
  /** 429s by limit: `client` (the per-client budget), `auth_failure` (failed authentications per address) or `queue` (a request that waited `DEBTKIT_QUEUE_WAIT_MS` for its slot, docs/decisions/tenancy.md). */
  readonly rateLimited: Counter<'limit'>;
  /**
   * Seconds each admitted `/api` request waited in its client's queue for a
   * slot (0 when it had one at once): `debtkit_admission_wait_seconds`, no
   * labels (no client id: one series, however many clients). docs/decisions/tenancy.md.
   * Once per request, so not through prom-client's `observe` (request-metrics.ts).
   */
  readonly observeAdmissionWait: (seconds: number) => void;
  /**
   * Expose the admission queue's state at each scrape: requests in progress
   * (`debtkit_requests_in_progress`) and waiting (`debtkit_requests_queued`).
   * Called once by the app that owns the queue.
   */
  readonly watchAdmission: (state: { inProgress(): number; waiting(): number }) => void;
  /** Failures of the store seen by requests, by kind (`unavailable`, …). */
  readonly storeErrors: Counter<'kind'>;
  /** Responses replayed for a repeated `Idempotency-Key` (docs/decisions/idempotency.md). */
  readonly idempotentReplays: Counter;
  /** Webhook delivery attempts by outcome (`delivered`, `retrying`, `failed`, `dropped`: see `WebhookOutcome`). */
  readonly webhookDeliveries: Counter<'outcome'>;
}

export interface MetricsOptions {
  /** Node process metrics (CPU, memory, event loop, handles): on for a server, off by default for apps made in tests. */
  readonly processMetrics?: boolean;
}

/**
 * The methods the API serves (OPTIONS and HEAD included: every path answers
 * them); any other method a client sends is counted as `_OTHER`, so PROPFIND,
 * MKCOL and the like add no series (the OpenTelemetry semantic conventions' rule).
 */
export const SERVED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS']);
export const OTHER_METHOD = '_OTHER';
export const methodLabel = (method: string): string => (SERVED_METHODS.has(method) ? method : OTHER_METHOD);

/** Every label value each labelled counter can take: their series exist at 0 from the start (a rate of a missing series is no rate). */
export const KNOWN_LABELS = {
  rateLimited: ['client', 'auth_failure', 'queue'],
  storeErrors: ['unavailable'],
  webhookDeliveries: ['delivered', 'retrying', 'failed', 'dropped'],
} as const;

/** Seconds; most answers take a millisecond or two, a store round trip tens. */
export const DURATION_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Seconds in the admission queue: most requests wait 0, a queued one a few milliseconds to `DEBTKIT_QUEUE_WAIT_MS` (10 s). */
export const ADMISSION_WAIT_BUCKETS: readonly number[] = [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const createMetrics = (options: MetricsOptions = {}): Metrics => {
  const registry = new Registry();
  if (options.processMetrics === true) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const record = createRequestMetrics({ registry, buckets: DURATION_BUCKETS }).record;
  const metrics: Metrics = {
    registry,
    recordRequest: (method, route, status, seconds) => record(methodLabel(method), route, status, seconds),
    rateLimited: new Counter({
      name: 'debtkit_rate_limited_total',
      help: 'Requests refused with 429, by limit (client, auth_failure)',
      labelNames: ['limit'] as const,
      registers,
    }),
    storeErrors: new Counter({
      name: 'debtkit_store_errors_total',
      help: 'Store failures seen by requests, by kind',
      labelNames: ['kind'] as const,
      registers,
    }),
    idempotentReplays: new Counter({
      name: 'debtkit_idempotent_replays_total',
      help: 'Responses replayed for a repeated Idempotency-Key',
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'debtkit_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome',
      labelNames: ['outcome'] as const,
      registers,
    }),
    observeAdmissionWait: createUnlabelledHistogram({
      registry,
      name: 'debtkit_admission_wait_seconds',
      help: "Seconds each admitted /api request waited in its client's queue for a slot (0: admitted at once)",
      buckets: ADMISSION_WAIT_BUCKETS,
    }),
    watchAdmission: (state) => {
      if (registry.getSingleMetric('debtkit_requests_in_progress') !== undefined) return;
      new Gauge({
        name: 'debtkit_requests_in_progress',
        help: '/api requests holding a slot of the admission queue (until their response is written)',
        registers,
        collect() {
          this.set(state.inProgress());
        },
      });
      new Gauge({
        name: 'debtkit_requests_queued',
        help: '/api requests waiting in their client queue for a slot',
        registers,
        collect() {
          this.set(state.waiting());
        },
      });
    },
  };
  for (const limit of KNOWN_LABELS.rateLimited) metrics.rateLimited.inc({ limit }, 0);
  for (const kind of KNOWN_LABELS.storeErrors) metrics.storeErrors.inc({ kind }, 0);
  for (const outcome of KNOWN_LABELS.webhookDeliveries) metrics.webhookDeliveries.inc({ outcome }, 0);
  return metrics;
};
