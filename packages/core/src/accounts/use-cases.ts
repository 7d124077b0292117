/** Linked accounts (docs/api/reference.md). */
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import {
  validationError,
  type NotFound,
  type QuotaExceeded,
  type Unavailable,
  type StoreError,
  type ValidationError,
} from '../shared/errors.js';
import { Account, accountViewKey, toAccountView, transitionStatus, type AccountRecord } from './account.js';
import type { AccountId, IsoDate } from '../shared/primitives.js';
import { statementTermsProblems, type StatementTerms } from './statement-terms.js';
import type { Page } from '../shared/paging.js';
import type { AccountPatch } from './account-repository.js';
import type { AccountListQuery, LinkAccountBody, PatchAccountBody } from './requests.js';
import {
  ApplicationDeps,
  type Change,
  UserScope,
  checkQuota,
  inUserTransaction,
  mapPage,
  nowStamp,
  orNotFound,
  ownedOrNotFound,
  ownedSome,
  toPageRequest,
  outsideTransaction,
} from '../shared/deps.js';
import { requireUser, todayOf, touchUser } from '../users/user-scope.js';
import { emitEvent } from '../webhooks/events.use-cases.js';
import { accountMoneyUseCases } from './account-money.use-cases.js';

export const linkAccount =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork' | 'versioning' | 'quotas' | 'minimumOnly'>) =>
  (scope: UserScope, body: LinkAccountBody): Change<Account, ValidationError | NotFound | QuotaExceeded | StoreError> => {
    const status = body.status ?? 'active';
    const terms = givenTerms(body);
    // Statement terms checked together before anything is read or written (docs/decisions/payoff-and-outlook.md): a 400 naming the field.
    const problems = statementTermsProblems({
      type: body.type,
      subtype: body.subtype,
      balance: body.balance,
      fixedMinimum: body.institution_minimum_payment ?? null,
      ...terms,
    });

    // One transaction: the owner bump (the user's delete and a concurrent creation conflict with it;
    // it answers the user, whose clock dates the account), the quota counted in the same snapshot, the account and its event.
    return inUserTransaction(deps, scope, (tx) =>
      pipe(
        TE.fromEither(problems.length > 0 ? E.left(validationError('Invalid account', problems)) : E.right(undefined)),
        TE.chainW(() => touchUser(tx, scope)),
        TE.map((user) => todayOf(deps.clock, user)),
        TE.chainFirstW(() => checkQuota(deps, 'accountsPerUser', tx.accounts.countForUser(scope.userId))),
        TE.chainW((date) =>
          pipe(
            tx.accounts.create({
              user_id: scope.userId,
              name: body.name,
              type: body.type,
              subtype: body.subtype,
              mask: body.mask ?? null,
              status,
              nickname: body.nickname ?? null,
              apr: body.institution_apr ?? null,
              minimum_payment: body.institution_minimum_payment ?? null,
              user_apr: null,
              user_minimum_payment: null,
              original_loan_amount: body.original_loan_amount ?? null,
              balance: body.balance,
              limit: body.limit ?? null,
              last_payment_amount: body.last_payment_amount ?? null,
              last_payment_date: body.last_payment_date ?? null,
              opened_at: body.opened_at ?? null,
              closed_at: status === 'closed' ? date : null,
              institution_name: body.institution_name ?? null,
              institution_logo: body.institution_logo ?? null,
              next_payment_due_date: body.next_payment_due_date ?? null,
              user_next_payment_date: null,
              first_time_payment: body.first_time_payment ?? null,
              payments_history: body.payments_history ?? [],
              last_updated_at: date,
              created_at: nowStamp(deps.clock),
              ...terms,
            }),
            TE.map((a) => toAccountView(a, date, deps.minimumOnly)),
          ),
        ),
        TE.chainFirstW(emitEvent(tx, scope, 'account.created', 'account')),
      ),
    );
  };

/** The statement terms a body gives (non-null ones): an account without them is stored exactly as before docs/decisions/payoff-and-outlook.md. */
const givenTerms = (body: StatementTerms): StatementTerms => {
  const terms: Record<string, unknown> = {};
  for (const key of STATEMENT_TERM_KEYS) if (body[key] !== undefined && body[key] !== null) terms[key] = body[key];
  return terms as StatementTerms;
};

const STATEMENT_TERM_KEYS = ['interest_method', 'minimum_payment_formula', 'apr_segments', 'escrow_payment', 'accrued_interest'] as const;

