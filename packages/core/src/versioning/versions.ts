/**
 * API versions (docs/decisions/versioning.md). Versions are release dates `YYYY-MM-DD`.
 * Responses are always built in the latest shape; for a client on an older
 * version, `render` passes the body through each version change newer than
 * that version, newest first (Stripe's "version change" modules), so handlers
 * never know about old shapes. Requests go the other way: a body sent in an
 * older version is validated with that version's codec, then migrated forward,
 * oldest change first, before the latest codec decodes it.
 *
 * How to add a backward-incompatible change:
 * 1. Write ONE module under `changes/` exporting a `VersionChange`: its
 *    `description` (the changelog entry: what changed and why), `transforms`
 *    (per response kind, the new shape → the previous one; lists too, with
 *    `mapListItems`; a transform that needs what the new body dropped reads it
 *    from the `RenderContext`), `requests` (a reshaped request body: its
 *    previous codec and the migration forward) and `previousCodecs` (the
 *    previous codecs of reshaped responses, for older OpenAPI documents). Name
 *    previous codecs exactly as the latest ones.
 * 2. Add it to the release of the day it ships in `RELEASES` below (a new
 *    release is a new `{ version, changes }` entry; bump `CURRENT_VERSION`).
 * 3. Regenerate what is derived from the releases: the changelog page
 *    (`npm run docs:changelog`), the OpenAPI examples
 *    (`DEBTKIT_UPDATE_OPENAPI_EXAMPLES=1`, see test/openapi-examples.test.ts).
 */
import * as t from 'io-ts';
export * from './event-objects.js';
export { DeletedUser, userDeletedEvent, userDeletedIdsOnly } from './changes/user-deleted-ids-only.js';
import { userDeletedIdsOnly } from './changes/user-deleted-ids-only.js';
import * as E from 'fp-ts/lib/Either.js';
import { IsoDate } from '../shared/primitives.js';
import { decode } from '../shared/codec.js';
import type { ValidationError } from '../shared/errors.js';
import {
  ResponseKind,
  NO_RENDER_CONTEXT,
  type BodyTransform,
  type RenderContext,
  type RequestMigration,
  type VersionRelease,
} from './version-change.js';
import { paymentPlanSchedulePaged } from './changes/payment-plan-schedule-paged.js';
import { accountInstitutionFields } from './changes/account-institution-fields.js';
import { withEventObjectTransforms } from './event-objects.js';

export * from './version-change.js';
export * from './field-transforms.js';
export { planScheduleContext, PaymentPlan20240701 } from './changes/payment-plan-schedule-paged.js';
export { LinkAccountBody20240701, Account20240701 } from './changes/account-institution-fields.js';
export * from './changelog.js';

/** The first version: what every client created before 2026-11-26 is pinned to. */
export const VERSION_2024_07_01 = '2024-07-01';
/** Plans without their schedule; accounts linked with the institution's terms by their Account names. */
export const VERSION_2026_11_26 = '2026-11-26';

/** The version this build speaks natively, and the one new clients are pinned to. */
export const CURRENT_VERSION = VERSION_2026_11_26;

/** Every release and the changes it made, oldest first: the one list the registry, `GET /api/versions` and the changelog page read. */
export const RELEASES: ReadonlyArray<VersionRelease> = [
  { version: VERSION_2024_07_01, changes: [] },
  { version: VERSION_2026_11_26, changes: [paymentPlanSchedulePaged, accountInstitutionFields, userDeletedIdsOnly] },
];

export interface Versioning {
  /** The newest release. */
  readonly latest: string;
  /** Every release, oldest first. */
  readonly known: ReadonlyArray<string>;
  /** Every release with its changes, newest first: the changelog. */
  readonly releases: ReadonlyArray<VersionRelease>;
  isKnown(version: string): boolean;
  /**
   * The latest-shape `body` of kind `kind`, as `version` shapes it. Returns
   * `body` itself (same reference, no work) for the latest version or when no
   * newer change touches `kind`. `context` carries what an older shape needs
   * and the latest body does not (a plan's schedule: `planScheduleContext`).
   * `version` must be known (check `isKnown` first: the HTTP adapter answers
   * 400 `unsupported_version`); an unknown one throws, because serving some
   * guessed shape would be a silent bug.
   * @example versioning.render('credit_score', body, '2024-07-01') === body
   */
  render(kind: ResponseKind, body: unknown, version: string, context?: RenderContext): unknown;
  /**
   * A request body sent in `version`, for an endpoint whose latest body codec
   * is named `codecName`: validated with `version`'s own codec (so its errors
   * name that version's fields), then migrated forward to the latest shape.
   * Right(`body` itself) when no newer change reshaped it. Decode the result
   * with the latest codec.
   */
  migrateRequest(codecName: string, body: unknown, version: string): E.Either<ValidationError, unknown>;
  /**
   * The codec `version` has in place of the latest codec named `name` (the
   * previous codec of the oldest newer change that reshaped it), or
   * `undefined` when it has the latest one.
   */
  codecAt(name: string, version: string): t.Mixed | undefined;
}

