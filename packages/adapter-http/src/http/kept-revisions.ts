/**
 * The revision of a body a memo made (render-cache.ts): the key it was made under,
 * by the body itself. A memo answers the same object for the same key, so the
 * render cache keeps that object's bytes by its key, with no revision read off
 * its fields. Used by the computations' memo (compute/computation-memo.ts: a
 * credit outlook, by its input) and the account views' (account-views.ts: a
 * view, by its account's id, version and today). The render cache's key puts the
 * kind first, so two memos' keys never meet.
 */

/** The key each kept body was made under, by the body itself. */
const revisions = new WeakMap<object, string>();

/** Record that `body` (which the memo keeps, unchanged, under `key`) is named by `key`. */
export const keepRevision = (body: object, key: string): void => {
  revisions.set(body, key);
};

/** The revision of a body a memo made (its key), or undefined for any other body. */
export const keptRevision = (body: unknown): string | undefined =>
  typeof body === 'object' && body !== null ? revisions.get(body) : undefined;
