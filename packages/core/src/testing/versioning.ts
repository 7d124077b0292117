/**
 * A `Versioning` for test support that must not import the registry's production table (the
 * kernel's test support names no feature, docs/architecture.md): the current version alone, no
 * change to render.
 */
import { buildVersioning } from '../shared/versioning/build-versioning.js';
import type { Versioning } from '../shared/versioning/version-change.js';
import { CURRENT_VERSION } from '../shared/versioning/version-names.js';

export const latestOnlyVersioning: Versioning = buildVersioning([{ version: CURRENT_VERSION, changes: [] }], () => false);
