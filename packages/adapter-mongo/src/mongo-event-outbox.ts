/**
 * `EventOutbox` on MongoDB: collection `events`, `_id` = the event id, every
 * read scoped to the owning client and to unexpired events. Ids come from
 * `MongoVisibleSequence`, and `list` answers none above its horizon, so that an
 * event whose insert was overtaken by a later one is never paged past
 * (mongo-visible-sequence.ts says why that holds).
 */
import { inject, injectable } from 'inversify';
import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { ClientId, StoreError, EventFilter, EventOutbox, EventRecord, Id, NewEvent, Page, PageRequest, Timestamp, EventId } from '@debtkit/core';
import { COLLECTIONS } from './mongo-collections.js';
import { MONGO_CONTEXT, type MongoContext } from './mongo-context.js';
import { MongoVisibleSequence } from './mongo-visible-sequence.js';
import { MongoRecordCollection } from './mongo-record-collection.js';
import { EventDocument } from './mongo-webhook-documents.js';

const unexpired = (now: Date) => ({ expires_at: { $gt: now.toISOString() } });

@injectable()
export class MongoEventOutbox implements EventOutbox {
  private readonly events: MongoRecordCollection<EventRecord>;
  private readonly sequence: MongoVisibleSequence<EventId>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.events = new MongoRecordCollection(ctx, COLLECTIONS.events, EventDocument);
    this.sequence = new MongoVisibleSequence(ctx, COLLECTIONS.events);
  }

  append(event: NewEvent): TE.TaskEither<StoreError, EventRecord> {
    return this.events.task(() => this.sequence.append(event.created_at, (id) => this.events.insert({ ...event, id, fanned_out: false } as EventRecord)));
  }

  get(clientId: ClientId, eventId: Id, now: Date): TE.TaskEither<StoreError, O.Option<EventRecord>> {
    return this.events.task(() => this.events.findOne({ client_id: clientId, _id: eventId, ...unexpired(now) }));
  }

  list(clientId: ClientId, page: PageRequest, filter: EventFilter, now: Date): TE.TaskEither<StoreError, Page<EventRecord>> {
    return this.events.task(() =>
      this.sequence.page(
        this.events,
        {
          client_id: clientId,
          ...unexpired(now),
          // A test event (docs/sandbox-over-time.md) is not listed.
          test: { $ne: true },
          ...(filter.type === undefined ? {} : { type: filter.type }),
          ...(filter.user_id === undefined ? {} : { 'data.user_id': filter.user_id }),
        },
        page,
        now,
      ),
    );
  }

  listWindow(clientId: ClientId, since: Timestamp, until: Timestamp, limit: number, now: Date): TE.TaskEither<StoreError, ReadonlyArray<EventRecord>> {
    return this.events.task(
      async () => (await this.events.findPage({ client_id: clientId, created_at: { $gte: since, $lt: until }, test: { $ne: true }, ...unexpired(now) }, { limit })).items,
    );
  }

  pendingFanOut(limit: number, now: Date): TE.TaskEither<StoreError, ReadonlyArray<EventRecord>> {
    return this.events.task(async () => (await this.events.findPage({ fanned_out: false, ...unexpired(now) }, { limit })).items);
  }

  markFannedOut(eventId: Id): TE.TaskEither<StoreError, void> {
    return this.events.task(async () => {
      await this.events.findOneAndUpdate({ _id: eventId }, { $set: { fanned_out: true } });
    });
  }
}
