/**
 * What the clients feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { ClientRepository } from './client-repository.js';
import type { TokenRepository } from './token-repository.js';
import type { AuditLog } from './audit-log.js';
import type { UserDataRowsOf } from '../shared/user-data.js';

/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const storePorts = {
  clients: portToken<ClientRepository>('ClientRepository'),
  tokens: portToken<TokenRepository>('TokenRepository'),
  /** The operators' audit log (docs/operations.md): appended in each admin change's transaction. */
  audit: portToken<AuditLog>('AuditLog'),
} as const;

/**
 * What the user delete does with each of the feature's store ports (docs/decisions/tenancy.md#erasure):
 * the method deleting a user's records, or why they stay; rows of `USER_DATA` (registry/user-data.ts).
 */
export const userData = {
  clients: { kept: "the client's, not the user's" },
  tokens: { kept: "the client's, not the user's" },
  audit: { kept: "the operators' log of admin changes" },
} as const satisfies UserDataRowsOf<typeof storePorts>;

export const manifest = {
  storePorts,
} as const satisfies FeatureManifest;
