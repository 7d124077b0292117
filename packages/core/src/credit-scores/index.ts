/** Credit scores: everything of this feature `@debtkit/core` exports (its codecs, ports and use cases), one line in `src/index.ts`. */
export * from './credit-factors.js';
export * from './credit-score.js';
export * from './credit-score-repository.js';
export * from './use-cases.js';
export * from './requests.js';
