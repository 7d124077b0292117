/**
 * The use cases, each `(deps) => (input) => TaskEither<DomainError, Output>`,
 * and `createApplication`, which binds them all to one set of ports.
 */
import type { ApplicationDeps } from './shared/deps.js';
import { userUseCases } from './users/use-cases.js';
import { accountUseCases } from './accounts/use-cases.js';
import { creditScoreUseCases } from './credit-scores/use-cases.js';
import { bureauUseCases } from './bureau/use-cases.js';
import { paymentPlanUseCases } from './payment-plans/use-cases.js';
import { contentUseCases } from './content/use-cases.js';
import { calculatorUseCases } from './calculator/use-cases.js';
import { webhookUseCases } from './webhooks/use-cases.js';
import { minimumOnlyMemo } from './payment-plans/payoff-plan.js';

export * from './shared/deps.js';
export * from './payment-plans/computations.js';
export * from './shared/requests.js';
export * from './users/use-cases.js';
export * from './accounts/use-cases.js';
export * from './credit-scores/use-cases.js';
export * from './bureau/use-cases.js';
export * from './payment-plans/use-cases.js';
export * from './payment-plans/payoff-planning.use-cases.js';
export * from './payment-plans/credit-outlook.use-cases.js';
export * from './demo/demo-seed.js';
export * from './content/use-cases.js';
export * from './calculator/use-cases.js';
export * from './webhooks/events.use-cases.js';
export * from './users/erasure.use-cases.js';
export * from './webhooks/use-cases.js';
export * from './webhooks/webhook-health.js';
export * from './webhooks/webhook-requests.js';
export * from './webhooks/replay.use-cases.js';
export * from './webhooks/webhook-samples.js';
export * from './clients/use-cases.js';
import { sandboxUseCases } from './sandbox/use-cases.js';
export * from './sandbox/use-cases.js';

/** Every use case bound to `deps`: what an embedding service or the HTTP adapter calls. */
export const createApplication = (given: ApplicationDeps) => {
  // The memo every account view shares (the pure domain keeps none of its own).
  const deps: ApplicationDeps = { minimumOnly: minimumOnlyMemo(), ...given };
  // One bundle per feature (its `use-cases.ts`): a use case added to a feature is added there, not here.
  return {
    ...userUseCases(deps),
    ...accountUseCases(deps),
    ...creditScoreUseCases(deps),
    ...bureauUseCases(deps),
    ...paymentPlanUseCases(deps),
    ...contentUseCases(deps),
    ...calculatorUseCases(deps),
    ...webhookUseCases(deps),
    ...sandboxUseCases(deps),
  };
};

export type Application = ReturnType<typeof createApplication>;
export * from './shared/transactions.js';
export * from './shared/idempotent-change.js';
