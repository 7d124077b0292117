/** Users (and their erasure): everything of this feature `@debtkit/core` exports (its codecs, ports and use cases), one line in `src/index.ts`. */
export * from './user.js';
export * from './erasure.js';
export * from './user-repository.js';
export * from './erasure-registry.js';
export * from './use-cases.js';
export * from './user-scope.js';
export * from './requests.js';
