/**
 * Redaction by erasure marker (docs/decisions/tenancy.md), where records of a deleted user can
 * still be read: the events API, webhook deliveries and Idempotency-Key
 * replays. Each asks the `ErasureRegistry` once for the users it is about.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import { type StoreError } from '../shared/errors.js';
import { deliverableAfterErasure } from '../users/erasure.js';
import { redactEvent } from './erasure.js';
import type { EventRecord, WebhookEvent } from '../webhooks/webhook.js';
import type { ClientId, UserId } from '../shared/primitives.js';
import type { ApplicationDeps } from '../shared/deps.js';
import { renderEvent } from '../webhooks/event-objects.js';
import { redactErasedEventsWith } from '../webhooks/event-redaction.js';

/** `events` (all of one client) with those of erased users redacted, in one registry read (`redactErasedEventsWith` and this table's `redactEvent`). */
export const redactErasedEvents =
  (deps: Pick<ApplicationDeps, 'erasures'>) =>
  (clientId: ClientId, events: ReadonlyArray<WebhookEvent>): TE.TaskEither<StoreError, ReadonlyArray<WebhookEvent>> =>
    redactErasedEventsWith({ erasures: deps.erasures, eventRedaction: redactEvent })(clientId, events);

/** Is `userId` an erased user of `clientId`? */
export const isUserErased =
  (deps: Pick<ApplicationDeps, 'erasures'>) =>
  (clientId: ClientId, userId: UserId): TE.TaskEither<StoreError, boolean> =>
    pipe(
      deps.erasures.erasedAmong(clientId, [userId]),
      TE.map((erased) => erased.has(userId)),
    );

/**
 * What a webhook delivery of `event` may send, read at delivery time: the
 * event in `version` (its endpoint's, `renderEvent`), or `none` when its user has been erased since
 * (the delivery is then canceled, not sent). The erasure's own `user.deleted`
 * is still delivered, its personal fields emptied. A delivery created by a
 * fan-out that raced the delete is caught here. A test event goes out as it
 * is, with `"test": true` added.
 */
export const deliverableEvent =
  (deps: Pick<ApplicationDeps, 'erasures' | 'versioning'>) =>
  (event: EventRecord, version: string): TE.TaskEither<StoreError, O.Option<WebhookEvent & { readonly test?: true }>> =>
    // A test event (docs/webhook-replay.md) carries sample data, no user's: it goes out as it is, marked `"test": true`.
    event.test === true
      ? TE.right(O.some({ ...renderEvent(deps.versioning, event, version), test: true as const }))
      : pipe(
          event.data.user_id === null ? TE.right(false) : isUserErased(deps)(event.client_id, event.data.user_id),
          TE.map((erased) => {
            if (erased && !deliverableAfterErasure(event.type)) return O.none;
            const rendered = renderEvent(deps.versioning, event, version);
            return O.some(erased ? redactEvent(rendered) : rendered);
          }),
        );
