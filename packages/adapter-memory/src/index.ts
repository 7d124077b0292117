/**
 * @debtkit/adapter-memory: every storage port in memory, and the sandbox
 * credit bureau. One export line per module; add new modules below.
 */
export * from './memory-store.js';
export * from './memory-database.js';
export { MEMORY_SESSION } from './memory-collection.js';
export * from './memory-client-repository.js';
export * from './memory-token-repository.js';
export * from './memory-audit-log.js';
export * from './memory-user-repository.js';
export * from './memory-account-repository.js';
export * from './memory-credit-score-repository.js';
export * from './memory-bureau-flow-repository.js';
export * from './memory-payment-plan-repository.js';
export * from './memory-plan-payment-repository.js';
export * from './memory-store-health.js';
export * from './memory-event-outbox.js';
export * from './memory-webhook-endpoint-repository.js';
export * from './memory-webhook-delivery-repository.js';
export * from './sandbox-credit-bureau.js';
// The demo seed moved to core (it serves every store); re-exported here for existing imports.
export { seedDemo, demoAccounts, type DemoSeed, type DemoSeedDeps, type SeedDemoOptions } from '@debtkit/core';
export * from './memory-idempotency-store.js';
export * from './memory-store.module.js';
