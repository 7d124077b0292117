/**
 * @debtkit/core: the pure domain, the ports it needs, and the use cases.
 */
export * from './shared/primitives.js';
export * from './shared/constructors.js';
export * from './shared/errors.js';
export * from './shared/codec.js';
export * from './accounts/account.js';
export * from './users/user.js';
export * from './clients/client.js';
export * from './clients/audit.js';
export * from './accounts/payment-history.js';
export * from './credit-scores/credit-factors.js';
export * from './credit-scores/credit-score.js';
export * from './bureau/credit-report.js';
export * from './bureau/bureau-flow.machine.js';
export * from './payment-plans/payment-plan.js';
export * from './payment-plans/payoff-plan.js';
export * from './payment-plans/payoff-comparison.js';
export * from './payment-plans/payoff-progress.js';
export * from './payment-plans/credit-outlook.js';
export * from './calculator/debt-calculator.js';
export * from './shared/idempotency.js';
export * from './webhooks/webhook.js';
export * from './users/erasure.js';
export * from './users/user-data.js';
export * from './shared/quotas.js';
export * from './payment-plans/plan-size.js';
export * from './sandbox/sandbox-clock.js';
export * from './content/content.js';
export * from './content/learning-modules.js';
export * from './content/articles.js';
export * from './content/shipped-content.js';
// Named, not `export *`: the application layer also exports a `listArticles`
// (the use case); an explicit export wins over star exports, so this name
// resolves to the catalog accessor the content stores use.
export { modulesByCategory, listArticles, findArticle } from './content/catalog.js';
export * from './ports.js';
export * from './application.js';
export * from './versioning/versions.js';
