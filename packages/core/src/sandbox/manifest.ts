/**
 * What the sandbox feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import { sandboxUseCases } from './use-cases.js';
export const sandboxManifest = {
  storePorts: {},
  useCases: sandboxUseCases,
} as const satisfies FeatureManifest;