const composeAll =
  (transforms: ReadonlyArray<BodyTransform>): BodyTransform =>
  (body, context) =>
    transforms.reduce((b, f) => f(b, context), body);

const TYPE_LIKE_NAME = /^[A-Z][A-Za-z0-9]*$/;

/**
 * Build a registry from releases (in any order). Each transform pipeline is
 * composed here, once, so `render` is a lookup and a call.
 *
 * Throws on a malformed registry (a version that is not a real `YYYY-MM-DD`
 * date, a duplicate release, a change filed under another release, an unknown
 * response kind, a previous codec without a type-like name, two previous
 * codecs of one name in one change, no release at all): it is a programming
 * error that must stop the process at start-up, not a condition a caller can handle.
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
      const names = [...(change.requests ?? []).map((r) => r.previous.name), ...(change.previousCodecs ?? []).map((c) => c.name)];
      for (const name of names) {
        if (!TYPE_LIKE_NAME.test(name))
          throw new Error(`makeVersioning: change "${change.description}" has a previous codec named "${name}", not as a latest codec is`);
      }
      if (new Set(names).size !== names.length)
        throw new Error(`makeVersioning: change "${change.description}" has two previous codecs of one name`);
    }
  }

  // YYYY-MM-DD strings sort chronologically as plain strings.
  const ordered = [...releases].sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  const known = Object.freeze(ordered.map((r) => r.version));
  const latest = known[known.length - 1] as string;

  // For each release, the transforms of every newer release, newest first;
  // within one release, changes are undone in reverse of their listed order.
  const pipelines = new Map<string, Partial<Record<ResponseKind, BodyTransform>>>();
  // For each release, the codecs it has in place of latest ones, and the request migrations it needs (oldest first), by codec name.
  const codecs = new Map<string, ReadonlyMap<string, t.Mixed>>();
  const migrations = new Map<string, ReadonlyMap<string, ReadonlyArray<RequestMigration>>>();
  const pending: Partial<Record<ResponseKind, BodyTransform[]>> = {};
  const pendingCodecs = new Map<string, t.Mixed>();
  const pendingMigrations = new Map<string, RequestMigration[]>();
  for (let i = ordered.length - 1; i >= 0; i--) {
    const release = ordered[i] as VersionRelease;
    const composed: Partial<Record<ResponseKind, BodyTransform>> = {};
    for (const [kind, list] of Object.entries(pending) as Array<[ResponseKind, BodyTransform[]]>) {
      composed[kind] = list.length === 1 ? (list[0] as BodyTransform) : composeAll([...list]);
    }
    pipelines.set(release.version, composed);
    codecs.set(release.version, new Map(pendingCodecs));
    migrations.set(release.version, new Map([...pendingMigrations].map(([name, list]) => [name, [...list]])));
    for (const change of [...release.changes].reverse()) {
      for (const [kind, transform] of Object.entries(change.transforms) as Array<[ResponseKind, BodyTransform | undefined]>) {
        if (transform !== undefined) (pending[kind] ??= []).push(transform);
      }
      // Walking back in time: an older change's previous codec replaces a newer one's, its migration runs first.
      for (const codec of change.previousCodecs ?? []) pendingCodecs.set(codec.name, codec);
      for (const migration of change.requests ?? []) {
        pendingCodecs.set(migration.previous.name, migration.previous);
        pendingMigrations.set(migration.previous.name, [migration, ...(pendingMigrations.get(migration.previous.name) ?? [])]);
      }
    }
  }

  const newestFirst = Object.freeze([...ordered].reverse());
  const check = (version: string, what: string): void => {
    if (!pipelines.has(version)) throw new Error(`${what}: unknown API version "${version}" (check isKnown first)`);
  };

  return {
    latest,
    known,
    releases: newestFirst,
    isKnown: (version) => pipelines.has(version),
    render: (kind, body, version, context = NO_RENDER_CONTEXT) => {
      // The common case on every request: nothing to do, not even a lookup.
      if (version === latest) return body;
      const pipeline = pipelines.get(version);
      if (pipeline === undefined) throw new Error(`render: unknown API version "${version}" (check isKnown first)`);
      const transform = pipeline[kind];
      return transform === undefined ? body : transform(body, context);
    },
    migrateRequest: (codecName, body, version) => {
      if (version === latest) return E.right(body);
      check(version, 'migrateRequest');
      const steps = migrations.get(version)?.get(codecName);
      const codec = codecs.get(version)?.get(codecName);
      if (steps === undefined || codec === undefined) return E.right(body);
      return E.map(() => steps.reduce<unknown>((b, step) => step.migrate(b as Readonly<Record<string, unknown>>), body))(
        decode(codec, 'request body')(body),
      );
    },
    codecAt: (name, version) => {
      check(version, 'codecAt');
      return codecs.get(version)?.get(name);
      if (versioning.latest !== CURRENT_VERSION)
        throw new Error(`versions: CURRENT_VERSION ${CURRENT_VERSION} is not the newest release ${versioning.latest}`);
    },
  };
};

/** The production registry: every release of `RELEASES`. */
export const versioning: Versioning = makeVersioning(RELEASES);
