/**
 * Events through versions (docs/decisions/versioning.md, docs/decisions/webhooks.md). An event's `data.object` is a
 * resource as its endpoint answers it, so a version change to that resource
 * changes the events that carry it too. Each change is written once, for the
 * resource's response kind; `withEventObjectTransforms` derives its `event`
 * transform from the table below, so no change has to remember the events.
 */
import { WebhookEvent, toEventView, type EventRecord, type EventType } from './webhook.js';
import type { BodyTransform, RenderContext } from '../shared/versioning/field-transforms.js';
import type { ResponseKind, VersionChange, VersionRelease, Versioning } from '../shared/versioning/version-change.js';
import { NO_RENDER_CONTEXT } from '../shared/versioning/version-change.js';

/**
 * The response kind of each event type's `data.object`. Every event type must
 * have one, and nothing else may be listed: the compiler checks both.
 */
export const EVENT_OBJECT_KIND = {
  'bureau_auth.completed': 'bureau_status',
  'credit_score.created': 'credit_score',
  'account.created': 'account',
  'account.updated': 'account',
  'account.closed': 'account',
  'payment_plan.created': 'payment_plan',
  'payment_plan.deleted': 'payment_plan',
  'plan_payment.created': 'plan_payment',
  'user.deleted': 'user',
  'webhook_endpoint.disabled': 'webhook_endpoint',
} as const satisfies { readonly [T in EventType]: ResponseKind };

/** The response kind an event of type `T` carries. */
export type EventObjectKind<T extends EventType> = (typeof EVENT_OBJECT_KIND)[T];

const isPlainObject = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);

const objectKindOf = (type: unknown): ResponseKind | undefined =>
  typeof type === 'string' && Object.hasOwn(EVENT_OBJECT_KIND, type) ? EVENT_OBJECT_KIND[type as EventType] : undefined;

/**
 * The `event` transform of `change`: first the change's own `event` transform
 * (for a change of one event type's object, e.g. `user.deleted`), then the
 * change's transform of the object's kind applied to `data.object`. A body
 * that is not an event passes through unchanged.
 */
const eventTransformOf = (change: VersionChange): BodyTransform | undefined => {
  const own = change.transforms.event;
  const transformsAnObject = Object.values(EVENT_OBJECT_KIND).some((kind) => change.transforms[kind] !== undefined);
  if (!transformsAnObject) return own;
  return (body: unknown, context: RenderContext = NO_RENDER_CONTEXT) => {
    const event = own === undefined ? body : own(body, context);
    if (!isPlainObject(event) || !isPlainObject(event['data'])) return event;
    const kind = objectKindOf(event['type']);
    const transform = kind === undefined ? undefined : change.transforms[kind];
    if (transform === undefined) return event;
    const data = event['data'];
    return { ...event, data: { ...data, object: transform(data['object'], context) } };
  };
};

/**
 * `releases` with every change's `event` transform derived (see
 * `eventTransformOf`). `event_list` is not derived: each event has its own
 * render context, so a list of events is rendered item by item (`renderEvent`).
 * `makeVersioning` applies it to the releases it is given.
 */
export const withEventObjectTransforms = (releases: ReadonlyArray<VersionRelease>): ReadonlyArray<VersionRelease> =>
  releases.map((release) => ({
    ...release,
    changes: release.changes.map((change) => {
      const event = eventTransformOf(change);
      return event === undefined || event === change.transforms.event ? change : { ...change, transforms: { ...change.transforms, event } };
    }),
  }));

/**
 * `event` as `version` shapes it. An event stored since 2026-11-26 (with a
 * render context) holds its object in the shape of its `api_version`, the
 * latest when it was stored: it is rendered down to `version` through the
 * version changes in between, and says `version`. An event stored before
 * (no render context) was rendered once, in its client's version of the day:
 * it is served as stored, saying that version. A version newer than the one an
 * event was stored in cannot be made from it (nothing says what the newer
 * fields would be): such a reader gets the stored shape, which its
 * `api_version` names. `version` must be known to `versioning`. The
 * registry's transforms start from its own latest: once a newer release
 * exists, an event stored in the shape of an earlier latest is served as
 * stored too (rendering it down would need the transforms between two
 * versions, which `Versioning` does not offer yet).
 * @example renderEvent(versioning, stored, '2024-07-01').api_version // '2024-07-01'
 */
export const renderEvent = (versioning: Versioning, event: EventRecord, version: string): WebhookEvent => {
  const view = toEventView(event);
  const context = event.render_context;
  // Only a body in the registry's latest shape can go through its transforms (they start from the latest).
  if (context === undefined || event.api_version !== versioning.latest || version === event.api_version || version > event.api_version)
    return view;
  const rendered = versioning.render('event', view, version, context);
  // A transform that breaks the envelope is a bug: better a 500 than a malformed event sent.
  if (!WebhookEvent.is(rendered))
    throw new Error(`renderEvent: rendering event ${event.id} (${event.type}) for ${version} broke its envelope`);
  return { ...rendered, api_version: version };
};
