/**
 * 2026-11-26: `user.deleted` carries ids only (docs/decisions/tenancy.md).
 *
 * Why: the event of an erasure carried the user with every personal field
 * emptied (`""` for `last_name`, `null` for the others): fields that look like
 * data and say nothing, in a shape an integrator must special-case anyway.
 * From 2026-11-26 its `data.object` is `{ id }` (the user id is also in
 * `data.user_id`). `2024-07-01` keeps the emptied user, byte for byte, from
 * the render context stored with the event (the emptied user holds nothing
 * personal: its id, its creation time and the empty fields).
 */
import * as t from 'io-ts';
import { isRight } from 'fp-ts/lib/Either.js';
import { Id } from '../shared/primitives.js';
import { User } from './user.js';
import type { RenderContext, VersionChange } from '../shared/versioning/version-change.js';
import type { EventType } from '../webhooks/webhook.js';

/** `user.deleted`'s `data.object` from 2026-11-26 on: the user's id only. */
export const DeletedUser = t.type({ id: Id }, 'DeletedUser');

/**
 * The event types whose `data.object`, in the latest version, is not the
 * resource as its endpoint answers it: the codec it is instead (the OpenAPI
 * document describes it with this).
 */
export const LATEST_EVENT_OBJECT_CODECS: Partial<Record<EventType, t.Mixed>> = { 'user.deleted': DeletedUser };

/** The key of this change's part of a `user.deleted`'s render context. */
const CONTEXT_KEY = 'user_deleted';

const UserDeletedContext = t.type({ [CONTEXT_KEY]: t.type({ emptied_user: User }) });

const isPlainObject = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * What `deleteUser` stores for the event: the latest shape (ids only) and what
 * `2024-07-01` renders it from.
 * @example userDeletedEvent(erasedUserView(user)) // { object: { id: 7 }, context: { user_deleted: { emptied_user: {...} } } }
 */
export const userDeletedEvent = (emptiedUser: User): { readonly object: { readonly id: User['id'] }; readonly context: RenderContext } => ({
  object: { id: emptiedUser.id },
  context: { [CONTEXT_KEY]: { emptied_user: emptiedUser } },
});

export const userDeletedIdsOnly: VersionChange = {
  version: '2026-11-26',
  description:
    '`user.deleted` carries ids only: its `data.object` is `{ id }`. Before, it was the user with every personal field emptied ' +
    '(`""` for `last_name`, `null` for the others), fields that looked like data and said nothing.',
  // The 2024-07-01 document's `user.deleted` payload: the emptied user, under the latest codec's name.
  previousCodecs: [t.intersection(User.types, 'DeletedUser')],
  transforms: {
    event: (body, context) => {
      if (!isPlainObject(body) || body['type'] !== 'user.deleted' || !isPlainObject(body['data'])) return body;
      const decoded = UserDeletedContext.decode(context);
      // Without its context (a body not built by `userDeletedEvent`) there is nothing to render from: left as it is.
      if (!isRight(decoded)) return body;
      return { ...body, data: { ...body['data'], object: { ...decoded.right[CONTEXT_KEY].emptied_user } } };
    },
  },
};
