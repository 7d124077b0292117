/** The payment plans feature's use-case bundle: its three use-case files bound to one `deps` (a file of its own, so they import each other one way). */
import type { ApplicationDeps } from '../shared/deps.js';
import {
  createPaymentPlan,
  deletePaymentPlan,
  getPaymentPlan,
  getPaymentPlanSchedule,
  listPaymentPlans,
  listPlanPayments,
  recordPlanPayment,
} from './use-cases.js';
import { comparePaymentPlans, getPlanProgress } from './payoff-planning.use-cases.js';
import { getCreditOutlook } from './credit-outlook.use-cases.js';

/** Payment plans, their payoff planning and the credit outlook: this feature's use cases bound to `deps`, as `createApplication` spreads them (docs/adding-a-resource.md). */
export const paymentPlanUseCases = (deps: ApplicationDeps) => ({
  createPaymentPlan: createPaymentPlan(deps),
  listPaymentPlans: listPaymentPlans(deps),
  getPaymentPlan: getPaymentPlan(deps),
  getPaymentPlanSchedule: getPaymentPlanSchedule(deps),
  deletePaymentPlan: deletePaymentPlan(deps),
  recordPlanPayment: recordPlanPayment(deps),
  listPlanPayments: listPlanPayments(deps),
  comparePaymentPlans: comparePaymentPlans(deps),
  getPlanProgress: getPlanProgress(deps),
  getCreditOutlook: getCreditOutlook(deps),
});
