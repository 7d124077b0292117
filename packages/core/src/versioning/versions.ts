/**
 * API versions (docs/decisions/versioning.md). Versions are release dates `YYYY-MM-DD`.
 * Responses are always built in the latest shape; for a client on an older
 * version, `render` passes the body through each version change newer than
 * that version, newest first (Stripe's "version change" modules), so handlers
 * never know about old shapes.
 *
 * Releasing a backward-incompatible change: add a release with today's date and
 * a `VersionChange` whose transforms turn the new shape back into the previous
 * one (see `field-transforms.ts`), for every response kind it affects, lists
 * included (`mapListItems`).
 */
import * as t from 'io-ts';
import { IsoDate } from '../shared/primitives.js';
import type { BodyTransform, RenderContext } from './field-transforms.js';

import { RELEASES } from './releases.js';
import { withEventObjectTransforms } from './event-objects.js';

export * from './field-transforms.js';
export * from './event-objects.js';
export { RELEASES } from './releases.js';
export { DeletedUser, userDeletedEvent, userDeletedIdsOnly } from './changes/user-deleted-ids-only.js';

/** The version this build speaks natively, and the one new clients are pinned to (the newest of `RELEASES`). */
export const CURRENT_VERSION = '2026-11-26';

/** The response shapes a version change can transform (one per resource or list body). */
export const ResponseKind = t.keyof(
  {
    credit_score: null,
    credit_score_history: null,
    account: null,
    account_list: null,
    user: null,
    user_list: null,
    bureau_status: null,
    bureau_step: null,
    learning_modules: null,
    payment_plan: null,
    payment_plan_list: null,
    plan_payment: null,
    plan_payment_list: null,
    payment_plan_comparison: null,
    payment_plan_progress: null,
    credit_outlook: null,
    debt_calculation: null,
    article: null,
    article_list: null,
    ping: null,
    event: null,
    event_list: null,
    webhook_endpoint: null,
    webhook_endpoint_list: null,
    webhook_delivery_list: null,
    event_redelivery: null,
    webhook_replay: null,
    sandbox_advance: null,
  },
  'ResponseKind',
);
export type ResponseKind = t.TypeOf<typeof ResponseKind>;

export interface VersionChange {
  /** The version that introduced the change; responses for older versions get the transform. */
  readonly version: string;
  readonly description: string;
  /** Per response kind, turn a body of `version`'s shape into the previous version's shape, without mutating it. */
  readonly transforms: Partial<Record<ResponseKind, BodyTransform>>;
}

export interface VersionRelease {
  readonly version: string;
  readonly changes: ReadonlyArray<VersionChange>;
}

export interface Versioning {
  /** The newest release. */
  readonly latest: string;
  /** Every release, oldest first. */
  readonly known: ReadonlyArray<string>;
  isKnown(version: string): boolean;
  /**
   * The latest-shape `body` of kind `kind`, as `version` shapes it. Returns
   * `body` itself (same reference, no work) for the latest version or when no
   * newer change touches `kind`. `version` must be known (check `isKnown` first:
   * the HTTP adapter answers 400 `unsupported_version`); an unknown one throws,
   * because serving some guessed shape would be a silent bug.
   * `context` is handed to every transform: what an older shape needs that the
   * newer body does not carry (a stored event keeps its own).
   * @example versioning.render('credit_score', body, '2024-07-01') === body
   */
  render(kind: ResponseKind, body: unknown, version: string, context?: RenderContext): unknown;
}

const composeAll =
  (transforms: ReadonlyArray<BodyTransform>): BodyTransform =>
  (body, context) =>
    transforms.reduce((b, f) => f(b, context), body);

/**
 * Build a registry from releases (in any order). Each transform pipeline is
 * composed here, once, so `render` is a lookup and a call.
 *
 * Throws on a malformed registry (a version that is not a real `YYYY-MM-DD`
 * date, a duplicate release, a change filed under another release, an unknown
 * response kind, no release at all): it is a programming error that must stop
 * the process at start-up, not a condition a caller can handle.
 *
 * @example
 * const v = makeVersioning([
 *   { version: '2024-07-01', changes: [] },
 *   { version: '2025-01-01', changes: [{ version: '2025-01-01', description: 'score → value',
 *     transforms: { credit_score: renameField('value', 'score') } }] },
 * ]);
 * v.render('credit_score', { value: 700 }, '2024-07-01') // { score: 700 }
 */
export const makeVersioning = (given: ReadonlyArray<VersionRelease>): Versioning => {
  // Every change to a resource changes the events that carry it too (event-objects.ts).
  const releases = withEventObjectTransforms(given);
  if (releases.length === 0) throw new Error('makeVersioning: at least one release is required');
  const seen = new Set<string>();
  for (const release of releases) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(release.version) || !IsoDate.is(release.version)) {
      throw new Error(`makeVersioning: release version "${release.version}" is not a YYYY-MM-DD date`);
    }
    if (seen.has(release.version)) throw new Error(`makeVersioning: release ${release.version} is listed twice`);
    seen.add(release.version);
    for (const change of release.changes) {
      if (change.version !== release.version) {
        throw new Error(`makeVersioning: change "${change.description}" (${change.version}) is filed under release ${release.version}`);
      }
      for (const kind of Object.keys(change.transforms)) {
        if (!ResponseKind.is(kind)) throw new Error(`makeVersioning: change "${change.description}" names unknown response kind "${kind}"`);
      }
    }
  }

  // YYYY-MM-DD strings sort chronologically as plain strings.
  const ordered = [...releases].sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  const known = Object.freeze(ordered.map((r) => r.version));
  const latest = known[known.length - 1] as string;

  // For each release, the transforms of every newer release, newest first;
  // within one release, changes are undone in reverse of their listed order.
  const pipelines = new Map<string, Partial<Record<ResponseKind, BodyTransform>>>();
  const pending: Partial<Record<ResponseKind, BodyTransform[]>> = {};
  for (let i = ordered.length - 1; i >= 0; i--) {
    const release = ordered[i] as VersionRelease;
    const composed: Partial<Record<ResponseKind, BodyTransform>> = {};
    for (const [kind, list] of Object.entries(pending) as Array<[ResponseKind, BodyTransform[]]>) {
      composed[kind] = list.length === 1 ? (list[0] as BodyTransform) : composeAll([...list]);
    }
    pipelines.set(release.version, composed);
    for (const change of [...release.changes].reverse()) {
      for (const [kind, transform] of Object.entries(change.transforms) as Array<[ResponseKind, BodyTransform | undefined]>) {
        if (transform !== undefined) (pending[kind] ??= []).push(transform);
      }
    }
  }

  return {
    latest,
    known,
    isKnown: (version) => pipelines.has(version),
    render: (kind, body, version, context) => {
      // The common case on every request: nothing to do, not even a lookup.
      if (version === latest) return body;
      const pipeline = pipelines.get(version);
      if (pipeline === undefined) throw new Error(`render: unknown API version "${version}" (check isKnown first)`);
      const transform = pipeline[kind];
      return transform === undefined ? body : transform(body, context);
    },
  };
};

/** The production registry: every release (`releases.ts`). */
export const versioning: Versioning = makeVersioning(RELEASES);
if (versioning.latest !== CURRENT_VERSION) throw new Error(`versions: CURRENT_VERSION ${CURRENT_VERSION} is not the newest release ${versioning.latest}`);
