/**
 * The webhook delivery worker (docs/decisions/webhooks.md), run by every API process: it
 * fans new events out into deliveries, claims due deliveries with a lease (so
 * processes sharing a store never send the same attempt at once), signs each
 * in its endpoint's API version (docs/decisions/versioning.md) with Standard Webhooks, sends it, and records the attempt: succeeded on a
 * 2xx, else retried after the next delay, `failed` after the last.
 *
 * Fair across clients (docs/decisions/tenancy.md): at most `concurrency` attempts are in
 * flight per process, at most `clientConcurrency` (2) of one client and one
 * per endpoint, and free slots go to the clients with due deliveries in turn
 * (round robin by client id), so a client whose receivers never answer holds
 * two slots for one timeout at most, never another client's turn. Each
 * attempt's outcome also counts for its endpoint's health: failing for 3
 * days in a row disables it (`recordEndpointAttempt`).
 * `stop()` lets the attempts in flight finish and be recorded, then resolves.
 */
import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Logger } from '../logger.js';
import { Webhook } from 'standardwebhooks';
import { SpanKind, SpanStatusCode, context, propagation, trace, type Span } from '@opentelemetry/api';
import {
  deliverableEvent,
  endpointApiVersion,
  fanOutEvents,
  nextDeliveryState,
  recordEndpointAttempt,
  type ClientId,
  type Clock,
  type ClaimFilter,
  type DomainError,
  type ErasureRegistry,
  type EventOutbox,
  type WebhookDeliveryId,
  type WebhookEndpointId,
  type Timestamp,
  type UnitOfWork,
  type Versioning,
  type WebhookDeliveryRecord,
  type WebhookDeliveryRepository,
  type WebhookEndpointRecord,
  type WebhookEndpointRepository,
  versioning,
} from '@debtkit/core';
import { CUT_BY_SHUTDOWN, type SendWebhook } from './webhook-sender.js';

/** docs/decisions/webhooks.md: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then `failed`. */
export const DEFAULT_WEBHOOK_RETRY_SECONDS: ReadonlyArray<number> = [5, 300, 1800, 7200, 18000, 36000, 36000];
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** Attempts in flight per process, and per client in it (docs/decisions/tenancy.md); one per endpoint. */
export const DEFAULT_WEBHOOK_CONCURRENCY = 8;
export const DEFAULT_WEBHOOK_CLIENT_CONCURRENCY = 2;
/** How long a disabled endpoint's pending delivery waits before it is looked at again (it counts no attempt). */
const DISABLED_RECHECK_MS = 60_000;
/**
 * A fan-out pass takes events in turn across clients (docs/decisions/tenancy.md): at most
 * `perClient` of each of `clients` clients, so at most 1,000 events a pass, and
 * one client's backlog (a sandbox advance writes thousands) never holds back
 * another client's event by more than a pass.
 */
const FAN_OUT_TURN = { perClient: 50, clients: 20 } as const;

/** The instrumentation scope of the delivery spans (the HTTP adapter's, as the request spans). */
const WEBHOOK_TRACER = '@debtkit/adapter-http';

/**
 * How a delivery attempt ended: `delivered` (a 2xx), `retrying` (not a 2xx, tried
 * again later), `failed` (not a 2xx, and it was the last try), `dropped` (nothing
 * sent: the endpoint was deleted or the event expired).
 */
export type WebhookOutcome = 'delivered' | 'retrying' | 'failed' | 'dropped';

export interface DeliveryWorkerDeps {
  readonly events: EventOutbox;
  readonly webhookEndpoints: WebhookEndpointRepository;
  readonly webhookDeliveries: WebhookDeliveryRepository;
  /** Erasure markers: an erased user's events are redacted or canceled when their attempt is made (docs/decisions/tenancy.md). */
  readonly erasures: ErasureRegistry;
  readonly clock: Clock;
  /** The transactions of endpoint health (a disable and its event commit together, docs/decisions/transactions.md). */
  readonly unitOfWork: UnitOfWork;
  /** The registry events are rendered with, each in its endpoint's version; default: the production one. */
  readonly versioning?: Versioning;
  readonly send: SendWebhook;
  readonly logger?: Logger;
  /** Told how each attempt ended (the metrics count them by outcome). */
  readonly onOutcome?: (outcome: WebhookOutcome) => void;
}

