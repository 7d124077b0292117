/**
 * THE list of core's features, each by its manifest (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry's tables that name every feature are derived from it
 * (the use-case bundles of `createApplication`, the erasure's
 * personal-data rows; the port table `STORE_PORTS` is checked against it). A new feature is one folder with its `manifest.ts` and one line here; a
 * feature folder without its line fails `test/feature-manifests.test.ts`.
 */
import type { FeatureManifest } from '../shared/feature-manifest.js';
import type { ApplicationDeps } from '../shared/deps.js';
import type { SandboxDeps } from '../sandbox/sandbox-computations.js';
import { contentManifest } from '../content/manifest.js';
import { clientsManifest } from '../clients/manifest.js';
import { webhooksManifest } from '../webhooks/manifest.js';
import { usersManifest } from '../users/manifest.js';
import { accountsManifest } from '../accounts/manifest.js';
import { creditScoresManifest } from '../credit-scores/manifest.js';
import { bureauManifest } from '../bureau/manifest.js';
import { paymentPlansManifest } from '../payment-plans/manifest.js';
import { calculatorManifest } from '../calculator/manifest.js';
import { sandboxManifest } from '../sandbox/manifest.js';
import { demoManifest } from '../demo/manifest.js';

/** The deps every feature's use-case bundle is bound to (`createApplication`). */
export type FeatureDeps = ApplicationDeps & SandboxDeps;

/** A manifest as the registry takes it: its use-case bundle bound to `FeatureDeps`. */
type RegisteredManifest = FeatureManifest & { readonly useCases?: (deps: FeatureDeps) => object };

/** Every feature, by its folder name, in the features' rank order (docs/architecture.md, `.dependency-cruiser.cjs`). */
export const FEATURES = {
  content: contentManifest,
  clients: clientsManifest,
  webhooks: webhooksManifest,
  users: usersManifest,
  accounts: accountsManifest,
  'credit-scores': creditScoresManifest,
  bureau: bureauManifest,
  'payment-plans': paymentPlansManifest,
  calculator: calculatorManifest,
  sandbox: sandboxManifest,
  demo: demoManifest,
} as const satisfies Readonly<Record<string, RegisteredManifest>>;

/** A feature's name: its folder in core/src. */
export type FeatureName = keyof typeof FEATURES;

/** The features' names, in the list's order. */
export const FEATURE_NAMES: ReadonlyArray<FeatureName> = Object.keys(FEATURES) as FeatureName[];

type Features = typeof FEATURES;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every feature's use-case bundle, merged (what `createApplication` returns). */
export type FeatureUseCases = UnionToIntersection<
  { [K in FeatureName]: Features[K] extends { readonly useCases: (deps: FeatureDeps) => infer U } ? U : never }[FeatureName]
>;
/** Every feature's personal-data rows, merged: object kind → its personal fields. */
export type FeaturePersonalData = UnionToIntersection<
  { [K in FeatureName]: Features[K] extends { readonly personalData: infer P } ? P : never }[FeatureName]
>;

const manifests: ReadonlyArray<RegisteredManifest> = Object.values(FEATURES);

/** The features' store ports, merged in the list's order (a key owned twice is refused): test/feature-manifests.test.ts checks the port table against it. */
export const featureStorePorts = (): Readonly<Record<string, unknown>> =>
  mergeOnce(
    'store port',
    manifests.map((m) => m.storePorts),
  );

/** The features' personal-data rows, merged (a kind declared twice is refused at load). */
export const featurePersonalData = (): FeaturePersonalData =>
  mergeOnce(
    'personal-data kind',
    manifests.map((m) => m.personalData ?? {}),
  ) as FeaturePersonalData;

/** Every feature's use-case bundle bound to `deps`, merged (a use case named twice is refused). */
export const bindFeatureUseCases = (deps: FeatureDeps): FeatureUseCases =>
  mergeOnce(
    'use case',
    manifests.map((m) => m.useCases?.(deps) ?? {}),
  ) as FeatureUseCases;

/** The records merged into one; a key in two of them is a programming error, thrown at once. */
const mergeOnce = (what: string, records: ReadonlyArray<object>): Readonly<Record<string, unknown>> => {
  const merged: Record<string, unknown> = {};
  for (const record of records)
    for (const [key, value] of Object.entries(record)) {
      if (key in merged) throw new Error(`features: ${what} ${key} is declared by two features`);
      merged[key] = value;
    }
  return merged;
};
