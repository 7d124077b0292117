/**
 * The sandbox over time (docs/sandbox-over-time.md): `POST /api/users/{id}/sandbox/advance`
 * moves a sandbox user's clock month by month.
 *
 * Why several transactions, not one: an advance of 12 months is 12 months of
 * payments, account changes, scores and events. The request first records its
 * target on the user (one small transaction); each month is then a
 * transaction of its own (`unitOfWork.run`: committed on its own even under an
 * Idempotency-Key's enclosing transaction), so a request that fails midway
 * keeps the months it applied, and whatever advance comes next (its retry, or
 * any later one) continues to the recorded target and never past it.
 *
 * A fair share (docs/decisions/tenancy.md): every transaction of an advance
 * takes the user's turn (`userTurn`), so concurrent advances of one user (and
 * the user's other changes) in this process go one after the other instead of
 * each computing and writing the same month only to lose it as a write
 * conflict; a month's CPU-heavy projection runs in `sandboxComputations` (the
 * HTTP adapter's worker pool); and the writes give other requests a turn
 * before each month and every 10 accounts (`yieldToOthers`).
 */
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as t from 'io-ts';
import type { AccountRecord } from '../accounts/account.js';
import { creditScoreFields, toCreditScoreView } from '../credit-scores/credit-score.js';
import {
  conflict,
  notFound,
  validationError,
  type ValidationError,
  type NotFound,
  type Conflict,
  type BureauError,
  type StoreError,
  type DomainError,
} from '../shared/errors.js';
import type { PaymentPlanRecord } from '../payment-plans/payment-plan.js';
import { Cents, IsoDate, nullable, type PaymentPlanId } from '../shared/primitives.js';
import {
  accountsMissingTerms,
  accountsPastMaximum,
  advanceMonthDate,
  advanceTarget,
  isAdvanced,
  monthsLeft,
  planMonthIn,
  type ProjectedMonth,
} from './sandbox-clock.js';
import type { SandboxAdvance, UserRecord } from '../users/user.js';
import type { TransactionPorts } from '../shared/store-ports.js';
import type { SandboxAdvanceBody } from './requests.js';
import { ApplicationDeps, type Change, UserScope, noChange, nowStamp, orNotFound } from '../shared/deps.js';
import { requireUser, todayOf } from '../users/user-scope.js';
import { emitEvent } from '../webhooks/events.use-cases.js';
import { userTurn } from '../shared/transactions.js';
import { sandboxComputationsOf, type SandboxDeps } from './sandbox-computations.js';

/**
 * One month of an advance, as the answer lists it (sums over the user's open
 * loans): `deferred_interest` is the deferred interest charged that month
 * (docs/decisions/payoff-and-outlook.md), apart from `interest`, so that the previous month's balance +
 * interest + deferred_interest − paid = balance.
 */
export const SandboxMonth = t.type(
  { date: IsoDate, interest: Cents, deferred_interest: Cents, paid: Cents, balance: Cents, score: nullable(t.number) },
  'SandboxMonth',
);
export type SandboxMonth = t.TypeOf<typeof SandboxMonth>;

/** The answer of an advance: the user's clock after it, and the months this call applied, in order. */
export const SandboxAdvanceResult = t.type({ sandbox_date: IsoDate, months: t.array(SandboxMonth) }, 'SandboxAdvanceResult');
export type SandboxAdvanceResult = t.TypeOf<typeof SandboxAdvanceResult>;

type Deps = Pick<ApplicationDeps, 'bureau' | 'clock' | 'unitOfWork' | 'versioning' | 'sandboxClock' | 'yieldToOthers'> & SandboxDeps;
type Tx = Deps & TransactionPorts;

const NOT_HERE: NotFound = notFound('Not found');

const badPlan = (message: string): ValidationError => validationError('Invalid payment_plan_id', [{ path: 'payment_plan_id', message }]);

/** The body's own rules: a plan is named exactly when the plan pays. */
const checkBody = (body: SandboxAdvanceBody): E.Either<ValidationError, void> =>
  body.payments === 'plan' && body.payment_plan_id === undefined
    ? E.left(badPlan('is required with payments "plan"'))
    : body.payments !== 'plan' && body.payment_plan_id !== undefined
      ? E.left(badPlan('is only allowed with payments "plan"'))
      : E.right(undefined);

/** The plan an advance pays: the user's (400 naming `payment_plan_id` for a missing or another user's plan). */
const planOf = (
  tx: Tx,
  scope: UserScope,
  planId: PaymentPlanId | null,
): TE.TaskEither<ValidationError | StoreError, O.Option<PaymentPlanRecord>> =>
  planId === null
    ? TE.right(O.none)
    : pipe(
        tx.paymentPlans.get(scope.userId, planId),
        TE.chainW(
          O.match(
            () => TE.left(badPlan(`no payment plan ${planId} for this user`)),
            (plan) => TE.right(O.some(plan)),
          ),
        ),
      );

