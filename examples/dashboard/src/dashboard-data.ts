/**
 * What the dashboard shows, read with @debtkit/client: the user's accounts, their
 * plan and a minimum-only plan beside it (each reused when the user has one,
 * created once otherwise), both schedules month by month, and the plan's credit
 * outlook. Runs in the browser (the page) and in Node (the test reads the same
 * API independently to check the charts).
 */
import { unwrap, type DebtkitClient, type ListItem, type Schemas } from '@debtkit/client';

export const API_VERSION = '2026-11-26' as const;
type V = typeof API_VERSION;
export type Client = DebtkitClient<V>;
export type Account = Schemas<V>['Account'];
export type PaymentPlan = Schemas<V>['PaymentPlan'];
export type ScheduleMonth = ListItem<V, '/api/users/{id}/payment_plans/{payment_plan_id}/schedule'>;
export type CreditOutlook = Schemas<V>['CreditOutlook'];

export interface DashboardData {
  readonly user: Schemas<V>['User'];
  readonly accounts: ReadonlyArray<Account>;
  readonly plan: PaymentPlan;
  readonly minimumOnly: PaymentPlan;
  readonly planSchedule: ReadonlyArray<ScheduleMonth>;
  readonly minimumSchedule: ReadonlyArray<ScheduleMonth>;
  readonly outlook: CreditOutlook;
  /** Whether this load created a plan (the first load for a user does; later loads reuse). */
  readonly created: ReadonlyArray<string>;
}

/** The plan the dashboard makes for a user who has none: avalanche, this much a month (cents). */
export const DEFAULT_MONTHLY_PAYMENT = 300_000;

const collect = async <A>(items: AsyncIterable<A>): Promise<A[]> => {
  const all: A[] = [];
  for await (const item of items) all.push(item);
  return all;
};

/**
 * The user's plan (the first one that is not minimum-only) and their minimum-only plan,
 * created only when missing. The keys are fixed per user, so two first loads at once
 * still make one plan each (the server answers the second with the first's plan).
 */
const planOf = async (
  client: Client,
  userId: number,
  plans: ReadonlyArray<PaymentPlan>,
  minimumOnly: boolean,
  created: string[],
): Promise<PaymentPlan> => {
  const found = plans.find((p) => (p.strategy === 'minimum_only') === minimumOnly);
  if (found !== undefined) return found;
  const strategy = minimumOnly ? 'minimum_only' : 'avalanche';
  created.push(strategy);
  return unwrap(
    client.POST('/api/users/{id}/payment_plans', {
      params: { path: { id: userId } },
      body: { strategy, monthly_payment: DEFAULT_MONTHLY_PAYMENT },
      headers: { 'Idempotency-Key': `dashboard-user-${userId}-${strategy}` },
    }),
  );
};

export const loadDashboard = async (client: Client, userId: number): Promise<DashboardData> => {
  const path = { id: userId };
  const [user, accounts, plans] = await Promise.all([
    unwrap(client.GET('/api/users/{id}', { params: { path } })),
    collect(client.paginate('/api/users/{id}/accounts', { params: { path, query: { limit: 100 } } })),
    collect(client.paginate('/api/users/{id}/payment_plans', { params: { path, query: { limit: 100 } } })),
  ]);
  const created: string[] = [];
  const plan = await planOf(client, userId, plans, false, created);
  const minimumOnly = await planOf(client, userId, plans, true, created);
  const schedule = (id: number) =>
    collect(
      client.paginate('/api/users/{id}/payment_plans/{payment_plan_id}/schedule', {
        params: { path: { id: userId, payment_plan_id: id }, query: { limit: 100 } },
      }),
    );
  const [planSchedule, minimumSchedule, outlook] = await Promise.all([
    schedule(plan.id),
    schedule(minimumOnly.id),
    unwrap(
      client.GET('/api/users/{id}/payment_plans/{payment_plan_id}/credit_outlook', {
        params: { path: { id: userId, payment_plan_id: plan.id } },
      }),
    ),
  ]);
  return { user, accounts, plan, minimumOnly, planSchedule, minimumSchedule, outlook, created };
};

/** An account's balance after each month of a schedule (cents); a month that no longer lists it (paid off) is 0. */
export const balancesOf = (schedule: ReadonlyArray<ScheduleMonth>, accountId: number): number[] =>
  schedule.map((m) => m.payments.find((p) => p.account_id === accountId)?.balance ?? 0);

/** The whole debt of a schedule after each month (cents). */
export const totalsOf = (schedule: ReadonlyArray<ScheduleMonth>): number[] =>
  schedule.map((m) => m.payments.reduce((sum, p) => sum + p.balance, 0));

/** Cents as dollars for people: 345012 → "$3,450.12". */
export const dollars = (cents: number): string =>
  `${cents < 0 ? '−' : ''}$${(Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const FACTOR_NAMES = [
  'payment_history',
  'credit_utilization',
  'derogatory_marks',
  'credit_age',
  'credit_mix',
  'new_credit',
] as const;
export const FACTOR_LABELS: Record<(typeof FACTOR_NAMES)[number], string> = {
  payment_history: 'Payment history (% on time)',
  credit_utilization: 'Credit utilization (%)',
  derogatory_marks: 'Derogatory marks',
  credit_age: 'Credit age (years)',
  credit_mix: 'Credit mix (kinds of account)',
  new_credit: 'New credit (recent accounts)',
};