/** The user and the page are one owned read (shared/owned-read.ts), like `getAccount`. */
export const listAccounts =
  (deps: Pick<ApplicationDeps, 'accounts' | 'clock' | 'minimumOnly'>) =>
  (scope: UserScope, query: AccountListQuery): TE.TaskEither<NotFound | Unavailable, Page<Account>> => {
    const filter = {
      ...(query.type === undefined ? {} : { type: query.type }),
      ...(query.status === undefined ? {} : { status: query.status }),
    };
    return pipe(
      outsideTransaction(deps.accounts.listOwned(scope.clientId, scope.userId, toPageRequest(query), filter)),
      ownedOrNotFound('User'),
      TE.map(({ value, owner }) => {
        const date = todayOf(deps.clock, owner);
        return mapPage((a: AccountRecord) => toAccountView(a, date, deps.minimumOnly))(value);
      }),
    );
  };

/**
 * The user and the account are one owned read (shared/owned-read.ts): one store
 * round trip where the store can join, and the same two 404s as ever.
 */
export const getAccount =
  (deps: Pick<ApplicationDeps, 'accounts' | 'clock' | 'minimumOnly' | 'accountViews'>) =>
  (scope: UserScope, accountId: AccountId): TE.TaskEither<NotFound | Unavailable, Account> =>
    pipe(
      outsideTransaction(deps.accounts.getOwned(scope.clientId, scope.userId, accountId)),
      ownedOrNotFound('User'),
      ownedSome('Account'),
      TE.map(({ value, owner }) => {
        const today = todayOf(deps.clock, owner);
        const build = (): Account => toAccountView(value, today, deps.minimumOnly);
        // An unchanged account read again on the same day is the view already built (`accountViewKey`).
        return deps.accountViews === undefined ? build() : deps.accountViews(accountViewKey(value, today), build);
      }),
    );

/**
 * Patch the user-editable fields; status follows the transitions of the domain
 * (closed is terminal). One transaction with its event; the write is a
 * compare-and-set on the account's version, and the transaction writes the
 * account, so an edit computed from a state that changed meanwhile (a close)
 * conflicts and is computed again from a fresh snapshot.
 */
export const updateAccount =
  (deps: Pick<ApplicationDeps, 'clock' | 'unitOfWork' | 'versioning' | 'minimumOnly'>) =>
  (scope: UserScope, accountId: AccountId, body: PatchAccountBody): TE.TaskEither<ValidationError | NotFound | StoreError, Account> =>
    inUserTransaction(deps, scope, (tx) =>
      pipe(
        requireUser(tx, scope),
        TE.map((user) => todayOf(deps.clock, user)),
        TE.chainW((date) =>
          pipe(
            patchAccountOnce(tx, scope, accountId, body, date),
            TE.map((patched) => ({ ...patched, date })),
          ),
        ),
        TE.chainW(({ record, closing, date }) =>
          pipe(
            TE.right(toAccountView(record, date, deps.minimumOnly)),
            // Only the PATCH that closes the account is account.closed; any other is account.updated (docs/decisions/webhooks.md).
            TE.chainFirstW(emitEvent(tx, scope, closing ? 'account.closed' : 'account.updated', 'account')),
          ),
        ),
      ),
    );

const patchAccountOnce = (
  deps: Pick<ApplicationDeps, 'accounts'>,
  scope: UserScope,
  accountId: AccountId,
  body: PatchAccountBody,
  date: IsoDate,
) =>
  pipe(
    pipe(deps.accounts.get(scope.userId, accountId), orNotFound('Account')),
    TE.chainW((current) =>
      pipe(
        TE.fromEither(
          pipe(
            body.status === undefined ? E.right(current.status) : transitionStatus(current.status, body.status),
            E.map((status) => {
              const closing = status === 'closed' && current.status !== 'closed';
              const patch: AccountPatch = {
                ...body,
                status,
                ...(closing ? { closed_at: date } : {}),
                last_updated_at: date,
              };
              return { patch, closing };
            }),
            // The statement terms as they would be after the patch, checked together (docs/decisions/payoff-and-outlook.md): a 400 naming the field, nothing stored.
            E.chainW(({ patch, closing }) => {
              const after = { ...current, ...patch };
              const problems = statementTermsProblems({ ...after, fixedMinimum: after.user_minimum_payment ?? after.minimum_payment });
              return problems.length > 0 ? E.left(validationError('Invalid account', problems)) : E.right({ patch, closing });
            }),
          ),
        ),
        TE.chainW(({ patch, closing }) =>
          pipe(
            deps.accounts.update(scope.userId, accountId, current.version, patch),
            orNotFound('Account'),
            TE.map((record) => ({ record, closing })),
          ),
        ),
      ),
    ),
  );

/** Accounts: this feature's use cases bound to `deps`, as `createApplication` spreads them (docs/adding-a-resource.md). */
export const accountUseCases = (deps: ApplicationDeps) => ({
  linkAccount: linkAccount(deps),
  listAccounts: listAccounts(deps),
  getAccount: getAccount(deps),
  updateAccount: updateAccount(deps),
  ...accountMoneyUseCases(deps),
});
