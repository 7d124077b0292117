/**
 * What one feature contributes, declared once in its `manifest.ts` (docs/architecture.md, "One
 * manifest per feature"). The kernel gives the shape and names no feature; the
 * registry lists every feature's manifest module once (`registry/features.ts`) and derives its tables
 * from that list: the port table, the response kinds, the user data table, the use-case bundles
 * `createApplication` binds and the erasure's personal-data rows.
 */
import type * as t from 'io-ts';
import type { PortToken } from './store-ports.js';
import type { VersionChange } from './versioning/version-change.js';
import type { KeptOnUserDelete } from './user-data.js';

/** The personal fields of one kind of object, with the codec that says what each may be emptied to. */
export interface PersonalFields {
  readonly codec: t.InterfaceType<t.Props>;
  readonly fields: ReadonlyArray<string>;
}

/** A feature's response kinds: kind → the codec of its body in the latest version (docs/decisions/versioning.md). */
export type FeatureResponses = Readonly<Record<string, t.Mixed>>;

/**
 * A feature's manifest module (`<feature>/manifest.ts`), as the registry lists it (registry/features.ts):
 * the rows whose types the registry's tables are typed from, each its own export (so one is typed without
 * the others: the port table's type never waits on the use cases'), and the `manifest` object.
 */
export interface FeatureManifestModule {
  /** The store ports the feature owns (also `manifest.storePorts`): merged into `STORE_PORTS`. */
  readonly storePorts: Readonly<Record<string, PortToken<unknown>>>;
  /** The feature's response kinds, if it answers any: merged into `RESPONSE_CODECS`. */
  readonly responses?: FeatureResponses;
  /** What the user delete does with each of its store ports (`UserDataRowsOf` its ports): merged into `USER_DATA`. */
  readonly userData?: Readonly<Record<string, string | KeptOnUserDelete>>;
  readonly manifest: FeatureManifest;
}

/** One feature's contributions. Every entry is optional: a feature declares what it has. */
export interface FeatureManifest {
  /**
   * The store ports the feature owns, key → typed token (`portToken<AccountRepository>('AccountRepository')`):
   * the registry's port table (`STORE_PORTS`, registry/store-ports.ts) is every feature's rows.
   */
  readonly storePorts: Readonly<Record<string, PortToken<unknown>>>;
  /**
   * The feature's use-case bundle (`(deps) => { name: useCase, ... }`); `createApplication` binds every
   * feature's bundle to one set of ports. `never` here so each bundle names the deps it needs.
   */
  readonly useCases?: (deps: never) => object;
  /** The kinds of object carrying personal data, each with its personal fields (docs/decisions/tenancy.md). */
  readonly personalData?: Readonly<Record<string, PersonalFields>>;
  /** The backward-incompatible changes the feature made (each listed in its release, registry/versioning/versions.ts). */
  readonly versionChanges?: ReadonlyArray<VersionChange>;
}
