/**
 * `EventOutbox` in memory: events in ascending id order across clients;
 * expired ones are invisible to reads and dropped as new ones arrive. Ids are
 * taken outside the transaction, so events can commit out of id order: `list`
 * stops before the first one not committed yet (the visible-sequence horizon).
 * The events not yet fanned out are indexed per client (`UnfannedEvents`,
 * following commits), so a fan-out pass reads them in turn across clients
 * without a scan of every event kept.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type {
  ClientId,
  StoreError,
  EventFilter,
  EventOutbox,
  EventRecord,
  FanOutTurn,
  Id,
  NewEvent,
  Page,
  PageRequest,
  Timestamp,
} from '@debtkit/core';
import { MEMORY_SESSION, lazyEither, lazyRight, pageOf } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

/**
 * An event as stored: a deep copy of what was given, frozen. An event never changes
 * (marking it fanned out stores a new record), so reads hand the stored record out
 * as it is, without a copy: a plan's event carries its render context, up to about
 * 1 MB for a 2024-07-01 schedule, and every events page and delivery read it.
 */
const deepFreeze = <A>(value: A): A => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
};
const storedEvent = (e: EventRecord): EventRecord => deepFreeze(structuredClone(e));
const same = (e: EventRecord): EventRecord => e;
const live = (e: EventRecord, now: Date): boolean => Date.parse(e.expires_at) > now.getTime();

/** Events of every client are one partition, in id order (the fan-out reads across clients). */
const ALL = 0;

/** Where `value` is or would go in the ascending `list`. */
const positionIn = (list: ReadonlyArray<number>, value: number): number => {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** The committed events not yet fanned out: per client their ids ascending, the clients ascending. */
class UnfannedEvents {
  private readonly byClient = new Map<number, Id[]>();
  private readonly clients: number[] = [];

  add(client: number, id: Id): void {
    let ids = this.byClient.get(client);
    if (ids === undefined) {
      this.byClient.set(client, (ids = []));
      this.clients.splice(positionIn(this.clients, client), 0, client);
    }
    const last = ids[ids.length - 1];
    if (last === undefined || last < id) ids.push(id);
    else {
      const at = positionIn(ids, id);
      if (ids[at] !== id) ids.splice(at, 0, id);
    }
  }

  remove(client: number, id: Id): void {
    const ids = this.byClient.get(client);
    if (ids === undefined) return;
    const at = positionIn(ids, id);
    if (ids[at] === id) ids.splice(at, 1);
    if (ids.length > 0) return;
    this.byClient.delete(client);
    this.clients.splice(positionIn(this.clients, client), 1);
  }

  /** The clients with events, in turn after `after` (wrapping around). */
  clientsInTurn(after: number | undefined): number[] {
    if (after === undefined) return [...this.clients];
    const from = positionIn(this.clients, after + 1);
    return [...this.clients.slice(from), ...this.clients.slice(0, from)];
  }

  idsOf(client: number): ReadonlyArray<Id> {
    return this.byClient.get(client) ?? [];
  }
}

@injectable()
export class MemoryEventOutbox implements EventOutbox {
  private readonly events;
  private readonly ids;
  private readonly unfanned: UnfannedEvents;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.events = s.db.table<number, Id, EventRecord>('events');
    this.ids = s.db.ids('events');
    this.unfanned = s.db.shared('events.unfanned', () => new UnfannedEvents());
  }

  append(event: NewEvent): TE.TaskEither<StoreError, EventRecord> {
    return lazyEither(() => {
      this.purgeExpired(new Date(event.created_at));
      const record: EventRecord = storedEvent({ ...event, id: this.ids.next(), fanned_out: false } as EventRecord);
      const done = this.events.set(this.s, ALL, record.id, record);
      if (E.isRight(done)) this.s.db.onCommit(this.s, () => this.unfanned.add(record.client_id, record.id));
      return E.isLeft(done) ? done : E.right(record);
    });
  }

  get(clientId: ClientId, eventId: Id, now: Date): TE.TaskEither<StoreError, O.Option<EventRecord>> {
    return lazyRight(() => {
      const found = this.events.get(this.s, ALL, eventId);
      return found === undefined || found.client_id !== clientId || !live(found, now) ? O.none : O.some(found);
    });
  }

  list(clientId: ClientId, page: PageRequest, filter: EventFilter, now: Date): TE.TaskEither<StoreError, Page<EventRecord>> {
    return lazyRight(() =>
      pageOf(
        // Up to the first event a transaction appended and has not committed: paging never skips it.
        this.events.committedPrefix(this.s, ALL),
        page,
        same,
        (e) =>
          e.client_id === clientId &&
          live(e, now) &&
          e.test !== true &&
          (filter.type === undefined || e.type === filter.type) &&
          (filter.user_id === undefined || e.data.user_id === filter.user_id),
      ),
    );
  }

  listWindow(
    clientId: ClientId,
    since: Timestamp,
    until: Timestamp,
    limit: number,
    now: Date,
  ): TE.TaskEither<StoreError, ReadonlyArray<EventRecord>> {
    return lazyRight(() => {
      const found: EventRecord[] = [];
      for (const e of this.events.values(this.s, ALL)) {
        if (found.length >= limit) break;
        if (e.client_id === clientId && live(e, now) && e.test !== true && e.created_at >= since && e.created_at < until) found.push(e);
      }
      return found;
    });
  }

  pendingFanOut(turn: FanOutTurn, now: Date): TE.TaskEither<StoreError, ReadonlyArray<EventRecord>> {
    return lazyRight(() => {
      const found: EventRecord[] = [];
      const gone: Array<[number, Id]> = [];
      let clients = 0;
      for (const client of this.unfanned.clientsInTurn(turn.afterClient)) {
        if (clients >= turn.clients) break;
        let taken = 0;
        for (const id of this.unfanned.idsOf(client)) {
          if (taken >= turn.perClient) break;
          const e = this.events.get(this.s, ALL, id);
          if (e === undefined || e.fanned_out || !live(e, now)) {
            // Expired, or purged (outside a transaction the view is the committed one): no longer the fan-out's.
            if (e === undefined ? this.s.tx === undefined : !live(e, now)) gone.push([client, id]);
            continue;
          }
          found.push(e);
          taken += 1;
        }
        if (taken > 0) clients += 1;
      }
      for (const [client, id] of gone) this.unfanned.remove(client, id);
      return found;
    });
  }

  markFannedOut(eventIds: ReadonlyArray<Id>): TE.TaskEither<StoreError, void> {
    return lazyEither(() => {
      for (const eventId of eventIds) {
        const found = this.events.get(this.s, ALL, eventId);
        if (found === undefined) continue;
        const done = this.events.set(this.s, ALL, eventId, Object.freeze({ ...found, fanned_out: true }));
        if (E.isLeft(done)) return done;
        this.s.db.onCommit(this.s, () => this.unfanned.remove(found.client_id, eventId));
      }
      return E.right(undefined);
    });
  }

  /**
   * Retention (docs/decisions/webhooks.md): what MongoDB's TTL index does for the mongo
   * store. Events expire in about their id order, so the scan stops at the first live one
   * (MemoryTable.dropExpiredFront; a scan of every event made 10,001 appends take 30 s).
   * An expired event left behind a live one is invisible to every read (`live`) and goes
   * on a later append.
   */
  private purgeExpired(now: Date): void {
    this.events.dropExpiredFront(ALL, (e) => !live(e, now));
  }
}
