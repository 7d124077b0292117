/**
 * Prometheus metrics (DESIGN 7.9) with prom-client, in a registry of their own
 * (not prom-client's global one), so two apps in one process never share or
 * clash. Other parts increment what they own, through a callback the composition
 * wires: `idempotentReplays` (the Idempotency-Key middleware's `onReplay`),
 * `webhookDeliveries` (the delivery worker's `onOutcome`).
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  /** Every answered request, by method, route pattern (`unmatched` when no route matched) and status. */
  readonly requests: Counter<'method' | 'route' | 'status'>;
  readonly requestDuration: Histogram<'method' | 'route' | 'status'>;
  /** 429s by limit: `client` (the per-client budget) or `auth_failure` (failed authentications per address). */
  readonly rateLimited: Counter<'limit'>;
  /** Failures of the store seen by requests, by kind (`unavailable`, …). */
  readonly storeErrors: Counter<'kind'>;
  /** Responses replayed for a repeated `Idempotency-Key` (DESIGN 4.2). */
  readonly idempotentReplays: Counter;
  /** Webhook delivery attempts by outcome (`delivered`, `retrying`, `failed`, `dropped`: see `WebhookOutcome`). */
  readonly webhookDeliveries: Counter<'outcome'>;
}

export interface MetricsOptions {
  /** Node process metrics (CPU, memory, event loop, handles): on for a server, off by default for apps made in tests. */
  readonly processMetrics?: boolean;
}

/** Seconds; most answers take a millisecond or two, a store round trip tens. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const createMetrics = (options: MetricsOptions = {}): Metrics => {
  const registry = new Registry();
  if (options.processMetrics === true) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: 'debtkit_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    requestDuration: new Histogram({
      name: 'debtkit_http_request_duration_seconds',
      help: 'Time from the request to its answer, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: DURATION_BUCKETS,
      registers,
    }),
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
  };
};
