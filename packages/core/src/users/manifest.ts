/**
 * What the users feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { UserRepository } from './user-repository.js';
import type { ErasureRegistry } from './erasure-registry.js';
import { userUseCases } from './use-cases.js';
import { USER_PERSONAL_DATA } from './erasure.js';
import { userDeletedIdsOnly } from './user-deleted-ids-only.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const usersStorePorts = {
  users: portToken<UserRepository>('UserRepository'),
  /** Markers of erased users (docs/decisions/tenancy.md). */
  erasures: portToken<ErasureRegistry>('ErasureRegistry'),
} as const;

export const usersManifest = {
  storePorts: usersStorePorts,
  useCases: userUseCases,
  personalData: { user: USER_PERSONAL_DATA },
  versionChanges: [userDeletedIdsOnly],
} as const satisfies FeatureManifest;
