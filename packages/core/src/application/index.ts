/**
 * The use cases, each `(deps) => (input) => TaskEither<DomainError, Output>`,
 * and `createApplication`, which binds them all to one set of ports.
 */
import type { ApplicationDeps } from './deps.js';
import { minimumOnlyMemo } from '../domain/payoff-plan.js';
import * as users from './users.js';
import * as accounts from './accounts.js';
import * as creditScores from './credit-scores.js';
import * as bureau from './bureau.js';
import * as plans from './payment-plans.js';
import * as payoffPlanning from './payoff-planning.js';
import * as creditOutlook from './credit-outlook.js';
import * as content from './content.js';
import * as calculator from './debt-calculator.js';
import * as events from './events.js';
import * as webhooks from './webhook-endpoints.js';

export * from './deps.js';
export * from './computations.js';
export * from './requests.js';
export * from './users.js';
export * from './accounts.js';
export * from './credit-scores.js';
export * from './bureau.js';
export * from './payment-plans.js';
export * from './payoff-planning.js';
export * from './credit-outlook.js';
export * from './demo-seed.js';
export * from './content.js';
export * from './debt-calculator.js';
export * from './events.js';
export * from './erasure.js';
export * from './webhook-endpoints.js';
export * from './webhook-health.js';
export * from './webhook-requests.js';
export * from './clients.js';

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
  };
};

export type Application = ReturnType<typeof createApplication>;
export * from './transactions.js';
export * from './idempotent-change.js';
