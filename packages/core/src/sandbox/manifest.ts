/**
 * What the sandbox feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest, FeatureResponses } from '../shared/feature-manifest.js';
import { SandboxAdvanceResult, sandboxUseCases } from './use-cases.js';
/** The feature owns no store port. */
export const storePorts = {} as const;

/**
 * The response kinds the feature answers with, each kind → the codec of its body in the latest version
 * (docs/decisions/versioning.md): merged into `RESPONSE_CODECS` (registry/versioning/response-kinds.ts).
 */
export const responses = {
  sandbox_advance: SandboxAdvanceResult,
} as const satisfies FeatureResponses;

export const manifest = {
  storePorts,
  useCases: sandboxUseCases,
} as const satisfies FeatureManifest;
