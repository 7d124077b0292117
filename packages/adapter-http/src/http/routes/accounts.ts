/**
 * The accounts feature's endpoints (docs/api/reference.md): ONE list of `API_ENDPOINTS` (api-endpoints.ts;
 * docs/adding-a-resource.md). Paths, methods and shapes of the spec's endpoints are exactly the spec's.
 */
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { AccountListQuery, LinkAccountBody, PatchAccountBody, PayoffQuoteQuery } from '@debtkit/core';
import { type Endpoint, endpoint } from './endpoint.js';
import { scope, USER_ERRORS } from './user-scope.js';
import { paged } from './paged-list.js';

export const ACCOUNT_ENDPOINTS: ReadonlyArray<Endpoint> = [
  endpoint({
    method: 'POST',
    path: '/api/users/:id/accounts',
    summary: 'Link an account',
    tag: 'Accounts',
    pathIds: ['id'],
    body: LinkAccountBody,
    status: 201,
    response: { kind: 'account' },
    errors: [...USER_ERRORS, 'quota_exceeded', 'conflict'],
    run: (app, i) => app.linkAccount(scope(i), i.body),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/accounts',
    summary: 'List accounts',
    tag: 'Accounts',
    pathIds: ['id'],
    query: AccountListQuery,
    status: 200,
    response: { kind: 'account_list' },
    errors: USER_ERRORS,
    run: (app, i) => pipe(app.listAccounts(scope(i), i.query), TE.map(paged('accounts'))),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/accounts/:account_id',
    summary: 'Retrieve account',
    tag: 'Accounts',
    pathIds: ['id', 'account_id'],
    status: 200,
    response: { kind: 'account' },
    errors: USER_ERRORS,
    run: (app, i) => app.getAccount(scope(i), i.ids.account_id),
  }),
  endpoint({
    method: 'PATCH',
    path: '/api/users/:id/accounts/:account_id',
    summary: 'Update the user-editable fields or the status of an account',
    tag: 'Accounts',
    pathIds: ['id', 'account_id'],
    body: PatchAccountBody,
    status: 200,
    response: { kind: 'account' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.updateAccount(scope(i), i.ids.account_id, i.body),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/accounts/:account_id/repayment_disclosure',
    summary: "A card's Minimum Payment Warning, as its statement discloses it (Regulation Z Appendix M1)",
    tag: 'Accounts',
    description:
      'The minimum payment repayment estimate (months; years as the statement rounds them), its total cost, and the payment that repays the ' +
      'balance in 36 months with its total cost and savings, computed as Regulation Z Appendix M1 says (equal months of 365/12 days, no grace ' +
      "period, the minimum to the lowest rate first, a deferred-interest balance at 0% only if the minimums repay it in time) as of the user's " +
      'today. Amounts are cents rounded to the dollar. `three_year` is null when the rounded estimate is 3 years or less; a minimum that never ' +
      'repays answers `never_pays_off: true` and `minimum_payments_only: null`. Cards only (`credit_card_loan`, `medical_loan`): 409 naming ' +
      '`subtype` otherwise, and 409 naming the missing field when the account has no rate or no minimum can be derived.',
    pathIds: ['id', 'account_id'],
    status: 200,
    response: { kind: 'repayment_disclosure' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.getRepaymentDisclosure(scope(i), i.ids.account_id),
  }),
  endpoint({
    method: 'GET',
    path: '/api/users/:id/accounts/:account_id/payoff_quote',
    summary: 'What paying the account off in full on a date costs: balance, interest due, per diem',
    tag: 'Accounts',
    description:
      "`date` (`YYYY-MM-DD`, default the user's today; from today to 30 days after it, else 400) is the day the quote is good through. " +
      '`interest_due` = the accrued interest plus the interest from `last_payment_date` (else one month before `next_payment_due_date`) to ' +
      '`good_through`, per segment at APR/365 a day (compounded daily for `daily_compound`); `per_diem` is one more day of it; `payoff_amount` = ' +
      'balance + `interest_due`, plus a deferred-interest charge once its promotion has ended with a balance. `trailing_interest_note` is true ' +
      'for cards, which may post interest after a payoff. 409 naming `last_payment_date` and `next_payment_due_date` when the account has ' +
      'neither, `apr` when it has no rate, `type` when it is not a debt.',
    pathIds: ['id', 'account_id'],
    query: PayoffQuoteQuery,
    status: 200,
    response: { kind: 'payoff_quote' },
    errors: [...USER_ERRORS, 'conflict'],
    run: (app, i) => app.getPayoffQuote(scope(i), i.ids.account_id, i.query),
  }),
];
