import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { StoreError } from '../shared/errors.js';
import type { EventRecord, EventType } from './webhook.js';
import type { ClientId, EventId, Timestamp, UserId } from '../shared/primitives.js';
import type { Page, PageRequest } from '../shared/paging.js';

export interface NewEvent {
  readonly client_id: ClientId;
  readonly type: EventType;
  readonly created_at: Timestamp;
  readonly api_version: string;
  /** `user_id` null: a change of the client's own, about no user (`webhook_endpoint.disabled`). */
  readonly data: { readonly user_id: UserId | null; readonly object: Readonly<Record<string, unknown>> };
  readonly expires_at: Timestamp;
  /** A test event (docs/sandbox-over-time.md): `list`, `listWindow` and the fan-out never answer it; `get` does (its delivery needs it). */
  readonly test?: boolean;
  /**
   * What older versions' renderings of `data.object` need (docs/decisions/versioning.md); present
   * on every event stored since 2026-11-26 (the object is then in the shape of
   * `api_version`, the latest), absent on events stored before (the object was
   * rendered in the client's version and is served as stored).
   */
  readonly render_context?: Readonly<Record<string, unknown>>;
}

export interface EventFilter {
  readonly type?: EventType;
  readonly user_id?: UserId;
}

/**
 * The events of every client, kept in the store (the outbox of docs/decisions/webhooks.md):
 * a use case appends the event of the change it made; the delivery worker
 * turns each new event into deliveries ("fan-out") and marks it done. Reads
 * take `now` and never answer an expired event, whether or not the store has
 * removed it yet.
 */
export interface EventOutbox {
  /** Store a new event with the next id (ids ascend), not yet fanned out. */
  append(event: NewEvent): TE.TaskEither<StoreError, EventRecord>;
  get(clientId: ClientId, eventId: EventId, now: Date): TE.TaskEither<StoreError, O.Option<EventRecord>>;
  /**
   * The client's events ascending by id, filtered. Paging on with
   * `startingAfter` = the last id seen never skips an event: an event whose
   * append is still under way keeps every later id out of the answer until it
   * is stored (an adapter may give up on an append that died after a bound it documents).
   */
  list(clientId: ClientId, page: PageRequest, filter: EventFilter, now: Date): TE.TaskEither<StoreError, Page<EventRecord>>;
  /**
   * Replay (docs/sandbox-over-time.md): up to `limit` of the client's unexpired events created
   * at or after `since` and before `until`, ascending by id; never a test event.
   */
  listWindow(
    clientId: ClientId,
    since: Timestamp,
    until: Timestamp,
    limit: number,
    now: Date,
  ): TE.TaskEither<StoreError, ReadonlyArray<EventRecord>>;
  /**
   * Unexpired events not yet fanned out, in turn across clients
   * (docs/decisions/tenancy.md, fair webhooks): of each of up to `turn.clients` clients
   * that have any, its oldest `turn.perClient`; the clients after
   * `turn.afterClient` in id order first, then (wrapping around) the others,
   * each once. So one client's thousands of events wait behind its own, never
   * in front of another client's. A store answers it from an index, not a scan.
   */
  pendingFanOut(turn: FanOutTurn, now: Date): TE.TaskEither<StoreError, ReadonlyArray<EventRecord>>;
  /** Mark the events fanned out, in one command (idempotent). */
  markFannedOut(eventIds: ReadonlyArray<EventId>): TE.TaskEither<StoreError, void>;
}

/** Which pending events a fan-out pass takes (`EventOutbox.pendingFanOut`). */
export interface FanOutTurn {
  /** At most this many events of one client. */
  readonly perClient: number;
  /** At most this many clients. */
  readonly clients: number;
  /** The client the previous pass ended with; absent: start from the lowest client id. */
  readonly afterClient?: ClientId;
}
