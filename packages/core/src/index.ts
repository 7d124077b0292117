/**
 * @debtkit/core: the pure domain, the ports it needs, and the use cases.
 */
export * from './domain/primitives.js';
export * from './domain/constructors.js';
export * from './domain/errors.js';
export * from './domain/codec.js';
export * from './domain/account.js';
export * from './domain/user.js';
export * from './domain/client.js';
export * from './domain/audit.js';
export * from './domain/payment-history.js';
export * from './domain/credit-factors.js';
export * from './domain/credit-score.js';
export * from './domain/credit-report.js';
export * from './domain/bureau-flow.machine.js';
export * from './domain/payment-plan.js';
export * from './domain/payoff-plan.js';
export * from './domain/payoff-comparison.js';
export * from './domain/payoff-progress.js';
export * from './domain/credit-outlook.js';
export * from './domain/debt-calculator.js';
export * from './domain/idempotency.js';
export * from './domain/webhook.js';
export * from './domain/erasure.js';
export * from './domain/quotas.js';
export * from './domain/plan-size.js';
export * from './content/content.js';
export * from './content/learning-modules.js';
export * from './content/articles.js';
export * from './content/shipped-content.js';
// Named, not `export *`: the application layer also exports a `listArticles`
// (the use case); an explicit export wins over star exports, so this name
// resolves to the catalog accessor the content stores use.
export { modulesByCategory, listArticles, findArticle } from './content/catalog.js';
export * from './ports/index.js';
export * from './application/index.js';
export * from './versioning/versions.js';
