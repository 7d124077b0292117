/**
 * What the calculator feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import { calculatorUseCases } from './use-cases.js';
export const calculatorManifest = {
  storePorts: {},
  useCases: calculatorUseCases,
} as const satisfies FeatureManifest;
