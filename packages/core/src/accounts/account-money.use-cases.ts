/**
 * An account's statement figures (docs/decisions/payoff-and-outlook.md):
 * the Minimum Payment Warning and the payoff quote. Both only read: the user
 * and the account are one owned read (shared/owned-read.ts), as `getAccount`,
 * and nothing is stored.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { type Conflict, type NotFound, type Unavailable, type ValidationError } from '../shared/errors.js';
import type { AccountId } from '../shared/primitives.js';
import { ApplicationDeps, UserScope, outsideTransaction, ownedOrNotFound, ownedSome } from '../shared/deps.js';
import { todayOf } from '../users/user-scope.js';
import {
  payoffQuoteOf,
  repaymentDisclosureOf,
  type PayoffQuote,
  type PayoffQuoteQuery,
  type RepaymentDisclosure,
} from './account-money.js';

/**
 * `GET …/accounts/{account_id}/repayment_disclosure`: the card's Minimum Payment
 * Warning as of the user's today. `not_found` for a user or account that is
 * missing or another client's; `conflict` naming `subtype` for an account that is
 * not a card, or naming the field that is missing when no minimum or rate can be derived.
 */
export const getRepaymentDisclosure =
  (deps: Pick<ApplicationDeps, 'accounts' | 'clock'>) =>
  (scope: UserScope, accountId: AccountId): TE.TaskEither<NotFound | Conflict | Unavailable, RepaymentDisclosure> =>
    pipe(
      outsideTransaction(deps.accounts.getOwned(scope.clientId, scope.userId, accountId)),
      ownedOrNotFound('User'),
      ownedSome('Account'),
      TE.chainEitherKW(({ value, owner }) => repaymentDisclosureOf(value, todayOf(deps.clock, owner))),
    );

/**
 * `GET …/accounts/{account_id}/payoff_quote?date=`: the amount that pays the
 * account off on `date` (default the user's today). `validation_error` naming
 * `date` for a date before today or more than 30 days after it; `conflict` naming
 * `last_payment_date` and `next_payment_due_date` when interest has no start.
 */
export const getPayoffQuote =
  (deps: Pick<ApplicationDeps, 'accounts' | 'clock'>) =>
  (
    scope: UserScope,
    accountId: AccountId,
    query: PayoffQuoteQuery,
  ): TE.TaskEither<NotFound | ValidationError | Conflict | Unavailable, PayoffQuote> =>
    pipe(
      outsideTransaction(deps.accounts.getOwned(scope.clientId, scope.userId, accountId)),
      ownedOrNotFound('User'),
      ownedSome('Account'),
      TE.chainEitherKW(({ value, owner }) => payoffQuoteOf(value, todayOf(deps.clock, owner), query.date)),
    );

/** This feature's statement figures, spread into the accounts bundle. */
export const accountMoneyUseCases = (deps: ApplicationDeps) => ({
  getRepaymentDisclosure: getRepaymentDisclosure(deps),
  getPayoffQuote: getPayoffQuote(deps),
});
