/**
 * Every use case that changes more than one record, as HTTP requests (issue 22):
 * the one scenario table the fault suites share (memory and mongo in one
 * process, mongo across two API processes). Each scenario prepares what its
 * request needs over the API, then names the request. `checkFault` is the one
 * check each suite runs per injected fault: the request fails (503) with
 * nothing committed, the retry (with its Idempotency-Key when the request takes
 * one) has exactly the change's effect, and a replay or a second send changes
 * nothing more.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { Db } from 'mongodb';
import type supertest from 'supertest';
import { COLLECTIONS } from '@debtkit/adapter-mongo';
import type { MemoryDatabase } from '@debtkit/adapter-memory';

/** A request of the API; `admin`: with the admin token instead of the client's. */
export interface ApiRequest {
  readonly method: 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: object;
  readonly admin?: boolean;
}

export interface ApiAnswer {
  readonly status: number;
  readonly text: string;
  /** The `Idempotent-Replayed` header, if any. */
  readonly replayed: string | undefined;
}

/** Sends a request to one API process, with `key` as its Idempotency-Key when given. */
export type Api = (request: ApiRequest, key?: string) => Promise<ApiAnswer>;

/** docs/decisions/idempotency.md: every POST under /api takes an Idempotency-Key; PATCH, DELETE and the admin API do not. */
export const isKeyed = (r: ApiRequest): boolean => r.method === 'POST' && r.path.startsWith('/api/');

export interface Scenario {
  readonly name: string;
  /** The success status. */
  readonly status: number;
  /** How many events the change records. */
  readonly events: number;
  /**
   * For a request that takes no key: what sending it once more after its retry
   * answers (it must change nothing more). Unset: not sent again (a second
   * PATCH would be a second change). A keyed request is always sent again: a replay.
   */
  readonly again?: number;
  /** Prepares (over `api`, before any fault) what the request needs; answers the request. */
  readonly make: (api: Api) => Promise<ApiRequest>;
}

/** `request` sent on `api`; its answer's JSON body when it answers `status`. */
export const call = async (api: Api, request: ApiRequest, status: number): Promise<Record<string, unknown>> => {
  const answer = await api(request);
  expect(answer.status, `${request.method} ${request.path}: ${answer.text}`).to.equal(status);
  return answer.text === '' ? {} : (JSON.parse(answer.text) as Record<string, unknown>);
};

let unique = 0;

/** A new user; with a loan account, and a plan over it, as far as `upTo` asks (each is a request or two per fault). */
export const aUserWith = async (
  api: Api,
  upTo: 'nothing' | 'an account' | 'a plan',
): Promise<{ userPath: string; accountPath: string; planPath: string }> => {
  const email = `ada.${process.pid}.${++unique}.${Date.now()}@example.com`;
  const user = await call(
    api,
    { method: 'POST', path: '/api/users', body: { first_name: 'Ada', last_name: 'Lovelace', email, date_of_birth: '1990-01-02' } },
    201,
  );
  const userPath = `/api/users/${String(user['id'])}`;
  if (upTo === 'nothing') return { userPath, accountPath: '', planPath: '' };
  const account = await call(
    api,
    {
      method: 'POST',
      path: `${userPath}/accounts`,
      body: { name: 'Car loan', type: 'loan', subtype: 'auto_loan', balance: 1_000_000, apr: 0.07, minimum_payment: 20_000 },
    },
    201,
  );
  const accountPath = `${userPath}/accounts/${String(account['id'])}`;
  if (upTo === 'an account') return { userPath, accountPath, planPath: '' };
  const plan = await call(
    api,
    { method: 'POST', path: `${userPath}/payment_plans`, body: { strategy: 'avalanche', monthly_payment: 50_000 } },
    201,
  );
  return { userPath, accountPath, planPath: `${userPath}/payment_plans/${String(plan['id'])}` };
};

/** A new user (no accounts) with the bureau flow taken through `steps`. */
const aUserInBureauFlow = async (api: Api, steps: ReadonlyArray<'invoke' | 'consent' | 'validate_otp'>): Promise<string> => {
  const auth = `${(await aUserWith(api, 'nothing')).userPath}/bureau/auth`;
  for (const step of steps) await call(api, { method: 'POST', ...BUREAU_STEPS[step](auth) }, 200);
  return auth;
};

