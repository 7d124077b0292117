/**
 * The erasure's redaction table (docs/decisions/tenancy.md): every feature's row of personal data, by
 * the kind of object that carries it, on the registry floor since it names every such feature
 * (docs/architecture.md). `redactEvent` reaches the events API as `ApplicationDeps.eventRedaction`
 * (`createApplication` fills it in); webhook deliveries and replays use it here
 * (`erasure.use-cases.ts`).
 */
import { emptiedFields, redactFields, type PersonalDataRow } from '../users/erasure.js';
import { featurePersonalData, type FeaturePersonalData } from './features.js';
import type { EventType, WebhookEvent } from '../webhooks/webhook.js';

/** The objects that carry personal data: the kinds the features' manifests declare rows for. */
type PersonalKind = keyof FeaturePersonalData;

/** Each kind's row, from the features' manifests (`personalData`, registry/features.ts). */
const PERSONAL_DATA: { readonly [K in PersonalKind]: PersonalDataRow } = featurePersonalData();

/** Per kind, each personal field and the value it is emptied to (worked out once, at load). */
const EMPTIED: { readonly [K in PersonalKind]: ReadonlyArray<readonly [string, unknown]> } = {
  user: emptiedFields('user', PERSONAL_DATA.user),
  credit_score: emptiedFields('credit_score', PERSONAL_DATA.credit_score),
  account: emptiedFields('account', PERSONAL_DATA.account),
};

/** The object kind each event type carries, where it is personal. */
const PERSONAL_EVENT_KIND: Partial<Record<EventType, PersonalKind>> = {
  'user.deleted': 'user',
  'credit_score.created': 'credit_score',
  'account.created': 'account',
  'account.updated': 'account',
  'account.closed': 'account',
};

/**
 * `object` with the personal fields of `kind` emptied. Only fields the object
 * has are touched (an older version's shape may lack some); a fresh object is
 * returned, the argument is not changed.
 * @example redactObject('user', { id: 7, last_name: 'Doe', email: 'd@x.io' }) // { id: 7, last_name: '', email: null }
 */
export const redactObject = <A extends Readonly<Record<string, unknown>>>(kind: PersonalKind, object: A): A =>
  redactFields(EMPTIED[kind], object);

/**
 * The event as it may be shown once its user is erased: the envelope and ids
 * as they are, the object's personal fields emptied.
 */
export const redactEvent = (event: WebhookEvent): WebhookEvent => {
  const kind = PERSONAL_EVENT_KIND[event.type];
  if (kind === undefined) return event;
  return { ...event, data: { user_id: event.data.user_id, object: redactObject(kind, event.data.object) } };
};
