/**
 * THE list of core's features, each by its manifest module (shared/feature-manifest.ts; docs/architecture.md,
 * "One manifest per feature"): the registry's tables that name every feature are derived from it
 * (the port table `STORE_PORTS`, the response kinds `RESPONSE_CODECS`, the user data table
 * `USER_DATA`, the use-case bundles of `createApplication`, the erasure's personal-data rows, the
 * releases' version changes, the stores' contract suites, and the features' ranks of
 * `.dependency-cruiser.cjs`). A new feature is one folder with its `manifest.ts` and one line here
 * (with its import); a feature folder without its line fails `test/feature-manifests.test.ts`.
 */
import type { FeatureManifest, FeatureManifestModule } from '../shared/feature-manifest.js';
import type { ApplicationDeps } from '../shared/deps.js';
import type { SandboxDeps } from '../sandbox/sandbox-computations.js';
import * as content from '../content/manifest.js';
import * as clients from '../clients/manifest.js';
import * as webhooks from '../webhooks/manifest.js';
import * as users from '../users/manifest.js';
import * as accounts from '../accounts/manifest.js';
import * as creditScores from '../credit-scores/manifest.js';
import * as bureau from '../bureau/manifest.js';
import * as paymentPlans from '../payment-plans/manifest.js';
import * as calculator from '../calculator/manifest.js';
import * as sandbox from '../sandbox/manifest.js';
import * as demo from '../demo/manifest.js';

/** The deps every feature's use-case bundle is bound to (`createApplication`). */
export type FeatureDeps = ApplicationDeps & SandboxDeps;

/** A manifest as the registry takes it: its use-case bundle bound to `FeatureDeps`. */
type RegisteredManifest = FeatureManifest & { readonly useCases?: (deps: FeatureDeps) => object };

/**
 * THE list: every feature, by its folder name, in the features' rank order (docs/architecture.md;
 * `.dependency-cruiser.cjs` reads its ranks from here), each by its manifest MODULE (`<feature>/manifest.ts`,
 * imported whole). The module, not its `manifest` object: the port table's type is read from each
 * module's `storePorts` alone (registry/store-ports.ts), and a module's exports are typed one by one,
 * so the port table's type never waits on the use-case bundles, whose types read the ports (the type
 * cycle the manifest object alone would make).
 */
export const FEATURE_MODULES = {
  content,
  clients,
  webhooks,
  users,
  accounts,
  'credit-scores': creditScores,
  bureau,
  'payment-plans': paymentPlans,
  calculator,
  sandbox,
  demo,
} as const;

// Every module is a manifest module (its rows and its `manifest`): checked here, apart from the list.
FEATURE_MODULES satisfies Readonly<Record<string, FeatureManifestModule>>;

/** The features' modules, by name. */
export type FeatureModules = typeof FEATURE_MODULES;

/** A feature's name: its folder in core/src. */
export type FeatureName = keyof FeatureModules;

/** Every feature's manifest (`manifest`, the object of its module), by name, in the list's order. */
export const FEATURES = Object.fromEntries(
  Object.entries<FeatureManifestModule>(FEATURE_MODULES).map(([name, module]) => [name, module.manifest]),
) as {
  readonly [K in FeatureName]: FeatureModules[K]['manifest'];
};
// Every manifest is one the registry takes (its bundle bound to `FeatureDeps`): checked here, apart from the list.
FEATURES satisfies { readonly [K in FeatureName]: RegisteredManifest };

/** The features' names, in the list's order. */
export const FEATURE_NAMES: ReadonlyArray<FeatureName> = Object.keys(FEATURES) as FeatureName[];

type Features = typeof FEATURES;
export type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
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