const BUREAU_STEPS = {
  invoke: (auth: string) => ({ path: `${auth}/invoke`, body: { device_ip: '203.0.113.7' } }),
  consent: (auth: string) => ({ path: `${auth}/consent`, body: { accepted: true } }),
  validate_otp: (auth: string) => ({ path: `${auth}/validate_otp`, body: { code: '123456' } }),
  identity: (auth: string) => ({ path: `${auth}/identity`, body: { ssn_last4: '1234', date_of_birth: '1990-01-02' } }),
} as const;

/** A loopback URL nothing listens on (delivery attempts, where a process makes them, fail at once). */
const HOOK = { url: 'http://127.0.0.1:9/debtkit-hook', events: ['account.closed'] };

const aWebhookEndpoint = async (api: Api): Promise<string> =>
  `/api/webhook_endpoints/${String((await call(api, { method: 'POST', path: '/api/webhook_endpoints', body: HOOK }, 201))['id'])}`;

const aClient = async (api: Api): Promise<string> => {
  const created = await call(api, { method: 'POST', path: '/admin/clients', admin: true, body: { name: `Budget app ${++unique}` } }, 201);
  return `/admin/clients/${String((created['client'] as { id: number }).id)}`;
};

/**
 * Every use case that writes, as a request (the admin ones need the admin API
 * on). Names are stable: suites may pick by name.
 */
