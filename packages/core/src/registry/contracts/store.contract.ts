/**
 * Every storage port's contract, run against one store adapter (docs/architecture.md): the
 * memory and mongo adapters each call this once from their tests.
 */
import type { StoreContractOptions, StoreFactory } from '../../testing/contract-harness.js';
import type { FEATURES, FeatureName } from '../features.js';
import { accountRepositoryContract } from '../../accounts/account-repository.contract.js';
import { bureauFlowRepositoryContract } from '../../bureau/bureau-flow-repository.contract.js';
import { clientRepositoryContract } from '../../clients/client-repository.contract.js';
import { creditScoreRepositoryContract } from '../../credit-scores/credit-score-repository.contract.js';
import { ownedReadsContract } from './owned-reads.contract.js';
import { paymentPlanRepositoryContract } from '../../payment-plans/payment-plan-repository.contract.js';
import { planPaymentRepositoryContract } from '../../payment-plans/plan-payment-repository.contract.js';
import { storeHealthContract } from '../../testing/store-health.contract.js';
import { tokenRepositoryContract } from '../../clients/token-repository.contract.js';
import { auditLogContract } from '../../clients/audit-log.contract.js';
import { userRepositoryContract } from './user-repository.contract.js';
import { concurrencyContract } from './concurrency.contract.js';
import { idempotencyStoreContract } from '../../testing/idempotency-store.contract.js';
import { webhookStoresContract } from '../../webhooks/webhook-stores.contract.js';
import { demoSeedContract } from '../../demo/demo-seed.contract.js';
import { erasureRegistryContract } from '../../users/erasure-registry.contract.js';

/** A contract suite over a store: registers its `describe` blocks. */
type StoreContract = (name: string, makeStore: StoreFactory, opts: StoreContractOptions) => void;

/** The store-port keys a feature's manifest declares. */
type PortsOf<K extends FeatureName> = keyof (typeof FEATURES)[K]['storePorts'];

/**
 * Each feature's contract suites, by the features' list (registry/features.ts): ONE row per feature,
 * naming the suite of each store port its manifest declares (`ports`), so a new feature or a new port
 * does not compile until it names the suite that checks it on every store, plus the suites over the
 * store as a whole it brings (`storeWide`: the demo seed). A suite covering several ports (the webhook
 * stores) is named by each of them and runs once. The kernel's idempotency store is the one port
 * owned by no feature (registry/store-ports.ts); test/feature-manifests.test.ts checks the port table
 * is the features' ports and it.
 */
export const FEATURE_CONTRACTS = {
  content: { ports: {} },
  clients: { ports: { clients: clientRepositoryContract, tokens: tokenRepositoryContract, audit: auditLogContract } },
  webhooks: { ports: { events: webhookStoresContract, webhookEndpoints: webhookStoresContract, webhookDeliveries: webhookStoresContract } },
  users: { ports: { users: userRepositoryContract, erasures: erasureRegistryContract } },
  accounts: { ports: { accounts: accountRepositoryContract } },
  'credit-scores': { ports: { creditScores: creditScoreRepositoryContract } },
  bureau: { ports: { bureauFlows: bureauFlowRepositoryContract } },
  'payment-plans': { ports: { paymentPlans: paymentPlanRepositoryContract, planPayments: planPaymentRepositoryContract } },
  calculator: { ports: {} },
  sandbox: { ports: {} },
  demo: { ports: {}, storeWide: [demoSeedContract] },
} as const satisfies {
  readonly [K in FeatureName]: {
    readonly ports: { readonly [P in PortsOf<K>]: StoreContract };
    readonly storeWide?: ReadonlyArray<StoreContract>;
  };
};

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
  const features = Object.values<{
    readonly ports: Readonly<Record<string, StoreContract>>;
    readonly storeWide?: ReadonlyArray<StoreContract>;
  }>(FEATURE_CONTRACTS);
  const suites = [
    ...features.flatMap((feature) => [...Object.values(feature.ports), ...(feature.storeWide ?? [])]),
    idempotencyStoreContract,
    ...STORE_WIDE_CONTRACTS,
  ];
  for (const contract of new Set<StoreContract>(suites)) contract(name, makeStore, opts);
}