export interface DeliveryWorkerOptions {
  readonly retrySeconds?: ReadonlyArray<number>;
  readonly concurrency?: number;
  /** Attempts in flight per client; default 2 (docs/decisions/tenancy.md). */
  readonly clientConcurrency?: number;
  /** The send's own time limit; the lease outlives it by a margin. */
  readonly timeoutMs?: number;
  /** How often an idle worker looks for due deliveries. */
  readonly pollMs?: number;
}

const orThrow = async <A>(task: TE.TaskEither<DomainError, A>): Promise<A> => {
  const result = await task();
  if (E.isLeft(result)) throw Object.assign(new Error(result.left.message), { domainError: result.left });
  return result.right;
};

export class DeliveryWorker {
  private readonly retrySeconds: ReadonlyArray<number>;
  private readonly concurrency: number;
  private readonly clientConcurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  /** Attempts in flight, by delivery id, with their endpoint and client. */
  private readonly inFlight = new Map<
    WebhookDeliveryId,
    { readonly endpointId: WebhookEndpointId; readonly clientId: ClientId; readonly done: Promise<void> }
  >();
  /** The client the last claim went to: the next claim starts after it (round robin). */
  private lastClient: ClientId | undefined;
  /** The client the last fan-out pass ended with: the next pass starts after it. */
  private lastFanOutClient: ClientId | undefined;
  /** How many events the last pass fanned out (`drain` goes on while passes find some). */
  private lastFannedOut = 0;
  /** Attempts ended (recorded, or given up) since the worker was made: `drain` tells a pass that saw one end. */
  private attemptsEnded = 0;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private pumping: Promise<number> | undefined;
  private stopped: Promise<void> | undefined;
  /** Aborted when `stop`'s grace is over: cuts the attempts still in flight. */
  private readonly cutAttempts = new AbortController();

  constructor(
    private readonly deps: DeliveryWorkerDeps,
    options: DeliveryWorkerOptions = {},
  ) {
    this.retrySeconds = options.retrySeconds ?? DEFAULT_WEBHOOK_RETRY_SECONDS;
    this.concurrency = options.concurrency ?? DEFAULT_WEBHOOK_CONCURRENCY;
    this.clientConcurrency = options.clientConcurrency ?? DEFAULT_WEBHOOK_CLIENT_CONCURRENCY;
    // Outlives the attempt (bounded by the timeout) and its recording; a process that dies
    // mid-attempt delays that delivery by this much at most.
    this.leaseMs = (options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS) + 5_000;
    this.pollMs = options.pollMs ?? 1000;
  }

  /** Poll until `stop()`. */
  start(): void {
    if (this.running || this.stopped !== undefined) return;
    this.running = true;
    this.schedule(0);
  }

  /**
   * Stop polling, let the attempts in flight finish and be recorded. Idempotent.
   * With `cutAfterMs`, an attempt still waiting for its receiver after that long
   * is cut and recorded as a failed attempt (retried on the usual schedule by
   * whichever process runs next), so a shutdown is not held up to the 10 s
   * attempt timeout (docs/operations.md: exit within 10 s).
   */
  stop(cutAfterMs?: number): Promise<void> {
    this.running = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    return (this.stopped ??= (async () => {
      const cut = cutAfterMs === undefined ? undefined : setTimeout(() => this.cutAttempts.abort(), cutAfterMs);
      try {
        await this.pumping?.catch(() => undefined);
        await Promise.all([...this.inFlight.values()].map((f) => f.done));
      } finally {
        if (cut !== undefined) clearTimeout(cut);
      }
    })());
  }

  /**
   * Fan out, then start as many due attempts as there are free slots.
   * Answers how many attempts it started. Serialised: a call while one runs waits for it.
   */
  pump(): Promise<number> {
    const previous = this.pumping ?? Promise.resolve(0);
    const next = previous.catch(() => 0).then(() => this.pumpOnce());
    this.pumping = next;
    return next;
  }

