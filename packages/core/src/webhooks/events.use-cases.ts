/**
 * Events (docs/decisions/webhooks.md): each use case that makes a change records its event
 * with `emitEvent`, as the last step of its pipeline, so an event exists only
 * for a change that was made. The event is stored once, in the latest shape,
 * with the render context older versions need (docs/decisions/versioning.md), and rendered for
 * each reader: the events API in the request's version, each webhook delivery
 * in its endpoint's version (`renderEvent`).
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import { type NotFound, type Unavailable, type StoreError } from '../shared/errors.js';
import { EVENT_RETENTION_MS, EventType, WebhookEvent } from './webhook.js';
import type { ClientId, EventId, Timestamp, UserId } from '../shared/primitives.js';
import type { Page } from '../shared/paging.js';
import { renderEvent, type EventObjectKind } from './event-objects.js';
import type { RenderContext } from '../shared/versioning/version-change.js';
import type { EventListQuery } from './webhook-requests.js';
import { ApplicationDeps, mapPage, orNotFound, toPageRequest, outsideTransaction } from '../shared/deps.js';
import { redactErasedEventsWith } from './event-redaction.js';

const isRecordObject = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * Record the event of a change the caller has just made. `object` is the
 * resource in the latest shape, as the endpoint of `kind` answers it (the
 * compiler checks `kind` against the event type, `EVENT_OBJECT_KIND`);
 * `context` is what its older renderings need besides it (docs/decisions/tenancy.md), stored
 * with it.
 * @example pipe(createPlan, TE.chainFirstW(emitEvent(deps, scope, 'payment_plan.created', 'payment_plan')))
 */
export const emitEvent =
  <T extends EventType>(
    deps: Pick<ApplicationDeps, 'clock' | 'events' | 'versioning'>,
    // `userId` null: a change of the client's own (`webhook_endpoint.disabled`).
    scope: { readonly clientId: ClientId; readonly userId: UserId | null },
    type: T,
    _kind: EventObjectKind<T>,
    context: RenderContext = {},
  ) =>
  <A>(object: A): TE.TaskEither<StoreError, void> => {
    const now = deps.clock.now();
    return pipe(
      deps.events.append({
        client_id: scope.clientId,
        type,
        created_at: now.toISOString() as Timestamp,
        api_version: deps.versioning.latest,
        data: { user_id: scope.userId, object: isRecordObject(object) ? object : { value: object } },
        expires_at: new Date(now.getTime() + EVENT_RETENTION_MS).toISOString() as Timestamp,
        render_context: context,
      }),
      TE.map(() => undefined),
    );
  };

/**
 * The client's events in `version` (`renderEvent`); those of an erased user
 * with their personal fields emptied (docs/decisions/tenancy.md).
 */
export const listEvents =
  (deps: Pick<ApplicationDeps, 'clock' | 'events' | 'erasures' | 'versioning' | 'eventRedaction'>) =>
  (clientId: ClientId, query: EventListQuery, version: string): TE.TaskEither<Unavailable, Page<WebhookEvent>> =>
    pipe(
      outsideTransaction(
        deps.events.list(
          clientId,
          toPageRequest(query),
          { ...(query.type === undefined ? {} : { type: query.type }), ...(query.user_id === undefined ? {} : { user_id: query.user_id }) },
          deps.clock.now(),
        ),
      ),
      TE.map(mapPage((event) => renderEvent(deps.versioning, event, version))),
      TE.chainW((page) =>
        pipe(
          outsideTransaction(redactErasedEventsWith(deps)(clientId, page.items)),
          TE.map((items) => ({ items: [...items], hasMore: page.hasMore })),
        ),
      ),
    );

/** One event in `version`; redacted as in `listEvents` when its user is erased. */
export const getEvent =
  (deps: Pick<ApplicationDeps, 'clock' | 'events' | 'erasures' | 'versioning' | 'eventRedaction'>) =>
  (clientId: ClientId, eventId: EventId, version: string): TE.TaskEither<NotFound | Unavailable, WebhookEvent> =>
    pipe(
      outsideTransaction(deps.events.get(clientId, eventId, deps.clock.now())),
      // A test event (docs/sandbox-over-time.md) is not one of the client's events.
      TE.map(O.filter((e) => e.test !== true)),
      orNotFound('Event'),
      TE.map((event) => renderEvent(deps.versioning, event, version)),
      TE.chainW((event) =>
        pipe(
          outsideTransaction(redactErasedEventsWith(deps)(clientId, [event])),
          TE.map((items) => items[0] ?? event),
        ),
      ),
    );
