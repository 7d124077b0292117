/**
 * Events (DESIGN 7.11): each use case that makes a change records its event
 * with `emitEvent`, as the last step of its pipeline, so an event exists only
 * for a change that was made. The event's object is rendered once, in the
 * client's pinned API version, and stored that way.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { DomainError } from '../domain/errors.js';
import { EVENT_RETENTION_MS, EventType, WebhookEvent, toEventView } from '../domain/webhook.js';
import type { ClientId, Id, Timestamp } from '../domain/primitives.js';
import type { Page } from '../ports/paging.js';
import { type RenderContext, type ResponseKind, versioning as productionVersioning } from '../versioning/versions.js';
import type { EventListQuery } from './webhook-requests.js';
import { ApplicationDeps, UserScope, mapPage, orNotFound, toPageRequest } from './deps.js';
import { redactErasedEvents } from './erasure.js';

const isRecordObject = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * Record the event of a change the caller has just made. `object` is the
 * resource in the latest shape, as the endpoint of `kind` answers it.
 * @example pipe(createPlan, TE.chainFirst(emitEvent(deps, scope, 'payment_plan.created', 'payment_plan')))
 */
export const emitEvent =
  (deps: Pick<ApplicationDeps, 'clients' | 'clock' | 'events' | 'versioning'>, scope: UserScope, type: EventType, kind: ResponseKind, context?: RenderContext) =>
  <A>(object: A): TE.TaskEither<DomainError, void> => {
    const now = deps.clock.now();
    return pipe(
      scope.apiVersion === undefined
        ? pipe(deps.clients.findById(scope.clientId), orNotFound('Client'), TE.map((client) => client.api_version))
        : TE.right(scope.apiVersion),
      TE.chain((apiVersion) => {
        const rendered = (deps.versioning ?? productionVersioning).render(kind, object, apiVersion, context);
        return deps.events.append({
          client_id: scope.clientId,
          type,
          created_at: now.toISOString() as Timestamp,
          api_version: apiVersion,
          data: { user_id: scope.userId, object: isRecordObject(rendered) ? rendered : { value: rendered } },
          expires_at: new Date(now.getTime() + EVENT_RETENTION_MS).toISOString() as Timestamp,
        });
      }),
      TE.map(() => undefined),
    );
  };

/** The client's events; those of an erased user with their personal fields emptied (DESIGN 4.9). */
export const listEvents =
  (deps: Pick<ApplicationDeps, 'clock' | 'events' | 'erasures'>) =>
  (clientId: ClientId, query: EventListQuery): TE.TaskEither<DomainError, Page<WebhookEvent>> =>
    pipe(
      deps.events.list(
        clientId,
        toPageRequest(query),
        { ...(query.type === undefined ? {} : { type: query.type }), ...(query.user_id === undefined ? {} : { user_id: query.user_id }) },
        deps.clock.now(),
      ),
      TE.map(mapPage(toEventView)),
      TE.chain((page) => pipe(redactErasedEvents(deps)(clientId, page.items), TE.map((items) => ({ items: [...items], hasMore: page.hasMore })))),
    );

/** One event; redacted as in `listEvents` when its user is erased. */
export const getEvent =
  (deps: Pick<ApplicationDeps, 'clock' | 'events' | 'erasures'>) =>
  (clientId: ClientId, eventId: Id): TE.TaskEither<DomainError, WebhookEvent> =>
    pipe(
      deps.events.get(clientId, eventId, deps.clock.now()),
      orNotFound('Event'),
      TE.map(toEventView),
      TE.chain((event) => pipe(redactErasedEvents(deps)(clientId, [event]), TE.map((items) => items[0] ?? event))),
    );