/** 409 naming every open loan with a balance that has no APR or no minimum. */
const checkTerms = (accounts: ReadonlyArray<AccountRecord>): E.Either<Conflict, void> => {
  const missing = accountsMissingTerms(accounts);
  return missing.length === 0
    ? E.right(undefined)
    : E.left(conflict(`The user's accounts cannot be advanced: ${missing.map((d) => d.message).join('; ')}`));
};

/**
 * The first transaction: the advance to run. An unfinished one recorded on
 * the user is continued as it was recorded (its retry, or a later advance,
 * goes to the same target and no further); otherwise the body's is recorded.
 */
const recordAdvance = (
  tx: Tx,
  scope: UserScope,
  body: SandboxAdvanceBody,
): TE.TaskEither<ValidationError | NotFound | StoreError, { advance: SandboxAdvance; userDate: IsoDate }> =>
  pipe(
    requireUser(tx, scope),
    TE.chainW((user) => {
      const userDate = todayOf(tx.clock, user);
      const pending = user.sandbox_advance;
      if (pending !== undefined && pending !== null && advanceTarget(pending) > userDate) return TE.right({ advance: pending, userDate });
      const advance: SandboxAdvance = {
        from: userDate,
        months: body.months,
        payments: body.payments,
        payment_plan_id: body.payment_plan_id ?? null,
      };
      return pipe(
        planOf(tx, scope, advance.payment_plan_id),
        TE.chainW(() => tx.accounts.listAll(scope.userId)),
        TE.chainEitherKW(checkTerms),
        TE.chainW(() => tx.users.update(scope.clientId, scope.userId, { sandbox_advance: advance })),
        orNotFound('User'),
        TE.map(() => ({ advance, userDate })),
      );
    }),
  );

const sum = (xs: ReadonlyArray<number>): Cents => xs.reduce((a, b) => a + b, 0) as Cents;

/** Accounts of one month written between two turns given to other requests (`yieldToOthers`). */
const ACCOUNTS_PER_TURN = 10;

/**
 * One month, one transaction: `undefined` when the user's clock is already
 * past it (another request applied it), else what it did. Everything it
 * reads and writes is the user's: the user (whose clock it moves), the
 * accounts, the plan (bumped, so the plan's delete conflicts), its payments,
 * the new score and the events. The month's projection (`projectMonth`) is
 * computed from the accounts this transaction read, off the event loop where
 * the adapter gives a pool; each account is then written by compare-and-set on
 * the version it was read at, so a change that committed between the read and
 * the write is a write conflict, and the month runs again from a fresh read
 * (docs/decisions/transactions.md): nothing is lost and nothing applied twice.
 */
