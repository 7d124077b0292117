/** Accounts: everything of this feature `@debtkit/core` exports (its codecs, ports and use cases), one line in `src/index.ts`. */
export * from './account.js';
export * from './payment-history.js';
export * from './account-repository.js';
export * from './use-cases.js';
export * from './statement-terms.js';
export * from './payment-allocation.js';
export * from './account-money.js';
export * from './account-money.use-cases.js';
export * from './requests.js';
