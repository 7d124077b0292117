/**
 * Endpoint health (docs/decisions/tenancy.md, fair webhooks): the delivery worker reports
 * each attempt's outcome; an endpoint whose attempts have failed for 3 days
 * in a row (no success since) is disabled with `disabled_reason: failing`,
 * and the client gets a `webhook_endpoint.disabled` event, in ONE transaction
 * (docs/decisions/transactions.md). Only a change of health writes: the first failure after a
 * success, the first success after failures, and the disable.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import { type NotFound, type StoreError } from '../shared/errors.js';
import { endpointHealthAfter, toWebhookEndpointView, type EndpointHealthChange, type WebhookEndpointRecord } from './webhook.js';
import type { TransactionPorts } from '../shared/store-ports.js';
import { ApplicationDeps, inTransaction, orNotFound } from '../shared/deps.js';
import { emitEvent } from './events.use-cases.js';

type HealthDeps = Pick<ApplicationDeps, 'unitOfWork' | 'clock' | 'versioning'>;

/** Disable the endpoint for failing and append its event, in the transaction `tx`. */
const disableForFailing = (
  deps: HealthDeps,
  tx: TransactionPorts,
  endpoint: WebhookEndpointRecord,
  now: Date,
): TE.TaskEither<NotFound | StoreError, void> =>
  pipe(
    tx.webhookEndpoints.update(endpoint.client_id, endpoint.id, endpoint.version, { status: 'disabled', disabled_reason: 'failing' }),
    orNotFound('Webhook endpoint'),
    // Stored in the latest shape and rendered for each reader, as every event (events.ts). The client is still
    // read in this transaction, as before events stopped needing its version: without that read the mongo
    // fairness test's drain missed the event's fan-out (webhook-fairness.test.ts), a timing not yet understood.
    TE.chainW((disabled) =>
      pipe(
        tx.clients.findById(endpoint.client_id),
        orNotFound('Client'),
        TE.chainW(() =>
          emitEvent(
            { events: tx.events, clock: { now: () => now }, versioning: deps.versioning },
            { clientId: endpoint.client_id, userId: null },
            'webhook_endpoint.disabled',
            'webhook_endpoint',
          )(toWebhookEndpointView(disabled)),
        ),
      ),
    ),
  );

/**
 * Record what one attempt to `endpoint` (as the worker read it for the
 * attempt) says about its health. Nothing is written when nothing changes;
 * otherwise one transaction re-reads the endpoint and decides again from it
 * (a client's PATCH or another process may have changed it since), with
 * compare-and-set on its version. Answers the change made.
 */
export const recordEndpointAttempt =
  (deps: HealthDeps) =>
  (endpoint: WebhookEndpointRecord, succeeded: boolean): TE.TaskEither<NotFound | StoreError, EndpointHealthChange['change']> => {
    const now = deps.clock.now();
    if (endpointHealthAfter(endpoint, succeeded, now).change === 'unchanged') return TE.right('unchanged');
    return inTransaction(deps, (tx) =>
      pipe(
        tx.webhookEndpoints.get(endpoint.client_id, endpoint.id),
        TE.chainW(
          O.match(
            // Deleted meanwhile: nothing left to record.
            () => TE.right<never, EndpointHealthChange['change']>('unchanged'),
            (current) => {
              const health = endpointHealthAfter(current, succeeded, now);
              const write: TE.TaskEither<NotFound | StoreError, unknown> =
                health.change === 'unchanged'
                  ? TE.right(undefined)
                  : health.change === 'disable'
                    ? disableForFailing(deps, tx, current, now)
                    : tx.webhookEndpoints.update(current.client_id, current.id, current.version, {
                        failing_since: health.change === 'failing' ? health.failing_since : null,
                      });
              return pipe(
                write,
                TE.map(() => health.change),
              );
            },
          ),
        ),
      ),
    );
  };
