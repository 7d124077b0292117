/**
 * `WebhookDeliveryRepository` in memory: one delivery per (endpoint, event);
 * a claim is a check and a write with no `await` between, so it is atomic.
 */
import { injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type {
  ClientId,
  DeliveryLease,
  DeliveryOutcome,
  DomainError,
  Id,
  NewWebhookDelivery,
  Page,
  PageRequest,
  WebhookDeliveryRecord,
  WebhookDeliveryRepository,
} from '@debtkit/core';
import { IdSequence, lazyRight, pageOf } from './memory-collection.js';

const copyDelivery = (d: WebhookDeliveryRecord): WebhookDeliveryRecord => ({ ...d });
const pairKey = (endpointId: Id, eventId: Id): string => `${endpointId}:${eventId}`;

@injectable()
export class MemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  private readonly deliveries = new Map<Id, WebhookDeliveryRecord>();
  private readonly pairs = new Set<string>();
  private readonly ids = new IdSequence();

  createMany(deliveries: ReadonlyArray<NewWebhookDelivery>): TE.TaskEither<DomainError, void> {
    return lazyRight(() => {
      for (const d of deliveries) {
        const key = pairKey(d.endpoint_id, d.event_id);
        if (this.pairs.has(key)) continue;
        this.pairs.add(key);
        const record: WebhookDeliveryRecord = {
          ...d,
          id: this.ids.next(),
          status: 'pending',
          attempts: 0,
          last_response_status: null,
          lease_until: null,
          lease_token: null,
        };
        this.deliveries.set(record.id, record);
      }
    });
  }

  claimDue(now: Date, lease: DeliveryLease, busyEndpoints: ReadonlyArray<Id>): TE.TaskEither<DomainError, O.Option<WebhookDeliveryRecord>> {
    return lazyRight(() => {
      const at = now.getTime();
      let best: WebhookDeliveryRecord | undefined;
      for (const d of this.deliveries.values()) {
        if (d.status !== 'pending' || d.next_attempt_at === null || Date.parse(d.next_attempt_at) > at) continue;
        if (Date.parse(d.expires_at) <= at || busyEndpoints.includes(d.endpoint_id)) continue;
        if (d.lease_until !== null && Date.parse(d.lease_until) > at) continue;
        if (best === undefined || (d.next_attempt_at as string) < (best.next_attempt_at as string)) best = d;
      }
      if (best === undefined) return O.none;
      const claimed: WebhookDeliveryRecord = { ...best, lease_until: lease.until, lease_token: lease.token };
      this.deliveries.set(claimed.id, claimed);
      return O.some(copyDelivery(claimed));
    });
  }

  complete(deliveryId: Id, leaseToken: string, outcome: DeliveryOutcome): TE.TaskEither<DomainError, boolean> {
    return lazyRight(() => {
      const found = this.deliveries.get(deliveryId);
      if (found === undefined || found.lease_token !== leaseToken) return false;
      this.deliveries.set(deliveryId, { ...found, ...outcome, lease_until: null, lease_token: null });
      return true;
    });
  }

  listForEndpoint(clientId: ClientId, endpointId: Id, page: PageRequest, now: Date): TE.TaskEither<DomainError, Page<WebhookDeliveryRecord>> {
    return lazyRight(() =>
      pageOf(
        this.deliveries.values(),
        page,
        copyDelivery,
        (d) => d.client_id === clientId && d.endpoint_id === endpointId && Date.parse(d.expires_at) > now.getTime(),
      ),
    );
  }

  deleteForEndpoint(clientId: ClientId, endpointId: Id): TE.TaskEither<DomainError, number> {
    return lazyRight(() => {
      let count = 0;
      for (const [id, d] of this.deliveries) {
        if (d.client_id !== clientId || d.endpoint_id !== endpointId) continue;
        this.deliveries.delete(id);
        this.pairs.delete(pairKey(d.endpoint_id, d.event_id));
        count += 1;
      }
      return count;
    });
  }
}
