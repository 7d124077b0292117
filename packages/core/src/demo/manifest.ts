/**
 * What the demo feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';

/** The feature owns no store port. */
export const storePorts = {} as const;

export const manifest = {
  storePorts,
} as const satisfies FeatureManifest;
