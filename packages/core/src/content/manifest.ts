/**
 * What the content feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import { contentUseCases } from './use-cases.js';
export const contentManifest = {
  storePorts: {},
  useCases: contentUseCases,
} as const satisfies FeatureManifest;