export const SCENARIOS: ReadonlyArray<Scenario> = [
  {
    name: 'a plan payment',
    status: 201,
    events: 1,
    make: async (api) => {
      const u = await aUserWith(api, 'a plan');
      return {
        method: 'POST',
        path: `${u.planPath}/payments`,
        body: { account_id: Number(u.accountPath.split('/').pop()), amount: 1_000 },
      };
    },
  },
  {
    name: 'a plan creation',
    status: 201,
    events: 1,
    make: async (api) => ({
      method: 'POST',
      path: `${(await aUserWith(api, 'an account')).userPath}/payment_plans`,
      body: { strategy: 'snowball', monthly_payment: 60_000 },
    }),
  },
  {
    name: 'a plan deletion',
    status: 204,
    events: 1,
    again: 404,
    make: async (api) => ({ method: 'DELETE', path: (await aUserWith(api, 'a plan')).planPath }),
  },
  {
    name: 'an account creation',
    status: 201,
    events: 1,
    make: async (api) => ({
      method: 'POST',
      path: `${(await aUserWith(api, 'nothing')).userPath}/accounts`,
      body: { name: 'Store card', type: 'loan', subtype: 'credit_card_loan', balance: 12_000, apr: 0.25, minimum_payment: 2_500 },
    }),
  },
  {
    name: 'an account update',
    status: 200,
    events: 1,
    make: async (api) => ({
      method: 'PATCH',
      path: (await aUserWith(api, 'an account')).accountPath,
      body: { nickname: 'The car', user_apr: 0.05 },
    }),
  },
  {
    name: 'an account close',
    status: 200,
    events: 1,
    make: async (api) => ({ method: 'PATCH', path: (await aUserWith(api, 'an account')).accountPath, body: { status: 'closed' } }),
  },
  {
    name: 'a user deletion',
    status: 204,
    events: 1,
    again: 404,
    make: async (api) => ({ method: 'DELETE', path: (await aUserWith(api, 'a plan')).userPath }),
  },
  {
    name: 'a bureau invoke',
    status: 200,
    events: 0,
    make: async (api) => ({ method: 'POST', ...BUREAU_STEPS.invoke(await aUserInBureauFlow(api, [])) }),
  },
  {
    name: 'a bureau consent',
    status: 200,
    events: 0,
    make: async (api) => ({ method: 'POST', ...BUREAU_STEPS.consent(await aUserInBureauFlow(api, ['invoke'])) }),
  },
  {
    name: 'a bureau one-time code',
    status: 200,
    events: 0,
    make: async (api) => ({ method: 'POST', ...BUREAU_STEPS.validate_otp(await aUserInBureauFlow(api, ['invoke', 'consent'])) }),
  },
  {
    name: 'a bureau identity (the flow, a credit score, two events)',
    status: 200,
    events: 2,
    make: async (api) => ({
      method: 'POST',
      ...BUREAU_STEPS.identity(await aUserInBureauFlow(api, ['invoke', 'consent', 'validate_otp'])),
    }),
  },
  {
    name: 'a webhook endpoint creation',
    status: 201,
    events: 0,
    make: async () => ({ method: 'POST', path: '/api/webhook_endpoints', body: HOOK }),
  },
  {
    name: 'a webhook endpoint update',
    status: 200,
    events: 0,
    make: async (api) => ({ method: 'PATCH', path: await aWebhookEndpoint(api), body: { description: 'Ledger sync', status: 'disabled' } }),
  },
  {
    name: 'a webhook endpoint deletion',
    status: 204,
    events: 0,
    again: 404,
    make: async (api) => ({ method: 'DELETE', path: await aWebhookEndpoint(api) }),
  },
  {
    name: 'a test webhook (test event, its delivery)',
    status: 202,
    // The test event is stored (for its delivery), though never listed.
    events: 1,
    make: async (api) => ({ method: 'POST', path: `${await aWebhookEndpoint(api)}/test`, body: { type: 'payment_plan.created' } }),
  },
  {
    name: 'a window replay (endpoint, its deliveries re-armed or created)',
    status: 202,
    events: 0,
    make: async (api) => {
      const endpoint = await aWebhookEndpoint(api);
      const u = await aUserWith(api, 'an account');
      await call(api, { method: 'PATCH', path: u.accountPath, body: { status: 'closed' } }, 200);
      const now = Date.now();
      return {
        method: 'POST',
        path: `${endpoint}/replay`,
        body: { since: new Date(now - 3_600_000).toISOString(), until: new Date(now + 3_600_000).toISOString() },
      };
    },
  },
  {
    name: 'an admin client creation (with its first token)',
    status: 201,
    events: 0,
    make: async () => ({ method: 'POST', path: '/admin/clients', admin: true, body: { name: 'Budget app' } }),
  },
  {
    name: 'an admin token issue',
    status: 201,
    events: 0,
    make: async (api) => ({ method: 'POST', path: `${await aClient(api)}/tokens`, admin: true }),
  },
  {
    name: 'an admin token revocation',
    status: 204,
    events: 0,
    // Revoking a revoked token keeps the first revocation.
    again: 204,
    make: async (api) => {
      const issued = await call(api, { method: 'POST', path: `${await aClient(api)}/tokens`, admin: true }, 201);
      return { method: 'DELETE', path: `/admin/tokens/${String(issued['token_id'])}`, admin: true };
    },
  },
  {
    name: 'an admin token roll',
    status: 201,
    events: 0,
    // The token is rolled already: a second roll is refused.
    again: 409,
    make: async (api) => {
      const issued = await call(api, { method: 'POST', path: `${await aClient(api)}/tokens`, admin: true }, 201);
      return { method: 'POST', path: `/admin/tokens/${String(issued['token_id'])}/roll`, admin: true, body: { expires_in_seconds: 60 } };
    },
  },
];

/**
 * What a store holds, per collection (table): how many records, and a digest
 * of their content (so that a changed field shows where counts do not move).
 * The idempotency keys and id counters are not part of a change's effect.
 */
export interface StoreState {
  readonly counts: Readonly<Record<string, number>>;
  readonly digests: Readonly<Record<string, string>>;
}

/** `before`'s counts moved by `effect`. */
export const countsPlus = (before: StoreState, effect: Readonly<Record<string, number>>): Record<string, number> =>
  Object.fromEntries(Object.keys(before.counts).map((k) => [k, (before.counts[k] ?? 0) + (effect[k] ?? 0)]));

export const countsMinus = (after: StoreState, before: StoreState): Record<string, number> =>
  Object.fromEntries(Object.keys(after.counts).map((k) => [k, (after.counts[k] ?? 0) - (before.counts[k] ?? 0)]));

export interface Probe {
  /** The change's effect on the counts (one run, no fault). */
  readonly effect: Readonly<Record<string, number>>;
}

