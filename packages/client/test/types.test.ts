/**
 * The client is typed per API version: what compiles and what does not is the
 * test (this file is part of the build; a `@ts-expect-error` that no longer
 * finds its error fails `tsc -b`). The one runtime check makes sure the
 * functions below exist as written.
 */
import { expect } from 'chai';
import { createClient, unwrap, type ErrorCodeOf, type ListItem, type Schemas } from '../src/index.js';

/** Compiled, never called: each line states what a version's client accepts or answers. */
const typedPerVersion = async (): Promise<void> => {
  const old = createClient({ baseUrl: 'http://127.0.0.1:1', token: 't', apiVersion: '2024-07-01' });
  const latest = createClient({ baseUrl: 'http://127.0.0.1:1', token: 't', apiVersion: '2026-11-26' });
  const params = { path: { id: 1, payment_plan_id: 2 } };

  // A 2024-07-01 plan embeds its schedule; a 2026-11-26 plan does not.
  const oldPlan = await unwrap(old.GET('/api/users/{id}/payment_plans/{payment_plan_id}', { params }));
  const months: number = oldPlan.schedule.length;
  const latestPlan = await unwrap(latest.GET('/api/users/{id}/payment_plans/{payment_plan_id}', { params }));
  // @ts-expect-error the latest version's plan has no schedule (it is paged: /schedule)
  void latestPlan.schedule;

  // Request bodies are the version's own: 2024-07-01 links an account with `apr`, the latest with `institution_apr`.
  await old.POST('/api/users/{id}/accounts', {
    params: { path: { id: 1 } },
    body: { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 1, apr: 20 },
  });
  await latest.POST('/api/users/{id}/accounts', {
    params: { path: { id: 1 } },
    body: { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 1, institution_apr: 20 },
  });
  await latest.POST('/api/users/{id}/accounts', {
    params: { path: { id: 1 } },
    // @ts-expect-error the latest version has no `apr` in the body
    body: { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: 1, apr: 20 },
  });

  // Paths and their parameters are checked.
  // @ts-expect-error no such path
  await latest.GET('/api/userz');
  // @ts-expect-error the user id is required
  await latest.GET('/api/users/{id}', {});

  // An error's code is one the operation documents.
  const { error } = await latest.GET('/api/users/{id}', { params: { path: { id: 1 } } });
  if (error !== undefined) {
    const code:
      | 'validation_error'
      | 'unsupported_version'
      | 'unauthorized'
      | 'not_found'
      | 'method_not_allowed'
      | 'unsupported_media_type'
      | 'rate_limited'
      | 'internal_server_error'
      | 'service_unavailable' = error.error.code;
    void code;
  }
  const created = await latest.POST('/api/users/{id}/payment_plans', {
    params: { path: { id: 1 } },
    body: { strategy: 'avalanche', monthly_payment: 1 },
  });
  const quota: ErrorCodeOf<NonNullable<typeof created.error>> = 'quota_exceeded';
  // @ts-expect-error reading a user never answers quota_exceeded
  const notForGet: NonNullable<typeof error>['error']['code'] = 'quota_exceeded';

  // paginate knows each list's items and takes no starting_after (the cursor is its own).
  for await (const month of latest.paginate('/api/users/{id}/payment_plans/{payment_plan_id}/schedule', { params })) {
    const m: number = month.month;
    void m;
  }
  // @ts-expect-error starting_after is the client's
  latest.paginate('/api/users', { params: { query: { starting_after: 3 } } });
  // @ts-expect-error a plan is not a list
  latest.paginate('/api/users/{id}/payment_plans/{payment_plan_id}', { params });
  const user: ListItem<'2026-11-26', '/api/users'> = { id: 1 } as Schemas<'2026-11-26'>['User'];
  void [months, quota, notForGet, user];
};

describe('@debtkit/client: types per API version', () => {
  it('compiles the typed calls above (the checks are the build)', () => {
    expect(typedPerVersion).to.be.a('function');
  });
});
