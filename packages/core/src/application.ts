/**
 * The use cases, each `(deps) => (input) => TaskEither<E, Output>` (or a `Change<Output, E>`), `E` naming the error tags it can return (docs/decisions/errors.md),
 * and `createApplication`, which binds them all to one set of ports.
 */
import type { ApplicationDeps } from './shared/deps.js';
import * as users from './users/use-cases.js';
import * as accounts from './accounts/use-cases.js';
import * as creditScores from './credit-scores/use-cases.js';
import * as bureau from './bureau/use-cases.js';
import * as plans from './payment-plans/use-cases.js';
import * as payoffPlanning from './payment-plans/payoff-planning.use-cases.js';
import * as creditOutlook from './payment-plans/credit-outlook.use-cases.js';
import * as content from './content/use-cases.js';
import * as calculator from './calculator/use-cases.js';
import * as events from './webhooks/events.use-cases.js';
import * as webhooks from './webhooks/use-cases.js';
import * as replay from './webhooks/replay.use-cases.js';
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
import * as sandbox from './sandbox/use-cases.js';
export * from './sandbox/use-cases.js';

/** Every use case bound to `deps`: what an embedding service or the HTTP adapter calls. */
export const createApplication = (given: ApplicationDeps) => {
  // The memo every account view shares (the pure domain keeps none of its own).
  const deps: ApplicationDeps = { minimumOnly: minimumOnlyMemo(), ...given };
  return {
  createUser: users.createUser(deps),
  listUsers: users.listUsers(deps),
  getUser: users.getUser(deps),
  updateUser: users.updateUser(deps),
  deleteUser: users.deleteUser(deps),
  linkAccount: accounts.linkAccount(deps),
  listAccounts: accounts.listAccounts(deps),
  getAccount: accounts.getAccount(deps),
  updateAccount: accounts.updateAccount(deps),
  getLatestCreditScore: creditScores.getLatestCreditScore(deps),
  getCreditScoreHistory: creditScores.getCreditScoreHistory(deps),
  getBureauStatus: bureau.getBureauStatus(deps),
  invokeBureau: bureau.invokeBureau(deps),
  consentBureau: bureau.consentBureau(deps),
  validateBureauOtp: bureau.validateBureauOtp(deps),
  submitBureauIdentity: bureau.submitBureauIdentity(deps),
  abortBureau: bureau.abortBureau(deps),
  createPaymentPlan: plans.createPaymentPlan(deps),
  listPaymentPlans: plans.listPaymentPlans(deps),
  getPaymentPlan: plans.getPaymentPlan(deps),
  getPaymentPlanSchedule: plans.getPaymentPlanSchedule(deps),
  deletePaymentPlan: plans.deletePaymentPlan(deps),
  recordPlanPayment: plans.recordPlanPayment(deps),
  listPlanPayments: plans.listPlanPayments(deps),
  comparePaymentPlans: payoffPlanning.comparePaymentPlans(deps),
  getPlanProgress: payoffPlanning.getPlanProgress(deps),
  getCreditOutlook: creditOutlook.getCreditOutlook(deps),
  listLearningModules: content.listLearningModules(deps),
  listArticles: content.listArticles(deps),
  getArticle: content.getArticle(deps),
  calculateDebt: calculator.calculateDebt(deps),
  listEvents: events.listEvents(deps),
  getEvent: events.getEvent(deps),
  createWebhookEndpoint: webhooks.createWebhookEndpoint(deps),
  listWebhookEndpoints: webhooks.listWebhookEndpoints(deps),
  getWebhookEndpoint: webhooks.getWebhookEndpoint(deps),
  updateWebhookEndpoint: webhooks.updateWebhookEndpoint(deps),
  deleteWebhookEndpoint: webhooks.deleteWebhookEndpoint(deps),
  listWebhookDeliveries: webhooks.listWebhookDeliveries(deps),
  sendTestWebhook: replay.sendTestWebhook(deps),
  redeliverEvent: replay.redeliverEvent(deps),
  replayWebhookEndpoint: replay.replayWebhookEndpoint(deps),
  advanceSandbox: sandbox.advanceSandbox(deps),
  };
};

export type Application = ReturnType<typeof createApplication>;
export * from './shared/transactions.js';
export * from './shared/idempotent-change.js';
