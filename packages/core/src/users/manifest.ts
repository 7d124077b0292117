/**
 * What the users feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest, FeatureResponses } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { UserRepository } from './user-repository.js';
import type { ErasureRegistry } from './erasure-registry.js';
import { userUseCases } from './use-cases.js';
import { USER_PERSONAL_DATA } from './erasure.js';
import { userDeletedIdsOnly } from './user-deleted-ids-only.js';
import { pagedCodec } from '../shared/paging.js';
import { User } from './user.js';
import type { UserDataRowsOf } from '../shared/user-data.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const storePorts = {
  users: portToken<UserRepository>('UserRepository'),
  /** Markers of erased users (docs/decisions/tenancy.md). */
  erasures: portToken<ErasureRegistry>('ErasureRegistry'),
} as const;

/**
 * What the user delete does with each of the feature's store ports (docs/decisions/tenancy.md#erasure):
 * the method deleting a user's records, or why they stay; rows of `USER_DATA` (registry/user-data.ts).
 */
export const userData = {
  users: { kept: 'the user itself: deleted by the user delete after its data, which points to it' },
  erasures: { kept: 'the user delete records the erasure marker here' },
} as const satisfies UserDataRowsOf<typeof storePorts>;

/**
 * The response kinds the feature answers with, each kind → the codec of its body in the latest version
 * (docs/decisions/versioning.md): merged into `RESPONSE_CODECS` (registry/versioning/response-kinds.ts).
 */
export const responses = {
  user: User,
  user_list: pagedCodec('users', User),
} as const satisfies FeatureResponses;

export const manifest = {
  storePorts,
  useCases: userUseCases,
  personalData: { user: USER_PERSONAL_DATA },
  versionChanges: [userDeletedIdsOnly],
} as const satisfies FeatureManifest;
