/**
 * `EventOutbox` in memory: events in ascending id order across clients;
 * expired ones are invisible to reads and dropped as new ones arrive. An
 * append takes its id and stores the event in one step, so events become
 * visible in id order (what mongo needs an in-flight list for).
 */
import { injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { ClientId, DomainError, EventFilter, EventOutbox, EventRecord, Id, NewEvent, Page, PageRequest } from '@debtkit/core';
import { IdSequence, lazyRight, pageOf } from './memory-collection.js';

const copyEvent = (e: EventRecord): EventRecord => structuredClone(e);
const live = (e: EventRecord, now: Date): boolean => Date.parse(e.expires_at) > now.getTime();

@injectable()
export class MemoryEventOutbox implements EventOutbox {
  private readonly events = new Map<Id, EventRecord>();
  private readonly ids = new IdSequence();

  append(event: NewEvent): TE.TaskEither<DomainError, EventRecord> {
    return lazyRight(() => {
      this.purgeExpired(new Date(event.created_at));
      const record: EventRecord = copyEvent({ ...event, id: this.ids.next(), fanned_out: false } as EventRecord);
      this.events.set(record.id, record);
      return copyEvent(record);
    });
  }

  get(clientId: ClientId, eventId: Id, now: Date): TE.TaskEither<DomainError, O.Option<EventRecord>> {
    return lazyRight(() => {
      const found = this.events.get(eventId);
      return found === undefined || found.client_id !== clientId || !live(found, now) ? O.none : O.some(copyEvent(found));
    });
  }

  list(clientId: ClientId, page: PageRequest, filter: EventFilter, now: Date): TE.TaskEither<DomainError, Page<EventRecord>> {
    return lazyRight(() =>
      pageOf(
        this.events.values(),
        page,
        copyEvent,
        (e) =>
          e.client_id === clientId &&
          live(e, now) &&
          (filter.type === undefined || e.type === filter.type) &&
          (filter.user_id === undefined || e.data.user_id === filter.user_id),
      ),
    );
  }

  pendingFanOut(limit: number, now: Date): TE.TaskEither<DomainError, ReadonlyArray<EventRecord>> {
    return lazyRight(() => [...this.events.values()].filter((e) => !e.fanned_out && live(e, now)).slice(0, limit).map(copyEvent));
  }

  markFannedOut(eventId: Id): TE.TaskEither<DomainError, void> {
    return lazyRight(() => {
      const found = this.events.get(eventId);
      if (found !== undefined) this.events.set(eventId, { ...found, fanned_out: true });
    });
  }

  /** Retention (DESIGN 7.11): what MongoDB's TTL index does for the mongo store. */
  private purgeExpired(now: Date): void {
    for (const [id, e] of this.events) if (!live(e, now)) this.events.delete(id);
  }
}
