/**
 * What the demo feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';

export const demoManifest = {
  storePorts: {},
} as const satisfies FeatureManifest;
