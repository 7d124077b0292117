/**
 * What a test webhook sends (docs/webhook-replay.md): one sample object per event type. Webhooks
 * define the port; the samples themselves are built from the features above them (accounts, credit
 * scores, plans, the demo's accounts), so the registry gives them (`registry/webhook-samples.ts`,
 * `ApplicationDeps.webhookSamples`, filled in by `createApplication`; docs/architecture.md).
 */
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { ValidationError } from '../shared/errors.js';
import type { ApplicationDeps } from '../shared/deps.js';
import type { IsoDate, Timestamp, UserId } from '../shared/primitives.js';
import type { ResponseKind } from '../shared/versioning/version-change.js';
import type { EventType, WebhookEndpointRecord } from './webhook.js';

export interface SampleObject {
  /** The response kind the object is rendered as (the event's resource). */
  readonly kind: ResponseKind;
  /** The user the sample change is about; null for a change of the client's own. */
  readonly userId: UserId | null;
  readonly object: unknown;
}

/** The sample object of an event of `type`, for `endpoint`, dated `today` / `now`. */
export type SampleEventObject = (
  deps: Pick<ApplicationDeps, 'computations'>,
  type: EventType,
  endpoint: WebhookEndpointRecord,
  today: IsoDate,
  now: Timestamp,
) => TE.TaskEither<ValidationError, SampleObject>;
