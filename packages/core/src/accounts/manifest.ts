/**
 * What the accounts feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest, FeatureResponses } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { AccountRepository } from './account-repository.js';
import { accountUseCases } from './use-cases.js';
import { ACCOUNT_PERSONAL_DATA } from './personal-data.js';
import { accountInstitutionFields } from './account-institution-fields.js';
import { pagedCodec } from '../shared/paging.js';
import { Account } from './account.js';
import { PayoffQuote, RepaymentDisclosure } from './account-money.js';
import type { UserDataRowsOf } from '../shared/user-data.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const storePorts = {
  accounts: portToken<AccountRepository>('AccountRepository'),
} as const;

/**
 * What the user delete does with each of the feature's store ports (docs/decisions/tenancy.md#erasure):
 * the method deleting a user's records, or why they stay; rows of `USER_DATA` (registry/user-data.ts).
 */
export const userData = {
  accounts: 'deleteAllForUser',
} as const satisfies UserDataRowsOf<typeof storePorts>;

/**
 * The response kinds the feature answers with, each kind → the codec of its body in the latest version
 * (docs/decisions/versioning.md): merged into `RESPONSE_CODECS` (registry/versioning/response-kinds.ts).
 */
export const responses = {
  account: Account,
  account_list: pagedCodec('accounts', Account),
  repayment_disclosure: RepaymentDisclosure,
  payoff_quote: PayoffQuote,
} as const satisfies FeatureResponses;

export const manifest = {
  storePorts,
  useCases: accountUseCases,
  personalData: { account: ACCOUNT_PERSONAL_DATA },
  versionChanges: [accountInstitutionFields],
} as const satisfies FeatureManifest;
