/**
 * The armed (pending) webhook deliveries of the memory store, indexed so that
 * a claim is not a scan (docs/decisions/tenancy.md, fair webhooks): per endpoint, its
 * pending deliveries in the order they fall due (`next_attempt_at`, then id);
 * per client, its endpoints that have any; the clients in id order. A claim
 * walks the clients in turn and, of each, looks at the front of each endpoint's
 * list: its cost grows with the clients and endpoints that have something
 * armed, not with every delivery ever stored (a scan of 158,000 armed deliveries
 * made another client's ping 941 ms).
 *
 * It follows COMMITTED records: the repository updates it when a write commits
 * (`MemoryDatabase.onCommit`), so a transaction that aborts leaves no trace,
 * and a delivery a transaction arms is seen once it commits. The claim checks
 * each entry against the record it reads before taking it.
 */
import type { Id, WebhookDeliveryRecord } from '@debtkit/core';

/** One armed delivery: when it falls due, and whose it is. */
export interface DueEntry {
  readonly id: Id;
  /** `next_attempt_at` in milliseconds. */
  readonly at: number;
  /** `expires_at` in milliseconds. */
  readonly expires: number;
  readonly endpoint: number;
  readonly client: number;
  readonly event: number;
}

const before = (a: DueEntry, b: DueEntry): boolean => a.at < b.at || (a.at === b.at && a.id < b.id);

/** Where `entry` goes in `list` (sorted by due time, then id): the first index whose entry is not before it. */
const positionOf = (list: ReadonlyArray<DueEntry>, entry: DueEntry): number => {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(list[mid]!, entry)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

export class DueDeliveries {
  private readonly byId = new Map<Id, DueEntry>();
  private readonly byEndpoint = new Map<number, DueEntry[]>();
  private readonly endpointsByClient = new Map<number, Set<number>>();
  /** Client ids with an armed delivery, ascending. */
  private readonly clients: number[] = [];

  /** Follow a committed record: armed when pending with a next attempt, else not. */
  put(record: WebhookDeliveryRecord): void {
    this.remove(record.id);
    if (record.status !== 'pending' || record.next_attempt_at === null) return;
    const entry: DueEntry = {
      id: record.id,
      at: Date.parse(record.next_attempt_at),
      expires: Date.parse(record.expires_at),
      endpoint: record.endpoint_id,
      client: record.client_id,
      event: record.event_id,
    };
    this.byId.set(entry.id, entry);
    let list = this.byEndpoint.get(entry.endpoint);
    if (list === undefined) {
      this.byEndpoint.set(entry.endpoint, (list = []));
      let endpoints = this.endpointsByClient.get(entry.client);
      if (endpoints === undefined) {
        this.endpointsByClient.set(entry.client, (endpoints = new Set()));
        this.clients.splice(this.clientPosition(entry.client), 0, entry.client);
      }
      endpoints.add(entry.endpoint);
    }
    // Appended in the common case (a new delivery is due now, after those before it).
    const last = list[list.length - 1];
    if (last === undefined || before(last, entry)) list.push(entry);
    else list.splice(positionOf(list, entry), 0, entry);
  }

  /** No longer armed (deleted, or no longer pending). */
  remove(id: Id): void {
    const entry = this.byId.get(id);
    if (entry === undefined) return;
    this.byId.delete(id);
    const list = this.byEndpoint.get(entry.endpoint)!;
    const at = positionOf(list, entry);
    if (list[at]?.id === id) list.splice(at, 1);
    if (list.length > 0) return;
    this.byEndpoint.delete(entry.endpoint);
    const endpoints = this.endpointsByClient.get(entry.client)!;
    endpoints.delete(entry.endpoint);
    if (endpoints.size > 0) return;
    this.endpointsByClient.delete(entry.client);
    this.clients.splice(this.clientPosition(entry.client), 1);
  }

  /** The clients with something armed, in turn: those after `after` ascending, then (wrapping around) the others. */
  clientsInTurn(after: number | undefined): number[] {
    if (after === undefined) return [...this.clients];
    const from = this.clientPosition(after + 1);
    return [...this.clients.slice(from), ...this.clients.slice(0, from)];
  }

  /** The client's endpoints with something armed. */
  endpointsOf(client: number): ReadonlyArray<number> {
    return [...(this.endpointsByClient.get(client) ?? [])];
  }

  /** The endpoint's armed deliveries, soonest due first (a copy: the caller may change the index meanwhile). */
  dueOf(endpoint: number): ReadonlyArray<DueEntry> {
    return this.byEndpoint.get(endpoint) ?? [];
  }

  /** How many deliveries the client has armed that have not expired at `now`. */
  armedFor(client: number, now: number): number {
    let count = 0;
    for (const endpoint of this.endpointsByClient.get(client) ?? [])
      for (const e of this.byEndpoint.get(endpoint) ?? []) if (e.expires > now) count += 1;
    return count;
  }

  /** Where `client` is or would go in `clients`. */
  private clientPosition(client: number): number {
    let lo = 0;
    let hi = this.clients.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.clients[mid]! < client) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