/** Runs a scenario's request once without faults and answers its effect (checked: the success status and its events). */
export const probe = async (options: {
  readonly scenario: Scenario;
  readonly api: Api;
  readonly stateOf: () => Promise<StoreState>;
  /** The name of the events collection (table). */
  readonly events: string;
  /** Called after `make`, just before the request. */
  readonly arm?: () => void | Promise<void>;
}): Promise<Probe> => {
  const { scenario, api, stateOf } = options;
  const request = await scenario.make(api);
  const start = await stateOf();
  await options.arm?.();
  const answer = await api(request, isKeyed(request) ? `probe-${++unique}` : undefined);
  expect(answer.status, `${scenario.name}: ${answer.text}`).to.equal(scenario.status);
  const effect = countsMinus(await stateOf(), start);
  expect(effect[options.events], `${scenario.name}: its events`).to.equal(scenario.events);
  return { effect };
};

/**
 * One injected fault: `arm` makes one store command (call) fail once, `disarm`
 * turns it off. The request is sent on `a`; if it fails (503) nothing of it is
 * committed, it is retried on `b` (with its key when it takes one) and has
 * exactly the probe's effect, and sent once more on `a` it is replayed (keyed)
 * or answers `again` with nothing more changed. Answers whether the fault
 * failed the request (a fault the request never reaches lets it succeed whole).
 */
export const checkFault = async (options: {
  readonly scenario: Scenario;
  readonly probe: Probe;
  readonly where: string;
  readonly a: Api;
  readonly b: Api;
  readonly stateOf: () => Promise<StoreState>;
  readonly arm: () => void | Promise<void>;
  readonly disarm: () => void | Promise<void>;
}): Promise<'failed' | 'succeeded'> => {
  const { scenario, where, a, b, stateOf } = options;
  const request = await scenario.make(a);
  const keyed = isKeyed(request);
  const key = keyed ? `fault-${process.pid}-${++unique}` : undefined;
  const before = await stateOf();
  await options.arm();
  const failed = await a(request, key).finally(() => options.disarm());
  const expected = countsPlus(before, options.probe.effect);
  if (failed.status === scenario.status) {
    expect((await stateOf()).counts, `${where}: answered success, so all of it`).to.deep.equal(expected);
    return 'succeeded';
  }
  expect(failed.status, `${where}: ${failed.text}`).to.equal(503);
  expect(await stateOf(), `${where}: answered 503, so none of it`).to.deep.equal(before);
  const retried = await b(request, key);
  expect(retried.status, `${where}, then retried: ${retried.text}`).to.equal(scenario.status);
  expect(retried.replayed, `${where}: the retry runs`).to.equal(undefined);
  const done = await stateOf();
  expect(done.counts, `${where}, then retried: exactly one effect`).to.deep.equal(expected);
  if (keyed) {
    const replayed = await a(request, key);
    expect(replayed.status, `${where}, sent again`).to.equal(scenario.status);
    expect(replayed.replayed, `${where}: kept`).to.equal('true');
    expect(replayed.text, `${where}: the retry's answer, replayed`).to.equal(retried.text);
  } else if (scenario.again !== undefined) {
    expect((await a(request)).status, `${where}, sent again`).to.equal(scenario.again);
  }
  expect(await stateOf(), `${where}, then sent again: nothing more`).to.deep.equal(done);
  return 'failed';
};

/** The digest of some records (their JSON, in the order given). */
export const digestOf = (records: ReadonlyArray<unknown>): string =>
  createHash('sha256').update(JSON.stringify(records)).digest('hex').slice(0, 16);

/** Collections a change's effect is measured in: all but the idempotency keys and the id counters. */
const EFFECT_COLLECTIONS = Object.values(COLLECTIONS).filter((c) => c !== COLLECTIONS.idempotencyKeys && c !== COLLECTIONS.counters);

/**
 * The state of a mongo database. `withDispatcher`: a webhook dispatcher runs
 * against it (an API process), so what it writes in the background (the
 * deliveries, an event's fan-out mark, an endpoint's health) is left out.
 */
/**
 * What a dispatcher writes in the background, per collection: an event's fan-out
 * mark, and an endpoint's health after a failed attempt (`failing_since`, with
 * the version bump of that write, docs/decisions/tenancy.md).
 */
