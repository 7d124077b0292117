/**
 * Sample objects of test events (docs/sandbox-over-time.md): for each event type, the
 * resource its `data.object` carries, built the way the real change builds it
 * (the sandbox demo's accounts and user, the bureau report and score
 * functions, the payoff computation, the endpoint view) and in the latest
 * shape; the caller renders it in the client's version as `emitEvent` does.
 * Ids are fixed sample ids: a test event names no stored resource.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { toAccountView, type AccountRecord } from '../accounts/account.js';
import { creditScoreFields, toCreditScoreView } from '../credit-scores/credit-score.js';
import { deriveCreditReport } from '../bureau/credit-report.js';
import { type ValidationError } from '../shared/errors.js';
import type { SampleEventObject, SampleObject } from '../webhooks/sample-events.js';
import { erasedUserView } from '../users/erasure.js';
import type { PaymentPlan, PlanPayment } from '../payment-plans/payment-plan.js';
import type { AccountId, Cents, ClientId, IsoDate, PaymentPlanId, Timestamp, UserId } from '../shared/primitives.js';
import { idOf } from '../shared/constructors.js';
import { toUserView, type UserRecord } from '../users/user.js';
import { toWebhookEndpointView, type EventType, type WebhookEndpointRecord } from '../webhooks/webhook.js';
import type { ResponseKind } from '../shared/versioning/version-change.js';
import { computationsOf } from '../payment-plans/computations.js';
import { demoAccounts } from '../demo/demo-seed.js';
import type { ApplicationDeps } from '../shared/deps.js';
import { computedPlan, toDebts, toPlanView } from '../payment-plans/use-cases.js';
import { inContext } from '../shared/versioning/version-change.js';
import { planScheduleContext } from '../payment-plans/payment-plan-schedule-paged.js';

/** The sample resources' ids. */
export const SAMPLE_USER_ID = 1001 as UserId;
const SAMPLE_ACCOUNT_ID = 2001;
const SAMPLE_PLAN_ID = 3001 as PaymentPlanId;
const SAMPLE_PAYMENT_ID = idOf('plan_payment', 4001);
const SAMPLE_SCORE_ID = idOf('credit_score', 5001);

export type { SampleObject } from '../webhooks/sample-events.js';

const sampleUser = (createdAt: Timestamp): UserRecord => ({
  id: SAMPLE_USER_ID,
  client_id: 0 as ClientId,
  first_name: 'Alex',
  last_name: 'Rivera',
  email: 'alex.rivera@example.com',
  date_of_birth: '1988-04-12' as IsoDate,
  phone: '+1 555 0100',
  created_at: createdAt,
});

/** The sandbox demo's accounts (demo-seed.ts) as stored records with sample ids. */
const sampleAccounts = (today: IsoDate, createdAt: Timestamp): AccountRecord[] =>
  demoAccounts(today).map(
    (a, i) =>
      ({
        ...a,
        id: (SAMPLE_ACCOUNT_ID + i) as AccountId,
        user_id: SAMPLE_USER_ID,
        created_at: createdAt,
        last_updated_at: today,
        version: 1,
      }) as AccountRecord,
  );

/** The demo's open loans, planned with avalanche at a budget of their minimums plus $300, as plan creation computes it. */
const samplePlan =
  (
    deps: Pick<ApplicationDeps, 'computations'>,
    accounts: ReadonlyArray<AccountRecord>,
    today: IsoDate,
    createdAt: Timestamp,
  ): TE.TaskEither<ValidationError, PaymentPlan> =>
  () => {
    const loans = accounts.filter((a) => a.type === 'loan' && a.subtype !== 'mortgage_loan' && a.balance > 0);
    return pipe(
      toDebts(loans, today),
      E.match(
        (e) => Promise.resolve(E.left(e)),
        (debts) => {
          const monthly = (debts.reduce((sum, d) => sum + d.minimumPayment, 0) + 30_000) as Cents;
          const body = { strategy: 'avalanche' as const, monthly_payment: monthly };
          return computationsOf(deps)
            .planPayoff({ strategy: body.strategy, monthlyPayment: monthly, debts, today })
            .then(
              E.map((result): PaymentPlan => {
                // The plan as the API shows it, carrying its schedule for the versions that embed it (a render context).
                const record = { id: SAMPLE_PLAN_ID, user_id: SAMPLE_USER_ID, ...computedPlan(body, loans, result, today, createdAt) };
                return inContext(toPlanView(record), planScheduleContext([record]));
              }),
            );
        },
      ),
    );
  };

/**
 * The sample object of an event of `type`, as of `today`/`now`; `endpoint`
 * is the endpoint the test goes to (a `webhook_endpoint.disabled` sample is
 * that endpoint, shown disabled for failing).
 */
export const sampleEventObject: SampleEventObject = (
  deps: Pick<ApplicationDeps, 'computations'>,
  type: EventType,
  endpoint: WebhookEndpointRecord,
  today: IsoDate,
  now: Timestamp,
): TE.TaskEither<ValidationError, SampleObject> => {
  const accounts = sampleAccounts(today, now);
  const card = accounts[0] as AccountRecord;
  const user = (kind: ResponseKind, object: unknown): SampleObject => ({ kind, userId: SAMPLE_USER_ID, object });
  const right =
    (sample: SampleObject): TE.TaskEither<never, SampleObject> =>
    () =>
      Promise.resolve(E.right(sample));
  switch (type) {
    case 'account.created':
      return right(user('account', toAccountView(card, today)));
    case 'account.updated':
      return right(user('account', toAccountView({ ...card, nickname: 'Everyday card', version: 2 }, today)));
    case 'account.closed':
      return right(user('account', toAccountView({ ...card, status: 'closed', balance: 0 as Cents, closed_at: today, version: 2 }, today)));
    case 'credit_score.created':
      return right(
        user(
          'credit_score',
          toCreditScoreView({
            ...creditScoreFields(deriveCreditReport(accounts, today), today, 'Rivera', null),
            id: SAMPLE_SCORE_ID,
            user_id: SAMPLE_USER_ID,
            created_at: now,
          }),
        ),
      );
    case 'bureau_auth.completed':
      return right(user('bureau_status', { status: 'authenticated', step: null }));
    case 'payment_plan.created':
    case 'payment_plan.deleted':
      return pipe(samplePlan(deps, accounts, today, now), (plan) => () => plan().then(E.map((p) => user('payment_plan', p))));
    case 'plan_payment.created': {
      const payment: PlanPayment = {
        id: SAMPLE_PAYMENT_ID,
        payment_plan_id: SAMPLE_PLAN_ID,
        account_id: card.id,
        amount: 15_000 as Cents,
        date: today,
      };
      return right(user('plan_payment', payment));
    }
    case 'user.deleted':
      return right(user('user', erasedUserView(toUserView(sampleUser(now)))));
    case 'webhook_endpoint.disabled':
      return right({
        kind: 'webhook_endpoint',
        userId: null,
        object: toWebhookEndpointView({ ...endpoint, status: 'disabled', disabled_reason: 'failing' }),
      });
  }
};
