/**
 * `EventOutbox` in memory: events in ascending id order across clients;
 * expired ones are invisible to reads and dropped as new ones arrive. Ids are
 * taken outside the transaction, so events can commit out of id order: `list`
 * stops before the first one not committed yet (the visible-sequence horizon).
 */
import * as E from 'fp-ts/lib/Either.js';
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { ClientId, StoreError, EventFilter, EventOutbox, EventRecord, Id, NewEvent, Page, PageRequest, Timestamp } from '@debtkit/core';
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

@injectable()
export class MemoryEventOutbox implements EventOutbox {
  private readonly events;
  private readonly ids;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.events = s.db.table<number, Id, EventRecord>('events');
    this.ids = s.db.ids('events');
  }

  append(event: NewEvent): TE.TaskEither<StoreError, EventRecord> {
    return lazyEither(() => {
      this.purgeExpired(new Date(event.created_at));
      const record: EventRecord = storedEvent({ ...event, id: this.ids.next(), fanned_out: false } as EventRecord);
      const done = this.events.set(this.s, ALL, record.id, record);
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

  listWindow(clientId: ClientId, since: Timestamp, until: Timestamp, limit: number, now: Date): TE.TaskEither<StoreError, ReadonlyArray<EventRecord>> {
    return lazyRight(() => {
      const found: EventRecord[] = [];
      for (const e of this.events.values(this.s, ALL)) {
        if (found.length >= limit) break;
        if (e.client_id === clientId && live(e, now) && e.test !== true && e.created_at >= since && e.created_at < until) found.push(e);
      }
      return found;
    });
  }

  pendingFanOut(limit: number, now: Date): TE.TaskEither<StoreError, ReadonlyArray<EventRecord>> {
    return lazyRight(() => {
      const found: EventRecord[] = [];
      for (const e of this.events.values(this.s, ALL)) {
        if (found.length >= limit) break;
        if (!e.fanned_out && live(e, now)) found.push(e);
      }
      return found;
    });
  }

  markFannedOut(eventId: Id): TE.TaskEither<StoreError, void> {
    return lazyEither(() => {
      const found = this.events.get(this.s, ALL, eventId);
      return found === undefined ? E.right(undefined) : this.events.set(this.s, ALL, eventId, Object.freeze({ ...found, fanned_out: true }));
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
