/**
 * What the calculator feature contributes, declared once (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry lists it in `registry/features.ts`.
 */
import type { FeatureManifest, FeatureResponses } from '../shared/feature-manifest.js';
import { calculatorUseCases } from './use-cases.js';
import * as t from 'io-ts';
import { Cents, IsoDate } from '../shared/primitives.js';
/** The feature owns no store port. */
export const storePorts = {} as const;

/**
 * The response kinds the feature answers with, each kind → the codec of its body in the latest version
 * (docs/decisions/versioning.md): merged into `RESPONSE_CODECS` (registry/versioning/response-kinds.ts).
 */
export const responses = {
  debt_calculation: t.type(
    { monthly_payment: Cents, months: t.number, payoff_date: IsoDate, total_interest: Cents, total_paid: Cents },
    'DebtCalculation',
  ),
} as const satisfies FeatureResponses;

export const manifest = {
  storePorts,
  useCases: calculatorUseCases,
} as const satisfies FeatureManifest;
