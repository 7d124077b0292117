/**
 * Erasure (docs/decisions/tenancy.md): once a user's delete has committed, nothing personal of
 * that user is readable through an endpoint, a webhook or an Idempotency-Key
 * replay. The delete's transaction stores an `ErasureMarker`; events are
 * redacted by it when they are read or delivered, so the stored records need
 * not be rewritten for the guarantee to hold.
 *
 * Personal, per docs/decisions/tenancy.md: the user's names, email, date of birth and phone,
 * and the user's accounts. So an erased user's events keep their envelope,
 * their ids and their shape (a client decoding them in its pinned version
 * still can), with these fields emptied:
 * - a user object (`user.deleted`): `last_name` → `""`, `first_name`, `email`,
 *   `date_of_birth`, `phone` → `null`;
 * - a credit score object (`credit_score.created`): `last_name` → `null`;
 * - an account object (`account.*`): everything but `id`, `type`, `subtype`,
 *   `status` and `last_updated_at` is emptied: `null` where the field may be
 *   null, `""` for the name, `0` for the balance, `[]` for the payment history.
 * Plans, payments and the bureau status carry ids, amounts and dates only;
 * they are left as they are.
 */
import * as t from 'io-ts';
import { ClientId, Timestamp, UserId } from '../shared/primitives.js';
import { User, UserFields } from './user.js';
import { EVENT_RETENTION_MS, type EventType } from '../webhooks/webhook.js';

/**
 * What the delete's transaction stores for each erased user: the owner and
 * the user id, never anything personal. Kept until every record it redacts
 * has expired (`expires_at`).
 */
export const ErasureMarker = t.type(
  {
    client_id: ClientId,
    user_id: UserId,
    erased_at: Timestamp,
    expires_at: Timestamp,
  },
  'ErasureMarker',
);
export type ErasureMarker = t.TypeOf<typeof ErasureMarker>;

/**
 * How long a marker is kept: past the retention of every event (30 days from
 * its creation, docs/decisions/webhooks.md) and Idempotency-Key (24 hours) made before the
 * delete, with a day to spare.
 */
export const ERASURE_MARKER_RETENTION_MS = EVENT_RETENTION_MS + 86_400_000;

/** The marker of a delete committed at `now`. */
export const erasureMarker = (clientId: ClientId, userId: UserId, now: Date): ErasureMarker => ({
  client_id: clientId,
  user_id: userId,
  erased_at: now.toISOString() as Timestamp,
  expires_at: new Date(now.getTime() + ERASURE_MARKER_RETENTION_MS).toISOString() as Timestamp,
});

/**
 * One kind of object's row of personal data: the fields that are personal, and the codec that says
 * which empty value each accepts. Each feature whose objects carry personal data gives its row
 * (users' is `USER_PERSONAL_DATA` below; `accounts/personal-data.ts`, `credit-scores/personal-data.ts`);
 * the registry's table names them all (`registry/erasure.ts`, docs/architecture.md).
 */
export interface PersonalDataRow {
  readonly codec: t.InterfaceType<t.Props>;
  readonly fields: ReadonlyArray<string>;
}

/** The user's own personal fields. */
export const USER_PERSONAL_DATA: PersonalDataRow = {
  codec: UserFields,
  fields: ['first_name', 'last_name', 'email', 'date_of_birth', 'phone'],
};

/** The emptiest value a field's codec accepts, in this order. */
const EMPTY_CANDIDATES: ReadonlyArray<unknown> = [null, '', 0, []];

/**
 * A row's personal fields, each with the value it is emptied to (worked out once from the codec, so
 * the object stays valid for it). A field no candidate fits is a programming error, refused at load.
 */
export const emptiedFields = (kind: string, row: PersonalDataRow): ReadonlyArray<readonly [string, unknown]> =>
  row.fields.map((field) => {
    const fieldCodec = row.codec.props[field];
    const fits = fieldCodec === undefined ? -1 : EMPTY_CANDIDATES.findIndex((candidate) => fieldCodec.is(candidate));
    if (fits < 0) throw new Error(`erasure: ${kind}.${field} has no empty value its codec accepts`);
    return [field, EMPTY_CANDIDATES[fits]] as const;
  });

/**
 * `object` with the `emptied` fields emptied. Only fields the object has are touched (an older
 * version's shape may lack some); a fresh object is returned, the argument is not changed.
 */
export const redactFields = <A extends Readonly<Record<string, unknown>>>(
  emptied: ReadonlyArray<readonly [string, unknown]>,
  object: A,
): A => {
  const copy: Record<string, unknown> = { ...object };
  for (const [field, empty] of emptied) {
    if (Object.hasOwn(copy, field)) copy[field] = Array.isArray(empty) ? [] : empty;
  }
  // Same keys as `object`, each value one its codec accepts.
  return copy as A;
};

const USER_EMPTIED = emptiedFields('user', USER_PERSONAL_DATA);

/**
 * An event of an erased user is still delivered only if it is the erasure's own
 * `user.deleted` (which carries nothing personal); any other is canceled.
 */
export const deliverableAfterErasure = (type: EventType): boolean => type === 'user.deleted';

/** The user as `user.deleted` carries it in `2024-07-01`: ids and creation time, personal fields emptied. */
export const erasedUserView = (user: User): User => redactFields(USER_EMPTIED, user);
