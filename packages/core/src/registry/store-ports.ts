/**
 * The port table (docs/architecture.md), on the registry floor: every store port is declared ONCE, in
 * its feature's manifest (`<feature>/manifest.ts`, its `storePorts`), with its key and its type; the table is their merge. Everything else is derived from it: the
 * `TransactionPorts` / `StorePorts` records, each store adapter's Inversify
 * bindings (a class table typed `StorePortClasses`), the ports a transaction
 * hands out, the composition root's lookups, and the use cases' `ApplicationDeps`.
 * Adding a store port is: one line in its feature's manifest, one class in each store's file for the
 * feature (docs/adding-a-resource.md); the compiler finds every other place.
 */
import type { Clock } from '../shared/clock.js';
import type { CreditBureau } from '../bureau/credit-bureau.js';
import type { StoreHealth } from '../shared/store-health.js';
import type { IdempotencyStore } from '../shared/idempotency-store.js';
import type { TokenHasher } from '../clients/token-hasher.js';
import type { SecretGenerator } from '../shared/secret-generator.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { portToken, type PortOf, type PortToken, type StorePortKey, type TransactionPorts } from '../shared/store-ports.js';
import { FEATURE_MODULES, type FeatureModules, type FeatureName, type UnionToIntersection } from './features.js';

/** Every feature's store ports (each manifest module's `storePorts`), merged into one record type. */
type FeatureStorePorts = UnionToIntersection<{ [K in FeatureName]: FeatureModules[K]['storePorts'] }[FeatureName]>;

/** The kernel's own store port, owned by no feature. */
const KERNEL_STORE_PORTS = {
  /** Idempotency keys of POST requests (docs/decisions/idempotency.md). */
  idempotency: portToken<IdempotencyStore>('IdempotencyStore'),
} as const;

/**
 * THE table of store ports: key → typed token, derived from the features' list (registry/features.ts):
 * each feature's rows (its manifest module's `storePorts`), in the list's order, then the kernel's own
 * (the idempotency keys). A key declared twice is refused at load. Every one is transactional (a
 * `UnitOfWork` hands all of them out bound to its transaction, shared/unit-of-work.ts).
 */
export const STORE_PORTS = mergePorts([...Object.values(FEATURE_MODULES).map((m) => m.storePorts), KERNEL_STORE_PORTS]) as {
  readonly [K in keyof (FeatureStorePorts & typeof KERNEL_STORE_PORTS)]: (FeatureStorePorts & typeof KERNEL_STORE_PORTS)[K];
};

/** The ports of the table, by key. */
type RegisteredPorts = { readonly [K in keyof typeof STORE_PORTS]: PortOf<(typeof STORE_PORTS)[K]> };

// The kernel's slot (shared/store-ports.ts) gets one member per row of the table: every
// floor sees `TransactionPorts` whole, and no feature or kernel file imports this one.
declare module '../shared/store-ports.js' {
  interface TransactionPorts extends RegisteredPorts {}
}

/**
 * `STORE_PORTS` typed as a mapped table, so code generic in the key (`storePortTokens[key]`
 * with `key: K`) still sees `PortToken<TransactionPorts[K]>`.
 */
export const storePortTokens: { readonly [K in StorePortKey]: PortToken<TransactionPorts[K]> } = STORE_PORTS;

/** The keys of the table, in its order. */
export const STORE_PORT_KEYS: ReadonlyArray<StorePortKey> = Object.keys(STORE_PORTS) as StorePortKey[];

/** A ports record built key by key: `portFor(key)` gives that key's port. */
export const buildStorePorts = (portFor: <K extends StorePortKey>(key: K) => TransactionPorts[K]): TransactionPorts => {
  const ports: Partial<Record<StorePortKey, unknown>> = {};
  for (const key of STORE_PORT_KEYS) ports[key] = portFor(key);
  // Every key was set just above, each with the type its key maps to.
  return ports as TransactionPorts;
};

/** Tokens of the ports that are not store ports (and of the store's health and unit of work). */
export const PORTS = {
  Clock: portToken<Clock>('Clock'),
  CreditBureau: portToken<CreditBureau>('CreditBureau'),
  StoreHealth: portToken<StoreHealth>('StoreHealth'),
  /** The store's `UnitOfWork` (shared/unit-of-work.ts). */
  UnitOfWork: portToken<UnitOfWork>('UnitOfWork'),
  TokenHasher: portToken<TokenHasher>('TokenHasher'),
  SecretGenerator: portToken<SecretGenerator>('SecretGenerator'),
} as const;

/** The ports' rows merged into one table; a key in two of them is a programming error, thrown at load. */
function mergePorts(rows: ReadonlyArray<Readonly<Record<string, PortToken<unknown>>>>): Readonly<Record<string, PortToken<unknown>>> {
  const merged: Record<string, PortToken<unknown>> = {};
  for (const row of rows)
    for (const [key, token] of Object.entries(row)) {
      if (key in merged) throw new Error(`store ports: ${key} is declared twice`);
      merged[key] = token;
    }
  return merged;
}
