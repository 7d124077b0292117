/**
 * @debtkit/core: the pure domain, the ports it needs, and the use cases.
 */
export * from './shared/primitives.js';
export * from './shared/constructors.js';
export * from './shared/errors.js';
export * from './shared/codec.js';
// The money engine (docs/decisions/payoff-and-outlook.md), named: its `InterestMethod` and `SegmentKind` are plain types, the accounts' are the codecs.
export {
  DebtBook,
  EQUAL_MONTH_DAYS,
  dailyCompoundFactor,
  dailyCompoundInterestOf,
  dailySimpleInterestOf,
  engineOrder,
  firstMonthMinimum,
  monthlyInterestOf,
  runEngine,
  type DayCount,
  type DebtTerms,
  type EngineFailure,
  type EngineInput,
  type EngineMonth,
  type EngineObserver,
  type EngineOutcome,
  type EngineRow,
  type MinimumFormula,
  type MinimumFormulaTerm,
  type MoneyStrategy,
  type MoneyWarning,
  type MoneyWarningCode,
  type RateSegment,
} from './shared/money/index.js';
export * from './accounts/index.js';
export * from './users/index.js';
export * from './clients/index.js';
export * from './credit-scores/index.js';
export * from './bureau/index.js';
export * from './payment-plans/index.js';
export * from './calculator/index.js';
export * from './shared/idempotency.js';
export * from './webhooks/index.js';
export * from './shared/quotas.js';
export * from './sandbox/index.js';
export * from './content/index.js';
// Named, not `export *`: the content feature also exports a `listArticles`
// (the use case); an explicit export wins over star exports, so this name
// resolves to the catalog accessor the content stores use.
export { modulesByCategory, listArticles, findArticle } from './content/catalog.js';
export * from './demo/index.js';
export * from './ports.js';
export * from './application.js';
export * from './registry/versioning/versions.js';
export * from './registry/webhook-samples.js';
export * from './registry/erasure.js';
export * from './registry/erasure.use-cases.js';
export * from './shared/user-data.js';
export * from './registry/user-data.js';
