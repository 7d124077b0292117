/**
 * What the clients feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { ClientRepository } from './client-repository.js';
import type { TokenRepository } from './token-repository.js';
import type { AuditLog } from './audit-log.js';

/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const clientsStorePorts = {
  clients: portToken<ClientRepository>('ClientRepository'),
  tokens: portToken<TokenRepository>('TokenRepository'),
  /** The operators' audit log (docs/operations.md): appended in each admin change's transaction. */
  audit: portToken<AuditLog>('AuditLog'),
} as const;

export const clientsManifest = {
  storePorts: clientsStorePorts,
} as const satisfies FeatureManifest;
