/**
 * Redaction by erasure marker (docs/decisions/tenancy.md) in the events API: an erased user's events
 * are read with their personal fields emptied. What is personal is the registry's table
 * (`registry/erasure.ts`, naming features above webhooks), given as `ApplicationDeps.eventRedaction`.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import type { StoreError } from '../shared/errors.js';
import type { ClientId } from '../shared/primitives.js';
import type { ApplicationDeps } from '../shared/deps.js';
import type { WebhookEvent } from './webhook.js';

/** An event with its user's personal fields emptied (the registry's `redactEvent`). */
export type EventRedaction = (event: WebhookEvent) => WebhookEvent;

/** `events` (all of one client) with those of erased users redacted by `deps.eventRedaction`, in one registry read. */
export const redactErasedEventsWith =
  (deps: Pick<ApplicationDeps, 'erasures' | 'eventRedaction'>) =>
  (clientId: ClientId, events: ReadonlyArray<WebhookEvent>): TE.TaskEither<StoreError, ReadonlyArray<WebhookEvent>> =>
    events.length === 0
      ? TE.right(events)
      : pipe(
          // Client-level events (a disabled webhook endpoint) have no user: nothing of a user to redact.
          deps.erasures.erasedAmong(clientId, [...new Set(events.flatMap((e) => (e.data.user_id === null ? [] : [e.data.user_id])))]),
          TE.map((erased) =>
            erased.size === 0
              ? events
              : events.map((e) => (e.data.user_id !== null && erased.has(e.data.user_id) ? deps.eventRedaction(e) : e)),
          ),
        );
