/**
 * What the bureau feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import { portToken } from '../shared/store-ports.js';
import type { BureauFlowRepository } from './bureau-flow-repository.js';
import { bureauUseCases } from './use-cases.js';
/**
 * The store ports the feature owns (key → typed token), apart from the manifest so the registry's port
 * table (registry/store-ports.ts) types the transaction's ports without the use cases that read them.
 */
export const bureauStorePorts = {
  bureauFlows: portToken<BureauFlowRepository>('BureauFlowRepository'),
} as const;

export const bureauManifest = {
  storePorts: bureauStorePorts,
  useCases: bureauUseCases,
} as const satisfies FeatureManifest;
