/**
 * `WebhookDeliveryRepository` in memory: one delivery per (endpoint, event);
 * a claim is a check and a write with no `await` between, so it is atomic.
 * The armed deliveries are indexed (memory-due-deliveries.ts), so a claim, a
 * client's count and a user's cancelation read the client's armed deliveries,
 * never every delivery stored.
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
import { DueDeliveries } from './memory-due-deliveries.js';

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
  /** The armed deliveries of every session, as committed. */
  private readonly due: DueDeliveries;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.deliveries = s.db.table<number, Id, WebhookDeliveryRecord>('webhookDeliveries');
    this.pairs = s.db.table<number, string, Id>('webhookDeliveries.pairs');
    this.ids = s.db.ids('webhookDeliveries');
    this.due = s.db.shared('webhookDeliveries.due', () => new DueDeliveries());
  }

  /** Write a delivery; the index follows it once the write commits. */
  private store(record: WebhookDeliveryRecord): ReturnType<typeof this.deliveries.set> {
    const done = this.deliveries.set(this.s, ALL, record.id, record);
    if (E.isRight(done)) this.s.db.onCommit(this.s, () => this.due.put(record));
    return done;
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
        const done = this.store(record);
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
          const record: WebhookDeliveryRecord = {
            ...d,
            id: this.ids.next(),
            status: 'pending',
            attempts: 0,
            last_response_status: null,
            lease_until: null,
            lease_token: null,
          };
          const pair = this.pairs.set(this.s, ALL, pairKey(d.endpoint_id, d.event_id), record.id);
          if (E.isLeft(pair)) return pair;
          const done = this.store(record);
          if (E.isLeft(done)) return done;
        } else {
          const done = this.store({
            ...found,
            status: 'pending',
            attempts: 0,
            next_attempt_at: d.next_attempt_at,
            lease_until: null,
            lease_token: null,
          });
          if (E.isLeft(done)) return done;
        }
      }
      return E.right(deliveries.length);
    });
  }

  countPending(clientId: ClientId, endpointId: WebhookEndpointId, fromEventId: Id, toEventId: Id): TE.TaskEither<StoreError, number> {
    return lazyRight(() => {
      let count = 0;
      for (const e of this.due.dueOf(endpointId)) if (e.client === clientId && e.event >= fromEventId && e.event <= toEventId) count += 1;
      return count;
    });
  }

  countArmed(clientId: ClientId, now: Date): TE.TaskEither<StoreError, number> {
    return lazyRight(() => this.due.armedFor(clientId, now.getTime()));
  }

  claimDue(now: Date, lease: DeliveryLease, filter: ClaimFilter): TE.TaskEither<StoreError, O.Option<WebhookDeliveryRecord>> {
    return lazyEither(() => {
      const at = now.getTime();
      const expired: Id[] = [];
      let best: WebhookDeliveryRecord | undefined;
      // In turn across clients (docs/decisions/tenancy.md): the first client after `afterClient` with a due delivery,
      // wrapping around; of that client, the delivery due soonest (then the lowest id) of an endpoint not busy.
      for (const client of this.due.clientsInTurn(filter.afterClient)) {
        if (filter.busyClients.includes(client as ClientId)) continue;
        for (const endpoint of this.due.endpointsOf(client)) {
          if (filter.busyEndpoints.includes(endpoint as WebhookEndpointId)) continue;
          for (const entry of this.due.dueOf(endpoint)) {
            if (entry.at > at) break;
            if (entry.expires <= at) {
              expired.push(entry.id);
              continue;
            }
            const d = this.deliveries.get(this.s, ALL, entry.id);
            // The index follows commits; this session's view decides (a record it cannot see, or has seen change, is skipped).
            if (d === undefined || d.status !== 'pending' || d.next_attempt_at === null || Date.parse(d.next_attempt_at) !== entry.at)
              continue;
            if (d.lease_until !== null && Date.parse(d.lease_until) > at) continue;
            if (
              best === undefined ||
              (d.next_attempt_at as string) < (best.next_attempt_at as string) ||
              (d.next_attempt_at === best.next_attempt_at && d.id < best.id)
            )
              best = d;
            break;
          }
        }
        if (best !== undefined) break;
      }
      // An expired delivery is never sent: it leaves the index (it stays as it is in the table, listed until it is purged).
      for (const id of expired) this.due.remove(id);
      if (best === undefined) return E.right(O.none);
      const claimed: WebhookDeliveryRecord = { ...best, lease_until: lease.until, lease_token: lease.token };
      const done = this.store(claimed);
      return E.isLeft(done) ? done : E.right(O.some(copyDelivery(claimed)));
    });
  }

  complete(deliveryId: Id, leaseToken: string, outcome: DeliveryOutcome): TE.TaskEither<StoreError, boolean> {
    return lazyEither(() => {
      const found = this.deliveries.get(this.s, ALL, deliveryId);
      if (found === undefined || found.lease_token !== leaseToken) return E.right(false);
      const done = this.store({ ...found, ...outcome, lease_until: null, lease_token: null });
      return E.isLeft(done) ? done : E.right(true);
    });
  }

  listForEndpoint(
    clientId: ClientId,
    endpointId: WebhookEndpointId,
    page: PageRequest,
    now: Date,
  ): TE.TaskEither<StoreError, Page<WebhookDeliveryRecord>> {
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
        this.s.db.onCommit(this.s, () => this.due.remove(d.id));
        const pair = this.pairs.delete(this.s, ALL, pairKey(d.endpoint_id, d.event_id));
        if (E.isLeft(pair)) return pair;
        count += 1;
      }
      return E.right(count);
    });
  }

  cancelPendingForUser(clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, number> {
    return lazyEither(() => {
      // A delivery names its event, the event its user: of the client's armed deliveries, those of the user's events.
      const events = this.s.db.table<number, Id, EventRecord>('events');
      const armed = this.due.endpointsOf(clientId).flatMap((endpoint) => this.due.dueOf(endpoint).map((e) => e.id));
      let count = 0;
      for (const id of armed) {
        const d = this.deliveries.get(this.s, ALL, id);
        if (d === undefined || d.client_id !== clientId || d.status !== 'pending') continue;
        if (events.get(this.s, ALL, d.event_id)?.data.user_id !== userId) continue;
        const done = this.store({ ...d, status: 'canceled', next_attempt_at: null, lease_until: null, lease_token: null });
        if (E.isLeft(done)) return done;
        count += 1;
      }
      return E.right(count);
    });
  }
}
