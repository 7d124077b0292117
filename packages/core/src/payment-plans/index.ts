/** Payment plans, payoff planning and the credit outlook: everything of this feature `@debtkit/core` exports (its codecs, ports and use cases), one line in `src/index.ts`. */
export * from './payment-plan.js';
export * from './payoff-plan.js';
export * from './payoff-comparison.js';
export * from './payoff-progress.js';
export * from './credit-outlook.js';
export * from './plan-size.js';
export * from './payment-plan-repository.js';
export * from './plan-payment-repository.js';
export * from './computations.js';
export * from './use-cases.js';
export * from './payoff-planning.use-cases.js';
export * from './credit-outlook.use-cases.js';
export * from './bundle.js';
export * from './requests.js';
