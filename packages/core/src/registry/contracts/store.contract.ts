/**
 * Every storage port's contract, run against one store adapter (docs/architecture.md): the
 * memory and mongo adapters each call this once from their tests.
 */
import type { FeatureContracts, StoreContract, StoreContractOptions, StoreFactory } from '../../testing/contract-harness.js';
import type { StorePortKey } from '../../shared/store-ports.js';
import { FEATURE_NAMES, type FeatureName } from '../features.js';
import * as FEATURE_TESTING from '../feature-testing.js';
import { ownedReadsContract } from './owned-reads.contract.js';
import { storeHealthContract } from '../../testing/store-health.contract.js';
import { userRepositoryContract } from './user-repository.contract.js';
import { concurrencyContract } from './concurrency.contract.js';
import { idempotencyStoreContract } from '../../testing/idempotency-store.contract.js';

/** A feature's name in camel case (`credit-scores` → `creditScores`), as its row of suites is named. */
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type FeatureTesting = typeof FEATURE_TESTING;
/** The row of suites of feature `K` (its `<feature>/testing.ts` export `<feature>Contracts`), if it has one. */
type RowOf<K extends FeatureName> = `${Camel<K>}Contracts` extends keyof FeatureTesting
  ? FeatureTesting[`${Camel<K>}Contracts`]
  : { readonly ports: object };
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every feature's suites by port, merged. */
type FeaturePortContracts = UnionToIntersection<
  { [K in FeatureName]: RowOf<K> extends { readonly ports: infer P } ? P : never }[FeatureName]
>;

/**
 * The suites the registry runs for ports whose suite names several features (the users port: the user
 * delete's records) and for the kernel's own (the idempotency keys).
 */
const REGISTRY_PORT_CONTRACTS = { users: userRepositoryContract, idempotency: idempotencyStoreContract } as const;

/** The features' rows of suites, by the features' list: `<feature>Contracts` of `<feature>/testing.ts`, listed once in registry/feature-testing.ts. */
export const FEATURE_CONTRACTS: ReadonlyArray<FeatureContracts<object>> = FEATURE_NAMES.flatMap((name) => {
  const row: unknown = (FEATURE_TESTING as Readonly<Record<string, unknown>>)[
    `${name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}Contracts`
  ];
  return row === undefined ? [] : [row as FeatureContracts<object>];
});

// Every store port has its suite: the features' rows and the registry's, merged. A port of a feature whose
// row (or whose line in registry/feature-testing.ts) is missing does not compile.
null as unknown as FeaturePortContracts & typeof REGISTRY_PORT_CONTRACTS satisfies { readonly [K in StorePortKey]: StoreContract };

/** The kernel's and the registry's suites over several ports at once, and over the store as a whole (its health). */
const STORE_WIDE_CONTRACTS: ReadonlyArray<StoreContract> = [ownedReadsContract, storeHealthContract, concurrencyContract];

/**
 * Register one `describe` per storage port. `makeStore` is called before every
 * test and must return a new, empty store; it is closed after the test
 * (`opts.cleanup` runs first, e.g. to drop a test database).
 * @example
 *   runStoreContracts('memory store', async () => createMemoryStore());
 */
export function runStoreContracts(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  const suites = [
    ...FEATURE_CONTRACTS.flatMap((feature) => [
      ...Object.values(feature.ports as Readonly<Record<string, StoreContract>>),
      ...(feature.storeWide ?? []),
    ]),
    ...Object.values(REGISTRY_PORT_CONTRACTS),
    ...STORE_WIDE_CONTRACTS,
  ];
  for (const contract of new Set<StoreContract>(suites)) contract(name, makeStore, opts);
}
