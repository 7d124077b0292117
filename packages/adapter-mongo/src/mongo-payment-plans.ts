/**
 * The mongo store's side of the payment-plans feature (core's `payment-plans/manifest.ts`): its store ports' classes,
 * their collections and each query's indexes; ONE row of `MONGO_FEATURES` (mongo-features.ts;
 * docs/adding-a-resource.md). Collection and index names are stored data: never rename one.
 */
import type { MongoFeature } from './mongo-feature.js';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MongoPaymentPlanRepository } from './mongo-payment-plan-repository.js';
import { MongoPlanPaymentRepository } from './mongo-plan-payment-repository.js';

export const paymentPlansMongo = {
  classes: {
    paymentPlans: MongoPaymentPlanRepository,
    planPayments: MongoPlanPaymentRepository,
  },
  collections: {
    paymentPlans: COLLECTION_NAMES.paymentPlans,
    planPayments: COLLECTION_NAMES.planPayments,
  },
  ports: {
    paymentPlans: COLLECTION_NAMES.paymentPlans,
    planPayments: COLLECTION_NAMES.planPayments,
  },
  indexes: {
    payment_plans: [{ key: { user_id: 1, _id: 1 }, name: 'user_id_id', unique: true }],
    // Listed per (user, plan); its prefix serves deleteAllForUser.
    plan_payments: [{ key: { user_id: 1, payment_plan_id: 1, _id: 1 }, name: 'user_id_payment_plan_id_id', unique: true }],
  },
} as const satisfies MongoFeature;
