/**
 * What one feature contributes, declared once in its `manifest.ts` (docs/architecture.md, "One
 * manifest per feature"). The kernel gives the shape and names no feature; the
 * registry lists every feature's manifest once (`registry/features.ts`) and derives its tables from
 * that list: the use-case bundles `createApplication` binds, the erasure's personal-data rows and
 * the store ports each feature owns (checked against the port table).
 */
import type * as t from 'io-ts';
import type { PortToken } from './store-ports.js';
import type { VersionChange } from './versioning/version-change.js';

/** The personal fields of one kind of object, with the codec that says what each may be emptied to. */
export interface PersonalFields {
  readonly codec: t.InterfaceType<t.Props>;
  readonly fields: ReadonlyArray<string>;
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
