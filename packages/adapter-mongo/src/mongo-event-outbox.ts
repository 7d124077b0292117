/**
 * `EventOutbox` on MongoDB: collection `events`, `_id` = the event id, every
 * read scoped to the owning client and to unexpired events. Ids come from
 * `MongoVisibleSequence`, and `list` answers none above its horizon, so that an
 * event whose insert was overtaken by a later one is never paged past
 * (mongo-visible-sequence.ts says why that holds). The fan-out reads the
 * events not yet fanned out in turn across clients, through the index
 * (fanned_out, client_id, _id): one command finds the next client with any,
 * one reads its oldest.
 */
import { inject, injectable } from 'inversify';
import type * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Collection } from 'mongodb';
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
  EventId,
} from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MONGO_CONTEXT, commandOptions, type MongoContext } from './mongo-context.js';
import type { StoredDocument } from './mongo-document-codec.js';
import { MongoVisibleSequence } from './mongo-visible-sequence.js';
import { MongoRecordCollection } from './mongo-record-collection.js';
import { EventDocument } from './mongo-webhook-documents.js';

const unexpired = (now: Date) => ({ expires_at: { $gt: now.toISOString() } });

@injectable()
export class MongoEventOutbox implements EventOutbox {
  private readonly events: MongoRecordCollection<EventRecord>;
  private readonly sequence: MongoVisibleSequence<EventId>;
  private readonly raw: Collection<StoredDocument>;

  constructor(@inject(MONGO_CONTEXT) private readonly ctx: MongoContext) {
    this.events = new MongoRecordCollection(ctx, COLLECTION_NAMES.events, EventDocument);
    this.sequence = new MongoVisibleSequence(ctx, COLLECTION_NAMES.events);
    this.raw = ctx.db.collection(COLLECTION_NAMES.events);
  }

  append(event: NewEvent): TE.TaskEither<StoreError, EventRecord> {
    return this.events.task(() =>
      this.sequence.append(event.created_at, (id) => this.events.insert({ ...event, id, fanned_out: false } as EventRecord)),
    );
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

  listWindow(
    clientId: ClientId,
    since: Timestamp,
    until: Timestamp,
    limit: number,
    now: Date,
  ): TE.TaskEither<StoreError, ReadonlyArray<EventRecord>> {
    return this.events.task(
      async () =>
        (
          await this.events.findPage(
            { client_id: clientId, created_at: { $gte: since, $lt: until }, test: { $ne: true }, ...unexpired(now) },
            { limit },
          )
        ).items,
    );
  }

  pendingFanOut(turn: FanOutTurn, now: Date): TE.TaskEither<StoreError, ReadonlyArray<EventRecord>> {
    return this.events.task(async () => {
      const pending = { fanned_out: false, ...unexpired(now) };
      const found: EventRecord[] = [];
      const served = new Set<number>();
      // The next client with a pending event after `after` (none: from the lowest), by the index's order.
      const nextClient = async (after: number | undefined): Promise<number | undefined> => {
        const [first] = await this.raw
          .find(
            { ...pending, ...(after === undefined ? {} : { client_id: { $gt: after } }) },
            { ...commandOptions(this.ctx), sort: { fanned_out: 1, client_id: 1, _id: 1 }, limit: 1, projection: { client_id: 1 } },
          )
          .toArray();
        return first === undefined ? undefined : (first['client_id'] as number);
      };
      let after: number | undefined = turn.afterClient;
      while (served.size < turn.clients) {
        let client = await nextClient(after);
        // Wrap around once: the clients at or below the one the turn started after.
        if (client === undefined && after !== undefined) client = await nextClient(undefined);
        if (client === undefined || served.has(client)) break;
        served.add(client);
        found.push(...(await this.events.findPage({ ...pending, client_id: client }, { limit: turn.perClient })).items);
        after = client;
      }
      return found;
    });
  }

  markFannedOut(eventIds: ReadonlyArray<Id>): TE.TaskEither<StoreError, void> {
    return this.events.task(async () => {
      if (eventIds.length === 0) return;
      await this.raw.updateMany({ _id: { $in: [...eventIds] } }, { $set: { fanned_out: true } }, commandOptions(this.ctx));
    });
  }
}
