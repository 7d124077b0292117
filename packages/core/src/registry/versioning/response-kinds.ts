/**
 * The response kinds, each paired ONCE with its codec (docs/adding-a-resource.md): a
 * versioned `/api` answer names its kind, and its codec (for the OpenAPI document and
 * the endpoint's type check) and its version transforms (`VersionChange.transforms`)
 * follow from that name. `ResponseKind` is derived from this table.
 */
import * as t from 'io-ts';
import { ApiVersionList } from '../../shared/versioning/changelog.js';
import type { FeatureManifestModule } from '../../shared/feature-manifest.js';
import { FEATURE_MODULES, type FeatureModules, type FeatureName, type UnionToIntersection } from '../features.js';

/** The kernel's own response kinds (the ping and the version list), owned by no feature. */
const KERNEL_RESPONSES = {
  ping: t.type({ payload: t.string }, 'PingResult'),
  api_versions: ApiVersionList,
} as const;

/** Every feature's response kinds (each manifest module's `responses`), merged into one record type. */
type FeatureResponseCodecs = UnionToIntersection<
  { [K in FeatureName]: FeatureModules[K] extends { readonly responses: infer R } ? R : never }[FeatureName]
>;

/**
 * Each response kind → the codec of its body in the latest version (one per resource or list body):
 * derived from the features' list (registry/features.ts), each feature's `responses` in the list's
 * order, then the kernel's own. A kind declared twice is refused at load.
 */
export const RESPONSE_CODECS = mergeKinds([
  ...Object.values<FeatureManifestModule>(FEATURE_MODULES).map((m) => m.responses ?? {}),
  KERNEL_RESPONSES,
]) as { readonly [K in keyof (FeatureResponseCodecs & typeof KERNEL_RESPONSES)]: (FeatureResponseCodecs & typeof KERNEL_RESPONSES)[K] };

declare module '../../shared/versioning/version-change.js' {
  /** The kernel's slot, filled with this table (a version change's `transforms` are checked against it). */
  interface ResponseCodecs extends ResponseCodecTable {}
}
type ResponseCodecTable = typeof RESPONSE_CODECS;

/** The response shapes a version change can transform: the keys of `RESPONSE_CODECS`. */
export const ResponseKind = t.keyof(
  Object.fromEntries(Object.keys(RESPONSE_CODECS).map((kind) => [kind, null])) as { readonly [K in keyof typeof RESPONSE_CODECS]: null },
  'ResponseKind',
);
export type ResponseKind = t.TypeOf<typeof ResponseKind>;

/** The body of a response kind, in the latest version (what its codec describes). */
export type ResponseOf<K extends ResponseKind> = t.TypeOf<(typeof RESPONSE_CODECS)[K]>;

/** The kinds' rows merged into one table; a kind in two of them is a programming error, thrown at load. */
function mergeKinds(rows: ReadonlyArray<Readonly<Record<string, t.Mixed>>>): Readonly<Record<string, t.Mixed>> {
  const merged: Record<string, t.Mixed> = {};
  for (const row of rows)
    for (const [kind, codec] of Object.entries(row)) {
      if (kind in merged) throw new Error(`response kinds: ${kind} is declared twice`);
      merged[kind] = codec;
    }
  return merged;
}
