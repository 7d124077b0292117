/**
 * What the bureau feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest, FeatureResponses } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { BureauFlowRepository } from './bureau-flow-repository.js';
import { bureauUseCases } from './use-cases.js';
import * as t from 'io-ts';
import { nullable } from '../shared/primitives.js';
import { BureauStep } from './bureau-flow.machine.js';
import type { UserDataRowsOf } from '../shared/user-data.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const storePorts = {
  bureauFlows: portToken<BureauFlowRepository>('BureauFlowRepository'),
} as const;

/**
 * What the user delete does with each of the feature's store ports (docs/decisions/tenancy.md#erasure):
 * the method deleting a user's records, or why they stay; rows of `USER_DATA` (registry/user-data.ts).
 */
export const userData = {
  bureauFlows: 'deleteForUser',
} as const satisfies UserDataRowsOf<typeof storePorts>;

/**
 * The response kinds the feature answers with, each kind → the codec of its body in the latest version
 * (docs/decisions/versioning.md): merged into `RESPONSE_CODECS` (registry/versioning/response-kinds.ts).
 */
export const responses = {
  bureau_status: t.type(
    { status: t.keyof({ initial: null, pending: null, authenticated: null }), step: nullable(BureauStep) },
    'BureauStatus',
  ),
  bureau_step: t.type({ step: BureauStep }, 'BureauInvokeResult'),
} as const satisfies FeatureResponses;

export const manifest = {
  storePorts,
  useCases: bureauUseCases,
} as const satisfies FeatureManifest;
