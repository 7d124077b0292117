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

const copyEvent = (e: EventRecord): EventRecord => structuredClone(e);
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
      const record: EventRecord = copyEvent({ ...event, id: this.ids.next(), fanned_out: false } as EventRecord);
      const done = this.events.set(this.s, ALL, record.id, record);
      return E.isLeft(done) ? done : E.right(copyEvent(record));
    });
  }

  get(clientId: ClientId, eventId: Id, now: Date): TE.TaskEither<StoreError, O.Option<EventRecord>> {
    return lazyRight(() => {
      const found = this.events.get(this.s, ALL, eventId);
      return found === undefined || found.client_id !== clientId || !live(found, now) ? O.none : O.some(copyEvent(found));
    });
  }

  list(clientId: ClientId, page: PageRequest, filter: EventFilter, now: Date): TE.TaskEither<StoreError, Page<EventRecord>> {
    return lazyRight(() =>
      pageOf(
        // Up to the first event a transaction appended and has not committed: paging never skips it.
        this.events.committedPrefix(this.s, ALL),
        page,
        copyEvent,
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
        if (e.client_id === clientId && live(e, now) && e.test !== true && e.created_at >= since && e.created_at < until) found.push(copyEvent(e));
      }
      return found;
    });
  }

  pendingFanOut(limit: number, now: Date): TE.TaskEither<StoreError, ReadonlyArray<EventRecord>> {
    return lazyRight(() => [...this.events.values(this.s, ALL)].filter((e) => !e.fanned_out && live(e, now)).slice(0, limit).map(copyEvent));
  }

  markFannedOut(eventId: Id): TE.TaskEither<StoreError, void> {
    return lazyEither(() => {
      const found = this.events.get(this.s, ALL, eventId);
      return found === undefined ? E.right(undefined) : this.events.set(this.s, ALL, eventId, { ...found, fanned_out: true });
    });
  }

  /** Retention (docs/decisions/webhooks.md): what MongoDB's TTL index does for the mongo store; outside any transaction, as a TTL monitor is. */
  private purgeExpired(now: Date): void {
    const outside = this.s.db.autocommit;
    for (const e of [...this.events.values(outside, ALL)]) if (!live(e, now)) this.events.delete(outside, ALL, e.id);
  }
}
