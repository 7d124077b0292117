/**
 * `WebhookDeliveryRepository` in memory: one delivery per (endpoint, event);
 * a claim is a check and a write with no `await` between, so it is atomic.
 * The worker writes deliveries outside transactions; a user delete's
 * transaction cancels them (docs/decisions/tenancy.md): a claim committed meanwhile makes
 * that transaction lose the write conflict and run again, as on MongoDB.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type {
  ClaimFilter,
  ClientId,
  DeliveryLease,
  DeliveryOutcome,
  StoreError,
  EventRecord,
  Id,
  NewWebhookDelivery,
  Page,
  PageRequest,
  UserId,
  WebhookDeliveryRecord,
  WebhookDeliveryRepository,
  WebhookEndpointId,
} from '@debtkit/core';
import { MEMORY_SESSION, lazyEither, lazyRight, pageOf } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

const copyDelivery = (d: WebhookDeliveryRecord): WebhookDeliveryRecord => ({ ...d });
const pairKey = (endpointId: WebhookEndpointId, eventId: Id): string => `${endpointId}:${eventId}`;

/** Deliveries of every client are one partition, in id order (the worker claims across clients). */
const ALL = 0;

@injectable()
export class MemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  private readonly deliveries;
  /** (endpoint, event) → delivery id: at most one delivery per pair. */
  private readonly pairs;
  private readonly ids;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.deliveries = s.db.table<number, Id, WebhookDeliveryRecord>('webhookDeliveries');
    this.pairs = s.db.table<number, string, Id>('webhookDeliveries.pairs');
    this.ids = s.db.ids('webhookDeliveries');
  }

  createMany(deliveries: ReadonlyArray<NewWebhookDelivery>): TE.TaskEither<StoreError, void> {
    return lazyEither(() => {
      for (const d of deliveries) {
        const key = pairKey(d.endpoint_id, d.event_id);
        if (this.pairs.get(this.s, ALL, key) !== undefined) continue;
        const record: WebhookDeliveryRecord = {
          ...d,
          id: this.ids.next(),
          status: 'pending',
          attempts: 0,
          last_response_status: null,
          lease_until: null,
          lease_token: null,
        };
        const pair = this.pairs.set(this.s, ALL, key, record.id);
        if (E.isLeft(pair)) return pair;
        const done = this.deliveries.set(this.s, ALL, record.id, record);
        if (E.isLeft(done)) return done;
      }
      return E.right(undefined);
    });
  }

  rearm(deliveries: ReadonlyArray<NewWebhookDelivery>): TE.TaskEither<StoreError, number> {
    return lazyEither(() => {
      for (const d of deliveries) {
        const existing = this.pairs.get(this.s, ALL, pairKey(d.endpoint_id, d.event_id));
        const found = existing === undefined ? undefined : this.deliveries.get(this.s, ALL, existing);
        if (found === undefined) {
          const record: WebhookDeliveryRecord = { ...d, id: this.ids.next(), status: 'pending', attempts: 0, last_response_status: null, lease_until: null, lease_token: null };
          const pair = this.pairs.set(this.s, ALL, pairKey(d.endpoint_id, d.event_id), record.id);
          if (E.isLeft(pair)) return pair;
          const done = this.deliveries.set(this.s, ALL, record.id, record);
          if (E.isLeft(done)) return done;
        } else {
          const done = this.deliveries.set(this.s, ALL, found.id, { ...found, status: 'pending', attempts: 0, next_attempt_at: d.next_attempt_at, lease_until: null, lease_token: null });
          if (E.isLeft(done)) return done;
        }
      }
      return E.right(deliveries.length);
    });
  }

  countPending(clientId: ClientId, endpointId: WebhookEndpointId, fromEventId: Id, toEventId: Id): TE.TaskEither<StoreError, number> {
    return lazyRight(() => {
      let count = 0;
      for (const d of this.deliveries.values(this.s, ALL)) {
        if (d.client_id === clientId && d.endpoint_id === endpointId && d.status === 'pending' && d.event_id >= fromEventId && d.event_id <= toEventId) count += 1;
      }
      return count;
    });
  }

  claimDue(now: Date, lease: DeliveryLease, filter: ClaimFilter): TE.TaskEither<StoreError, O.Option<WebhookDeliveryRecord>> {
    return lazyEither(() => {
      const at = now.getTime();
      const after = filter.afterClient;
      // In turn across clients (docs/decisions/tenancy.md): the first client after `after` with a due delivery, wrapping around;
      // of that client, the delivery due soonest. A client past `after` comes before any at or below it.
      const rank = (d: WebhookDeliveryRecord): [number, number, string, number] => [
        after !== undefined && d.client_id <= after ? 1 : 0,
        d.client_id,
        d.next_attempt_at as string,
        d.id,
      ];
      const before = (a: ReturnType<typeof rank>, b: ReturnType<typeof rank>): boolean => {
        for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number | string) < (b[i] as number | string);
        return false;
      };
      let best: WebhookDeliveryRecord | undefined;
      let bestRank: ReturnType<typeof rank> | undefined;
      for (const d of this.deliveries.values(this.s, ALL)) {
        if (d.status !== 'pending' || d.next_attempt_at === null || Date.parse(d.next_attempt_at) > at) continue;
        if (Date.parse(d.expires_at) <= at || filter.busyEndpoints.includes(d.endpoint_id) || filter.busyClients.includes(d.client_id)) continue;
        if (d.lease_until !== null && Date.parse(d.lease_until) > at) continue;
        const r = rank(d);
        if (bestRank === undefined || before(r, bestRank)) {
          best = d;
          bestRank = r;
        }
      }
      if (best === undefined) return E.right(O.none);
      const claimed: WebhookDeliveryRecord = { ...best, lease_until: lease.until, lease_token: lease.token };
      const done = this.deliveries.set(this.s, ALL, claimed.id, claimed);
      return E.isLeft(done) ? done : E.right(O.some(copyDelivery(claimed)));
    });
  }

  complete(deliveryId: Id, leaseToken: string, outcome: DeliveryOutcome): TE.TaskEither<StoreError, boolean> {
    return lazyEither(() => {
      const found = this.deliveries.get(this.s, ALL, deliveryId);
      if (found === undefined || found.lease_token !== leaseToken) return E.right(false);
      const done = this.deliveries.set(this.s, ALL, deliveryId, { ...found, ...outcome, lease_until: null, lease_token: null });
      return E.isLeft(done) ? done : E.right(true);
    });
  }

  listForEndpoint(clientId: ClientId, endpointId: WebhookEndpointId, page: PageRequest, now: Date): TE.TaskEither<StoreError, Page<WebhookDeliveryRecord>> {
    return lazyRight(() =>
      pageOf(
        // Up to the first delivery a transaction created and has not committed: paging never skips it.
        this.deliveries.committedPrefix(this.s, ALL),
        page,
        copyDelivery,
        (d) => d.client_id === clientId && d.endpoint_id === endpointId && Date.parse(d.expires_at) > now.getTime(),
      ),
    );
  }

  deleteForEndpoint(clientId: ClientId, endpointId: WebhookEndpointId): TE.TaskEither<StoreError, number> {
    return lazyEither(() => {
      let count = 0;
      for (const d of [...this.deliveries.values(this.s, ALL)]) {
        if (d.client_id !== clientId || d.endpoint_id !== endpointId) continue;
        const gone = this.deliveries.delete(this.s, ALL, d.id);
        if (E.isLeft(gone)) return gone;
        const pair = this.pairs.delete(this.s, ALL, pairKey(d.endpoint_id, d.event_id));
        if (E.isLeft(pair)) return pair;
        count += 1;
      }
      return E.right(count);
    });
  }

  cancelPendingForUser(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, number> {
    return lazyEither(() => {
      // A delivery names its event, the event its user: the user's events first, in this session's view.
      const events = this.s.db.table<number, Id, EventRecord>('events');
      let count = 0;
      for (const d of [...this.deliveries.values(this.s, ALL)]) {
        if (d.client_id !== clientId || d.status !== 'pending') continue;
        if (events.get(this.s, ALL, d.event_id)?.data.user_id !== userId) continue;
        const done = this.deliveries.set(this.s, ALL, d.id, { ...d, status: 'canceled', next_attempt_at: null, lease_until: null, lease_token: null });
        if (E.isLeft(done)) return done;
        count += 1;
      }
      return E.right(count);
    });
  }
}
