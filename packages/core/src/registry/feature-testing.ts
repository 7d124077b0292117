/**
 * THE list of the features' test support (`<feature>/testing.ts`: contract suites, object mothers and
 * the feature's row of suites `<feature>Contracts`), one line per feature that has any: re-exported by
 * `@debtkit/core/testing` (registry/testing.ts), and read by `runStoreContracts`
 * (registry/contracts/store.contract.ts), which fails to compile until every store port has its suite.
 */
export * from '../clients/testing.js';
export * from '../webhooks/testing.js';
export * from '../users/testing.js';
export * from '../accounts/testing.js';
export * from '../credit-scores/testing.js';
export * from '../bureau/testing.js';
export * from '../payment-plans/testing.js';
export * from '../content/testing.js';
export * from '../demo/testing.js';
