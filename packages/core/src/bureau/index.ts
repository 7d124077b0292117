/** The credit bureau flow: everything of this feature `@debtkit/core` exports (its codecs, ports and use cases), one line in `src/index.ts`. */
export * from './credit-report.js';
export * from './bureau-flow.machine.js';
export * from './bureau-flow-repository.js';
export * from './credit-bureau.js';
export * from './use-cases.js';
export * from './requests.js';