const applyAdvanceMonth = (
  tx: Tx,
  scope: UserScope,
  advance: SandboxAdvance,
  i: number,
): TE.TaskEither<ValidationError | NotFound | BureauError | StoreError, SandboxMonth | undefined> => {
  const date = advanceMonthDate(advance, i);
  const monthStart = advanceMonthDate(advance, i - 1);
  return pipe(
    requireUser(tx, scope),
    TE.chainW((user: UserRecord) => {
      if (todayOf(tx.clock, user) >= date) return TE.right(undefined);
      return pipe(
        TE.Do,
        TE.bindW('plan', () => planOf(tx, scope, advance.payment_plan_id)),
        TE.bindW('accounts', () => tx.accounts.listAll(scope.userId)),
        TE.chainFirstEitherKW(({ accounts }) => checkTerms(accounts)),
        // The month's projection, computed off the event loop where the adapter gives a pool (sandbox-computations.ts), from
        // the accounts read in this transaction; written below by compare-and-set on their versions.
        TE.bindW(
          'projected',
          ({ plan, accounts }): TE.TaskEither<never, ProjectedMonth> =>
            () =>
              sandboxComputationsOf(tx).sandboxMonth({
                // Only the accounts a month moves cross to the pool (a copy each way is the event loop's part).
                accounts: accounts.filter(isAdvanced),
                date,
                from: monthStart,
                payments: advance.payments,
                planMonth: O.isSome(plan) ? planMonthIn(plan.value.schedule, monthStart, date) : undefined,
              }),
        ),
        TE.let('months', ({ projected }) => projected.months),
        // No account past the maximum balance (issue 42): the advance stops here, with the months before it applied.
        TE.chainFirstEitherKW(({ months }) => {
          const past = accountsPastMaximum(months);
          return past.length === 0
            ? E.right(undefined)
            : E.left(conflict(`The advance stops at ${date}: ${past.map((d) => d.message).join('; ')}`));
        }),
        // The plan's payments, recorded as payments under it, each with its event.
        TE.chainFirstW(({ plan, months }) =>
          O.isNone(plan)
            ? TE.right(undefined)
            : pipe(
                tx.paymentPlans.touch(scope.userId, plan.value.id),
                TE.chainW(() =>
                  TE.sequenceSeqArray(
                    months
                      .filter((m) => m.paid > 0)
                      .map((m) =>
                        pipe(
                          tx.planPayments.create({
                            user_id: scope.userId,
                            payment_plan_id: plan.value.id,
                            account_id: m.accountId,
                            amount: m.paid,
                            date,
                          }),
                          TE.chainW((p) =>
                            emitEvent(
                              tx,
                              scope,
                              'plan_payment.created',
                              'plan_payment',
                            )({
                              id: p.id,
                              payment_plan_id: p.payment_plan_id,
                              account_id: p.account_id,
                              amount: p.amount,
                              date: p.date,
                            }),
                          ),
                        ),
                      ),
                  ),
                ),
              ),
        ),
        // Each moved account: one compare-and-set write and one account.updated.
        TE.bindW('updated', ({ accounts, months, projected }) =>
          TE.sequenceSeqArray(
            months.map((m, n) => {
              const current = accounts.find((a) => a.id === m.accountId);
              const view = projected.views[n];
              // A month of many accounts gives other requests a turn every ACCOUNTS_PER_TURN of them.
              const turn: TE.TaskEither<never, void> =
                n > 0 && n % ACCOUNTS_PER_TURN === 0 && tx.yieldToOthers !== undefined
                  ? TE.fromTask(tx.yieldToOthers)
                  : TE.right(undefined);
              return current === undefined || view === undefined
                ? TE.left(notFound('Account not found'))
                : pipe(
                    turn,
                    TE.chainW(() => tx.accounts.update(scope.userId, m.accountId, current.version, m.patch)),
                    orNotFound('Account'),
                    // The view the projection made of this account after the month: the stored account is its read with the patch over it.
                    TE.chainFirstW(() => emitEvent(tx, scope, 'account.updated', 'account')(view)),
                  );
            }),
          ),
        ),
        // The sandbox bureau's report of the accounts as they are now, as a new score.
        TE.bindW('score', ({ accounts, updated }) => {
          const after = accounts.map((a) => updated.find((u) => u.id === a.id) ?? a);
          return pipe(
            TE.Do,
            TE.bindW('report', () => tx.bureau.fetchReport(user, after, date)),
            TE.bindW('previous', () => tx.creditScores.latest(scope.userId)),
            TE.chainW(({ report, previous }) =>
              tx.creditScores.add({
                ...creditScoreFields(report, date, user.last_name, O.isSome(previous) ? previous.value.score : null),
                user_id: scope.userId,
                created_at: nowStamp(tx.clock),
              }),
            ),
            TE.chainFirstW((score) => emitEvent(tx, scope, 'credit_score.created', 'credit_score')(toCreditScoreView(score))),
          );
        }),
        TE.chainFirstW(() => pipe(tx.users.update(scope.clientId, scope.userId, { sandbox_date: date }), orNotFound('User'))),
        TE.map(({ months, score }): SandboxMonth => ({
          date,
          interest: sum(months.map((m) => m.interest)),
          deferred_interest: sum(months.map((m) => m.deferredInterest)),
          paid: sum(months.map((m) => m.paid)),
          balance: sum(months.map((m) => m.balanceAfter)),
          score: score.score,
        })),
      );
    }),
  );
};

/**
 * `POST /api/users/{id}/sandbox/advance` (docs/sandbox-over-time.md). 404 outside the
 * sandbox; 400 for a body whose plan is missing, superfluous or not the
 * user's; 409 when an open loan with a balance has no APR or no minimum.
 * Answers the user's clock after it and the months this call applied.
 */
export const advanceSandbox =
  (deps: Deps) =>
  (scope: UserScope, body: SandboxAdvanceBody): Change<SandboxAdvanceResult, ValidationError | NotFound | BureauError | StoreError> =>
    // Not one change: the target, then each month, each commits on its own (`run`), so a failure keeps the months
    // before it. Under an Idempotency-Key the answer is kept once the target is reached; a failure is not kept
    // (503), so the retry with the key runs again and continues to the same target.
    noChange(async () => {
      if (deps.sandboxClock !== true) return E.left(NOT_HERE);
      const checked = checkBody(body);
      if (E.isLeft(checked)) return checked;
      // Each transaction on its own (`run`, not the key's), in the user's turn (docs/decisions/transactions.md, hot records).
      const alone = <A, Err extends DomainError>(work: (tx: Tx) => TE.TaskEither<Err, A>) =>
        deps.unitOfWork.run((ports) => work({ ...deps, ...ports }), { turn: userTurn(scope.clientId, scope.userId) });
      const recorded = await alone((tx) => recordAdvance(tx, scope, body))();
      if (E.isLeft(recorded)) return recorded;
      const { advance, userDate } = recorded.right;
      const applied: SandboxMonth[] = [];
      for (const i of monthsLeft(advance, userDate)) {
        // A fair share (docs/decisions/tenancy.md): each month is one transaction, and other requests get a turn between months.
        await deps.yieldToOthers?.();
        const month = await alone((tx) => applyAdvanceMonth(tx, scope, advance, i))();
        if (E.isLeft(month)) return month;
        if (month.right !== undefined) applied.push(month.right);
      }
      return E.right({ sandbox_date: todayOf(deps.clock, { sandbox_date: advanceTarget(advance) }), months: applied });
    });

/** The sandbox over time: this feature's use cases bound to `deps`, as `createApplication` spreads them (docs/adding-a-resource.md). */
export const sandboxUseCases = (deps: ApplicationDeps & SandboxDeps) => ({
  advanceSandbox: advanceSandbox(deps),
});
