/**
 * The releases of the API, oldest first (docs/decisions/versioning.md): each with the version
 * changes it made, one module per change under `changes/`.
 */
import type { VersionRelease } from './versions.js';
import { userDeletedIdsOnly } from './changes/user-deleted-ids-only.js';

export const RELEASES: ReadonlyArray<VersionRelease> = [
  { version: '2024-07-01', changes: [] },
  { version: '2026-11-26', changes: [userDeletedIdsOnly] },
];
