/** API clients, their tokens and the audit log: everything of this feature `@debtkit/core` exports (its codecs, ports and use cases), one line in `src/index.ts`. */
export * from './client.js';
export * from './audit.js';
export * from './client-repository.js';
export * from './token-repository.js';
export * from './audit-log.js';
export * from './token-hasher.js';
export * from './use-cases.js';