  /**
   * Until nothing is due and nothing in flight (tests: every due attempt made and recorded).
   * Done after one quiet pass: a pass that started with nothing in flight, during which no
   * attempt ended, and that fanned out nothing and started nothing. An attempt that ends
   * during a pass may write an event after that pass's fan-out read (a failing endpoint's
   * disable and its `webhook_endpoint.disabled`, webhook-health.ts), so such a pass proves
   * nothing: the next pass fans that event out. (The running worker needs no such care:
   * an attempt's end schedules the next pass.)
   */
  async drain(): Promise<void> {
    for (;;) {
      const ended = this.attemptsEnded;
      const idle = this.inFlight.size === 0;
      const started = await this.pump();
      if (idle && this.inFlight.size === 0 && this.attemptsEnded === ended && started === 0 && this.lastFannedOut === 0) return;
      if (this.inFlight.size > 0) await Promise.race([...this.inFlight.values()].map((f) => f.done));
    }
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump().then(
        () => this.schedule(this.pollMs),
        (err: unknown) => {
          this.deps.logger?.warn({ err }, 'webhook worker pass failed; trying again');
          this.schedule(this.pollMs);
        },
      );
    }, ms);
    this.timer.unref();
  }

  private async pumpOnce(): Promise<number> {
    if (this.stopped !== undefined) return 0;
    const fanned = await orThrow(
      fanOutEvents(this.deps)({ ...FAN_OUT_TURN, ...(this.lastFanOutClient === undefined ? {} : { afterClient: this.lastFanOutClient }) }),
    );
    this.lastFanOutClient = fanned.lastClient;
    this.lastFannedOut = fanned.events;
    let started = 0;
    while (this.inFlight.size < this.concurrency && this.stopped === undefined) {
      const now = this.deps.clock.now();
      const token = randomUUID();
      const claimed = await orThrow(
        this.deps.webhookDeliveries.claimDue(
          now,
          { token, until: new Date(now.getTime() + this.leaseMs).toISOString() as Timestamp },
          this.claimFilter(),
        ),
      );
      if (O.isNone(claimed)) break;
      const delivery = claimed.value;
      this.lastClient = delivery.client_id;
      const done = this.tracedAttempt(delivery, token)
        .catch((err: unknown) =>
          this.deps.logger?.error(
            { err, delivery: delivery.id },
            'webhook attempt could not be recorded; the lease will expire and it is tried again',
          ),
        )
        .finally(() => {
          this.inFlight.delete(delivery.id);
          this.attemptsEnded += 1;
          // A slot is free: look for the next due attempt now rather than at the next poll.
          if (this.running) this.schedule(0);
        });
      this.inFlight.set(delivery.id, { endpointId: delivery.endpoint_id, clientId: delivery.client_id, done });
      started += 1;
    }
    return started;
  }

  /** What this process may claim next: no endpoint with an attempt in flight, no client at its cap, the next client in turn. */
  private claimFilter(): ClaimFilter {
    const perClient = new Map<ClientId, number>();
    for (const f of this.inFlight.values()) perClient.set(f.clientId, (perClient.get(f.clientId) ?? 0) + 1);
    return {
      busyEndpoints: [...new Set([...this.inFlight.values()].map((f) => f.endpointId))],
      busyClients: [...perClient].filter(([, n]) => n >= this.clientConcurrency).map(([client]) => client),
      ...(this.lastClient === undefined ? {} : { afterClient: this.lastClient }),
    };
  }

  /** `attempt` in a CLIENT span of its own (one per attempt; off without a tracer provider). */
  private tracedAttempt(delivery: WebhookDeliveryRecord, token: string): Promise<void> {
    const attributes = {
      'debtkit.webhook.endpoint_id': delivery.endpoint_id,
      'debtkit.event.id': delivery.event_id,
      'debtkit.webhook.delivery_id': delivery.id,
    };
    return trace.getTracer(WEBHOOK_TRACER).startActiveSpan('webhook delivery attempt', { kind: SpanKind.CLIENT, attributes }, (span) =>
      this.attempt(delivery, token, span).then(
        () => span.end(),
        (err: unknown) => {
          span.recordException(err instanceof Error ? err : String(err));
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          throw err;
        },
      ),
    );
  }

  private async attempt(delivery: WebhookDeliveryRecord, token: string, span: Span): Promise<void> {
    const { deps } = this;
    const now = deps.clock.now();
    const endpoint = await orThrow(deps.webhookEndpoints.get(delivery.client_id, delivery.endpoint_id));
    const event = await orThrow(deps.events.get(delivery.client_id, delivery.event_id, now));
    if (O.isNone(endpoint) || O.isNone(event)) {
      // The endpoint was deleted, or the event expired: nothing can be sent any more.
      await orThrow(
        deps.webhookDeliveries.complete(delivery.id, token, {
          status: 'failed',
          attempts: delivery.attempts,
          last_response_status: delivery.last_response_status,
          next_attempt_at: null,
        }),
      );
      deps.onOutcome?.('dropped');
      return;
    }
    // In the endpoint's version (docs/decisions/versioning.md); one this build does not know (written by a newer build, then a
    // rollback) gets the latest, as a request pinned to it would.
    const versions = deps.versioning ?? versioning;
    const wanted = endpointApiVersion(endpoint.value);
    // Erasure (docs/decisions/tenancy.md): an erased user's event goes out redacted (its `user.deleted`) or not at all (canceled).
    const deliverable = await orThrow(
      deliverableEvent({ erasures: deps.erasures, versioning: versions })(event.value, versions.isKnown(wanted) ? wanted : versions.latest),
    );
    if (O.isNone(deliverable)) {
      await orThrow(
        deps.webhookDeliveries.complete(delivery.id, token, {
          status: 'canceled',
          attempts: delivery.attempts,
          last_response_status: delivery.last_response_status,
          next_attempt_at: null,
        }),
      );
      deps.onOutcome?.('dropped');
      return;
    }
    if (endpoint.value.status === 'disabled') {
      await orThrow(
        deps.webhookDeliveries.complete(delivery.id, token, {
          status: 'pending',
          attempts: delivery.attempts,
          last_response_status: delivery.last_response_status,
          next_attempt_at: new Date(now.getTime() + DISABLED_RECHECK_MS).toISOString() as Timestamp,
        }),
      );
      return;
    }
    // The same id on every attempt of this event to this endpoint: receivers de-duplicate by it.
    const messageId = `msg_${delivery.event_id}_${delivery.endpoint_id}`;
    const body = JSON.stringify(deliverable.value);
    const signature = new Webhook(endpoint.value.secret).sign(messageId, now, body);
    const started = performance.now();
    const headers: Record<string, string> = {
      'webhook-id': messageId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    };
    // W3C `traceparent` (and `tracestate`) of this attempt's span, for a traced receiver.
    propagation.inject(context.active(), headers);
    // A signal of this attempt's own, tied to the shutdown cut and untied after: the sender's listeners
    // never pile up on the one shared signal (with a dozen attempts in flight node warns of a leak).
    const cut = new AbortController();
    const onCut = (): void => cut.abort();
    this.cutAttempts.signal.addEventListener('abort', onCut, { once: true });
    if (this.cutAttempts.signal.aborted) cut.abort();
    const result = await deps
      .send({
        url: endpoint.value.url,
        body,
        headers,
        signal: cut.signal,
      })
      .finally(() => this.cutAttempts.signal.removeEventListener('abort', onCut));
    const status = 'status' in result ? result.status : null;
    const succeeded = status !== null && status >= 200 && status < 300;
    const attempts = delivery.attempts + 1;
    const next = nextDeliveryState(succeeded, attempts, this.retrySeconds, deps.clock.now());
    const outcome: WebhookOutcome = succeeded ? 'delivered' : next.status === 'failed' ? 'failed' : 'retrying';
    if (status !== null) span.setAttribute('http.response.status_code', status);
    span.setAttribute('debtkit.webhook.outcome', outcome);
    if (!succeeded) span.setStatus({ code: SpanStatusCode.ERROR, message: 'error' in result ? result.error : `status ${String(status)}` });
    // One line per attempt, whatever its outcome: what an operator greps for when a receiver says it got nothing.
    deps.logger?.info(
      {
        endpoint_id: delivery.endpoint_id,
        event_id: delivery.event_id,
        delivery_id: delivery.id,
        attempt: attempts,
        status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        outcome,
        ...('error' in result ? { error: result.error } : {}),
      },
      'webhook attempt',
    );
    const recorded = await orThrow(
      deps.webhookDeliveries.complete(delivery.id, token, { ...next, attempts, last_response_status: status }),
    );
    if (!recorded) deps.logger?.warn({ delivery: delivery.id }, 'webhook attempt outlived its lease; another process may retry it');
    deps.onOutcome?.(outcome);
    // An attempt cut by this process's shutdown says nothing about the receiver.
    if ('error' in result && result.error === CUT_BY_SHUTDOWN) return;
    await this.recordHealth(endpoint.value, succeeded);
  }

  /** The attempt's count for its endpoint's health; a store error is logged (the next attempt counts again). */
  private async recordHealth(endpoint: WebhookEndpointRecord, succeeded: boolean): Promise<void> {
    const health = await recordEndpointAttempt({ ...this.deps, versioning: this.deps.versioning ?? versioning })(endpoint, succeeded)();
    if (E.isLeft(health)) {
      this.deps.logger?.warn(
        { endpoint_id: endpoint.id, err: health.left.message },
        'webhook endpoint health not recorded; the next attempt counts again',
      );
    } else if (health.right === 'disable') {
      this.deps.logger?.warn(
        { endpoint_id: endpoint.id, client_id: endpoint.client_id },
        'webhook endpoint disabled: its deliveries failed for 3 days',
      );
    }
  }
}
