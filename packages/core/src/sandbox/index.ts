/** The sandbox over time: everything of this feature `@debtkit/core` exports (its codecs, ports and use cases), one line in `src/index.ts`. */
export * from './sandbox-clock.js';
export * from './sandbox-computations.js';
export * from './use-cases.js';
export * from './requests.js';