const BACKGROUND_FIELDS: Readonly<Record<string, { readonly projection: Readonly<Record<string, 0>> }>> = {
  [COLLECTIONS.events]: { projection: { fanned_out: 0 } },
  [COLLECTIONS.webhookEndpoints]: { projection: { failing_since: 0, version: 0 } },
};

export const mongoStoreState = async (db: Db, options: { readonly withDispatcher?: boolean } = {}): Promise<StoreState> => {
  const counts: Record<string, number> = {};
  const digests: Record<string, string> = {};
  for (const name of EFFECT_COLLECTIONS) {
    if (options.withDispatcher === true && name === COLLECTIONS.webhookDeliveries) continue;
    const records = await db
      .collection(name)
      .find({}, options.withDispatcher === true ? (BACKGROUND_FIELDS[name] ?? {}) : {})
      .sort({ _id: 1 })
      .toArray();
    counts[name] = records.length;
    digests[name] = digestOf(records);
  }
  return { counts, digests };
};

/** The memory store's tables a change's effect is measured in: all but the idempotency keys. */
const EFFECT_TABLES = [
  'clients',
  'tokens',
  'tokens.byHash',
  'users',
  'accounts',
  'creditScores',
  'bureauFlows',
  'paymentPlans',
  'planPayments',
  'events',
  'webhookEndpoints',
  'webhookDeliveries',
  'webhookDeliveries.pairs',
  'audit_events',
] as const;

/** The committed state of a memory database (what a read outside any transaction sees). */
export const memoryStoreState = (db: MemoryDatabase): Promise<StoreState> => {
  const counts: Record<string, number> = {};
  const digests: Record<string, string> = {};
  for (const name of EFFECT_TABLES) {
    const table = db.table<unknown, unknown, unknown>(name);
    const records = [...table.partitionKeys()].flatMap((partition) => [...table.entries(db.autocommit, partition)]);
    counts[name] = records.length;
    digests[name] = digestOf(records);
  }
  return Promise.resolve({ counts, digests });
};

/**
 * Empties what a scenario leaves behind (all but the clients and tokens, which
 * authenticate), so that each scenario compares only its own records: the
 * state read per fault stays small however many scenarios ran before.
 */
export const clearMongoRecords = async (db: Db): Promise<void> => {
  for (const name of EFFECT_COLLECTIONS)
    if (name !== COLLECTIONS.clients && name !== COLLECTIONS.tokens) await db.collection(name).deleteMany({});
  await db.collection(COLLECTIONS.idempotencyKeys).deleteMany({});
};

/** An `Api` over supertest (an app's callback, in this process). */
export const supertestApi =
  (request: ReturnType<typeof supertest>, auth: { readonly client: string; readonly admin: string }): Api =>
  async (r, key) => {
    const methods = { POST: request.post, PATCH: request.patch, DELETE: request.delete } as const;
    let req = methods[r.method].call(request, r.path).set('Authorization', `Bearer ${r.admin === true ? auth.admin : auth.client}`);
    if (r.body !== undefined) req = req.send(r.body);
    if (key !== undefined) req = req.set('Idempotency-Key', key);
    const res = await req;
    const replayed: unknown = res.headers['idempotent-replayed'];
    return { status: res.status, text: res.text, replayed: typeof replayed === 'string' ? replayed : undefined };
  };

/** An `Api` over fetch (an API process). */
export const fetchApi =
  (baseUrl: string, auth: { readonly client: string; readonly admin: string }): Api =>
  async (r, key) => {
    // The scenarios are 2024-07-01 requests (a process's bootstrap client is pinned to the latest version).
    const headers: Record<string, string> = {
      Authorization: `Bearer ${r.admin === true ? auth.admin : auth.client}`,
      'API-Version': '2024-07-01',
    };
    if (r.body !== undefined) headers['Content-Type'] = 'application/json';
    if (key !== undefined) headers['Idempotency-Key'] = key;
    const res = await fetch(`${baseUrl}${r.path}`, {
      method: r.method,
      headers,
      ...(r.body === undefined ? {} : { body: JSON.stringify(r.body) }),
    });
    return { status: res.status, text: await res.text(), replayed: res.headers.get('idempotent-replayed') ?? undefined };
  };
