/**
 * The names of the API's releases (docs/decisions/versioning.md): dates, naming no feature, so
 * any floor may read them (the demo pins its client to `CURRENT_VERSION`). The registry's
 * `RELEASES` (`registry/versioning/versions.ts`) gives each its changes and checks that
 * `CURRENT_VERSION` is the newest.
 */
/** The first version: what every client created before 2026-11-26 is pinned to. */
export const VERSION_2024_07_01 = '2024-07-01';
/** Plans without their schedule; accounts linked with the institution's terms by their Account names. */
export const VERSION_2026_11_26 = '2026-11-26';

/** The version this build speaks natively, and the one new clients are pinned to. */
export const CURRENT_VERSION = VERSION_2026_11_26;
