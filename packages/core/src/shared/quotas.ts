/**
 * Quotas (docs/decisions/tenancy.md "Quotas per client"): how many of a kind of record one
 * owner may have, so that one client cannot fill the shared process and store.
 * Each is checked in the creation's transaction, which also writes the owner
 * (the user, or the client record): two concurrent creations under one owner
 * conflict, and the one run again counts the other's record, so no number of
 * concurrent creations passes a quota, on any store, in any number of processes.
 */
import * as E from 'fp-ts/lib/Either.js';
import { quotaExceeded, type QuotaExceeded } from './errors.js';

export interface Quotas {
  /** Accounts one user may have, closed ones included (default 200). */
  readonly accountsPerUser: number;
  /** Payment plans one user may have (default 50). */
  readonly paymentPlansPerUser: number;
  /** Webhook endpoints one client may have, enabled or disabled (default 16). */
  readonly webhookEndpointsPerClient: number;
  /**
   * Armed (pending, unexpired) webhook deliveries one client may have when it
   * arms more by a redelivery or a window replay (default 20,000: two full
   * window replays of 10,000 events). Deliveries its changes fan out are
   * never refused; they count towards it.
   */
  readonly armedDeliveriesPerClient: number;
}

export const DEFAULT_QUOTAS: Quotas = {
  accountsPerUser: 200,
  paymentPlansPerUser: 50,
  webhookEndpointsPerClient: 16,
  armedDeliveriesPerClient: 20_000,
};

/** How each quota is named to a client (in the 409's message) and to an operator (its environment variable). */
export const QUOTA_NAMES: { readonly [K in keyof Quotas]: { readonly phrase: string; readonly variable: string } } = {
  accountsPerUser: { phrase: 'accounts per user', variable: 'DEBTKIT_QUOTA_ACCOUNTS_PER_USER' },
  paymentPlansPerUser: { phrase: 'payment plans per user', variable: 'DEBTKIT_QUOTA_PLANS_PER_USER' },
  webhookEndpointsPerClient: { phrase: 'webhook endpoints per client', variable: 'DEBTKIT_QUOTA_WEBHOOK_ENDPOINTS_PER_CLIENT' },
  armedDeliveriesPerClient: { phrase: 'armed webhook deliveries per client', variable: 'DEBTKIT_QUOTA_ARMED_DELIVERIES_PER_CLIENT' },
};

/**
 * Right when one more record fits beside `existing` under `quota`; else
 * `quota_exceeded`, naming the quota and its value.
 * @example withinQuota('paymentPlansPerUser', 50, 50) // Left({ _tag: 'quota_exceeded', message: 'Quota reached: at most 50 payment plans per user' })
 */
export const withinQuota = (quota: keyof Quotas, limit: number, existing: number): E.Either<QuotaExceeded, void> =>
  existing < limit ? E.right(undefined) : E.left(quotaExceeded(`Quota reached: at most ${limit} ${QUOTA_NAMES[quota].phrase}`));

/**
 * Right when `adding` more records fit beside `existing` under `quota` (a
 * batch: a replay arms many deliveries at once); else `quota_exceeded`.
 * @example withinQuotaFor('armedDeliveriesPerClient', 20_000, 19_990, 11) // Left: 20,001 would pass 20,000
 */
export const withinQuotaFor = (quota: keyof Quotas, limit: number, existing: number, adding: number): E.Either<QuotaExceeded, void> =>
  adding <= 0 ? E.right(undefined) : withinQuota(quota, limit, existing + adding - 1);
