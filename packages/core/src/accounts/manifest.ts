/**
 * What the accounts feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { AccountRepository } from './account-repository.js';
import { accountUseCases } from './use-cases.js';
import { ACCOUNT_PERSONAL_DATA } from './personal-data.js';
import { accountInstitutionFields } from './account-institution-fields.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const accountsStorePorts = {
  accounts: portToken<AccountRepository>('AccountRepository'),
} as const;

export const accountsManifest = {
  storePorts: accountsStorePorts,
  useCases: accountUseCases,
  personalData: { account: ACCOUNT_PERSONAL_DATA },
  versionChanges: [accountInstitutionFields],
} as const satisfies FeatureManifest;
