/**
 * API versions (docs/decisions/versioning.md). Versions are release dates `YYYY-MM-DD`.
 * Responses are always built in the latest shape; for a client on an older
 * version, `render` passes the body through each version change newer than
 * that version, newest first (Stripe's "version change" modules), so handlers
 * never know about old shapes. Requests go the other way: a body sent in an
 * older version is validated with that version's codec, then migrated forward,
 * oldest change first, before the latest codec decodes it.
 *
 * The kernel (`shared/versioning/`) holds the types and the transform helpers; each change
 * lives in the feature it changes; this registry file lists the releases (docs/architecture.md).
 *
 * How to add a backward-incompatible change:
 * 1. Write ONE module in the feature it changes exporting a `VersionChange`: its
 *    `description` (the changelog entry: what changed and why), `transforms`
 *    (per response kind, the new shape → the previous one; lists too, with
 *    `mapListItems`; a transform that needs what the new body dropped reads it
 *    from the `RenderContext`), `requests` (a reshaped request body: its
 *    previous codec and the migration forward) and `previousCodecs` (the
 *    previous codecs of reshaped responses, for older OpenAPI documents). Name
 *    previous codecs exactly as the latest ones.
 * 2. Declare it in the feature's `manifest.ts` (`versionChanges`) and add it to the release of the
 *    day it ships in `RELEASES` below (test/feature-manifests.test.ts checks the two agree) (a new
 *    release is a new `{ version, changes }` entry; bump `CURRENT_VERSION`).
 * 3. Regenerate what is derived from the releases: the changelog page
 *    (`npm run docs:changelog`), the OpenAPI examples
 *    (`DEBTKIT_UPDATE_OPENAPI_EXAMPLES=1`, see test/openapi-examples.test.ts).
 */
export * from '../../webhooks/event-objects.js';
export { DeletedUser, LATEST_EVENT_OBJECT_CODECS, userDeletedEvent, userDeletedIdsOnly } from '../../users/user-deleted-ids-only.js';
import { userDeletedIdsOnly } from '../../users/user-deleted-ids-only.js';
import type { VersionRelease, Versioning } from '../../shared/versioning/version-change.js';
import { buildVersioning } from '../../shared/versioning/build-versioning.js';
import { ResponseKind } from './response-kinds.js';
import { paymentPlanSchedulePaged } from '../../payment-plans/payment-plan-schedule-paged.js';
import { accountInstitutionFields } from '../../accounts/account-institution-fields.js';
import { withEventObjectTransforms } from '../../webhooks/event-objects.js';

export * from '../../shared/versioning/version-change.js';
/** The response kinds and their codecs: one table (`response-kinds.ts`). */
export { RESPONSE_CODECS, ResponseKind, type ResponseOf } from './response-kinds.js';
export * from '../../shared/versioning/field-transforms.js';
export { planScheduleContext, PaymentPlan20240701 } from '../../payment-plans/payment-plan-schedule-paged.js';
export { LinkAccountBody20240701, Account20240701 } from '../../accounts/account-institution-fields.js';
export * from '../../shared/versioning/changelog.js';
export { buildVersioning } from '../../shared/versioning/build-versioning.js';

export { VERSION_2024_07_01, VERSION_2026_11_26, CURRENT_VERSION } from '../../shared/versioning/version-names.js';
import { VERSION_2024_07_01, VERSION_2026_11_26, CURRENT_VERSION } from '../../shared/versioning/version-names.js';

/** Every release and the changes it made, oldest first: the one list the registry, `GET /api/versions` and the changelog page read. */
export const RELEASES: ReadonlyArray<VersionRelease> = [
  { version: VERSION_2024_07_01, changes: [] },
  { version: VERSION_2026_11_26, changes: [paymentPlanSchedulePaged, accountInstitutionFields, userDeletedIdsOnly] },
];

/**
 * Build a registry from releases (in any order): the kernel's `buildVersioning`, given every
 * change's `event` transform (`withEventObjectTransforms`, webhooks/event-objects.ts) and the
 * registry's response kinds (`ResponseKind`, response-kinds.ts) to check the changes against.
 *
 * Throws on a malformed registry (see `buildVersioning`): a programming error that must stop the
 * process at start-up, not a condition a caller can handle.
 *
 * @example
 * const v = makeVersioning([
 *   { version: '2024-07-01', changes: [] },
 *   { version: '2025-01-01', changes: [{ version: '2025-01-01', description: 'score → value',
 *     transforms: { credit_score: renameField('value', 'score') } }] },
 * ]);
 * v.render('credit_score', { value: 700 }, '2024-07-01') // { score: 700 }
 */
export const makeVersioning = (given: ReadonlyArray<VersionRelease>): Versioning =>
  // Every change to a resource changes the events that carry it too (event-objects.ts).
  buildVersioning(withEventObjectTransforms(given), (kind) => ResponseKind.is(kind));

/** The production registry: every release of `RELEASES`. */
export const versioning: Versioning = makeVersioning(RELEASES);

if (versioning.latest !== CURRENT_VERSION)
  throw new Error(`versions: CURRENT_VERSION ${CURRENT_VERSION} is not the newest release ${versioning.latest}`);
