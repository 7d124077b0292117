/**
 * THE user data table (docs/decisions/tenancy.md#erasure): what the user delete does with each store
 * port, derived from the features' list (registry/features.ts): each feature's rows (its manifest
 * module's `userData`, one per port it owns, checked there against its ports) and the kernel's own
 * (the idempotency keys). The whole table is checked against the port table (`UserDataRules`): a
 * port without a row does not compile.
 *
 * The order (the user delete runs the deleting ports in it, in the delete's one transaction): the
 * features' list REVERSED (a feature only imports, so only points to, the features before it in the
 * list: its records go before the ones they point to, all before the user itself), and inside a
 * feature its rows' order (payments before the plans they pay).
 */
import type { FeatureManifestModule } from '../shared/feature-manifest.js';
import { userDataDelete, userOwnedPorts, type KeptOnUserDelete, type UserDataRules } from '../shared/user-data.js';
import { FEATURE_MODULES, type FeatureModules, type FeatureName, type UnionToIntersection } from './features.js';

/** The kernel's own store port's row. */
const KERNEL_USER_DATA = {
  idempotency: { kept: 'kept answers expire on their own; a replay is redacted by the erasure marker' },
} as const satisfies Readonly<Record<string, KeptOnUserDelete>>;

/** Every feature's user data rows (each manifest module's `userData`), merged into one record type. */
type FeatureUserData = UnionToIntersection<
  { [K in FeatureName]: FeatureModules[K] extends { readonly userData: infer R } ? R : never }[FeatureName]
>;

/** THE table: one row per store port, in the order the user delete runs them (above). */
export const USER_DATA = Object.assign(
  {},
  ...Object.values<FeatureManifestModule>(FEATURE_MODULES)
    .map((m) => m.userData ?? {})
    .reverse(),
  KERNEL_USER_DATA,
) as { readonly [K in keyof (FeatureUserData & typeof KERNEL_USER_DATA)]: (FeatureUserData & typeof KERNEL_USER_DATA)[K] };
// Every store port has its row, each naming a method of its port deleting by a user id, or why its records stay.
USER_DATA satisfies UserDataRules;

/** The ports whose records are the user's, in the order they are deleted. */
export const USER_OWNED_PORTS = userOwnedPorts(USER_DATA);

/** Delete every record of `userId` the table says is the user's, one port after the other, on the transaction's ports. */
export const deleteUserData = userDataDelete(USER_DATA);
