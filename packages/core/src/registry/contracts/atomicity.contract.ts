/**
 * One change, one transaction (docs/decisions/transactions.md), proved on one store adapter with
 * injected faults: for every use case that writes more than one record, each
 * store call it makes is made to fail once (`faultInjectingStore`, the memory
 * equivalent of MongoDB's `failCommand`); the store must then hold exactly
 * what it held before (all or nothing, events included), and running the
 * change again makes it exactly once, with exactly one event.
 *
 * The store factory must give a store whose unit of work is transactional;
 * pass a fault injector of the store's own (`failNthCall`) or let the suite
 * wrap the store in `faultInjectingStore`.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import * as O from 'fp-ts/lib/Option.js';
import { pipe } from 'fp-ts/lib/function.js';
import { unavailable } from '../../shared/errors.js';
import type { Clock } from '../../shared/clock.js';
import type { CreditBureau } from '../../bureau/credit-bureau.js';
import type { StorePorts } from '../../shared/unit-of-work.js';
import { createApplication, type Application } from '../../application.js';
import { createClientAccess } from '../../clients/use-cases.js';
import { versioning } from '../versioning/versions.js';
import { fanOutEvents } from '../../webhooks/use-cases.js';
import { recordEndpointAttempt } from '../../webhooks/webhook-health.js';
import { FAILING_ENDPOINT_DISABLE_MS } from '../../webhooks/webhook.js';
import type { UserScope } from '../../shared/deps.js';
import type { AccountId, ClientId, IsoDate, PaymentPlanId, Timestamp, TokenId, WebhookEndpointId } from '../../shared/primitives.js';
import { expectRight, run, type StoreFactory } from '../../testing/contract-harness.js';
import { CREATED_AT, aTokenHash, cents } from '../../testing/record-mothers.js';
import { aClient } from '../../clients/record-mothers.js';
import { aSegmentedCard, anAccount } from '../../accounts/record-mothers.js';
import { aUser } from '../../users/record-mothers.js';
import { readableTokenHasher } from '../../clients/test-tokens.js';
import { sequentialSecrets } from '../../testing/test-secrets.js';
import { faultInjectingStore, type FaultInjectingStore } from '../../testing/fault-injecting-store.js';

const clock: Clock = { now: () => new Date('2024-07-01T12:00:00.000Z') };

/** The changes here never reach the bureau. */
const noBureau: CreditBureau = {
  invoke: () => TE.left(unavailable('no bureau in the atomicity contract')),
  verifyOtp: () => TE.left(unavailable('no bureau in the atomicity contract')),
  verifyIdentity: () => TE.left(unavailable('no bureau in the atomicity contract')),
  deleteIdentity: () => TE.left(unavailable('no bureau in the atomicity contract')),
  fetchReport: () => TE.left(unavailable('no bureau in the atomicity contract')),
};

interface World {
  readonly store: FaultInjectingStore;
  readonly app: Application;
  readonly clientId: ClientId;
  readonly scope: UserScope;
  readonly accountId: AccountId;
  /** A card with rate segments (docs/decisions/payoff-and-outlook.md) in the plan: its payments are allocated. */
  readonly cardId: AccountId;
  readonly planId: PaymentPlanId;
  readonly endpointId: WebhookEndpointId;
  /** A token of the client (no audit record yet). */
  readonly tokenId: TokenId;
}

/** Everything a client can observe of its data, read outside any transaction. */
const observe = async (w: World): Promise<unknown> => {
  const s = w.store;
  const plans = await expectRight(s.paymentPlans.list(w.scope.userId, { limit: 100 }));
  const payments = await Promise.all(plans.items.map((p) => expectRight(s.planPayments.list(w.scope.userId, p.id, { limit: 100 }))));
  return {
    clients: await expectRight(s.clients.list({ limit: 100 })),
    user: await expectRight(s.users.get(w.clientId, w.scope.userId)),
    accounts: await expectRight(s.accounts.listAll(w.scope.userId)),
    plans,
    payments,
    scores: await expectRight(s.creditScores.history(w.scope.userId)),
    flow: await expectRight(s.bureauFlows.get(w.scope.userId)),
    events: await expectRight(s.events.list(w.clientId, { limit: 100 }, {}, clock.now())),
    endpoints: await expectRight(s.webhookEndpoints.list(w.clientId, { limit: 100 })),
    tokens: await expectRight(s.tokens.listByClient(w.clientId, { limit: 100 })),
    audit: await expectRight(s.audit.list({ limit: 100 }, {}, clock.now())),
    deliveries: await expectRight(s.webhookDeliveries.listForEndpoint(w.clientId, w.endpointId, { limit: 100 }, clock.now())),
    // Test events (docs/sandbox-over-time.md) are never listed: the fan-out's queue shows one left behind.
    unfanned: await expectRight(s.events.pendingFanOut({ perClient: 100, clients: 100 }, clock.now())),
    erased: [...(await expectRight(s.erasures.erasedAmong(w.clientId, [w.scope.userId])))],
  };
};

const eventCount = async (w: World): Promise<number> =>
  (await expectRight(w.store.events.list(w.clientId, { limit: 100 }, {}, clock.now()))).items.length;

interface Change {
  readonly name: string;
  /** Events the change appends when it succeeds. */
  readonly events: number;
  readonly run: (w: World) => TE.TaskEither<unknown, unknown>;
}

const clientAccess = (w: World) =>
  createClientAccess({ ...w.store, clock, tokenHasher: readableTokenHasher, secrets: sequentialSecrets(), versioning });

const CHANGES: ReadonlyArray<Change> = [
  {
    name: 'a plan payment (plan bump, payment, debit, event)',
    events: 1,
    run: (w) => w.app.recordPlanPayment(w.scope, w.planId, { account_id: w.accountId, amount: cents(100) }),
  },
  {
    name: 'a plan payment on a card with rate segments (plan bump, payment, account read, allocated compare-and-set, event)',
    events: 1,
    run: (w) => w.app.recordPlanPayment(w.scope, w.planId, { account_id: w.cardId, amount: cents(20_000) }),
  },
  {
    name: 'a plan creation (user bump, plan, event)',
    events: 1,
    run: (w) => w.app.createPaymentPlan(w.scope, { strategy: 'snowball', monthly_payment: cents(50_000) }),
  },
  { name: 'a plan delete (payments, plan, event)', events: 1, run: (w) => w.app.deletePaymentPlan(w.scope, w.planId) },
  {
    name: "a user delete (every record of the user, erasure marker, the pending deliveries of the user's events canceled, event)",
    events: 1,
    run: (w) => w.app.deleteUser(w.scope),
  },
  {
    name: 'an account creation (user bump, account, event)',
    events: 1,
    run: (w) => w.app.linkAccount(w.scope, { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: cents(1_000) }),
  },
  { name: 'an account update (account, event)', events: 1, run: (w) => w.app.updateAccount(w.scope, w.accountId, { nickname: 'Mine' }) },
  { name: 'an account close (account, event)', events: 1, run: (w) => w.app.updateAccount(w.scope, w.accountId, { status: 'closed' }) },
  {
    name: 'a webhook endpoint update',
    events: 0,
    run: (w) => w.app.updateWebhookEndpoint(w.clientId, w.endpointId, { description: 'changed' }),
  },
  {
    name: 'a webhook endpoint delete (endpoint, deliveries)',
    events: 0,
    run: (w) => w.app.deleteWebhookEndpoint(w.clientId, w.endpointId),
  },
  {
    // The endpoint has failed since 3 days before the clock (set up in `world`): this failed attempt disables it.
    name: 'a failing webhook endpoint disabled (endpoint, webhook_endpoint.disabled event)',
    events: 1,
    run: (w) =>
      pipe(
        w.store.webhookEndpoints.get(w.clientId, w.endpointId),
        TE.chain(
          O.match(
            () => TE.left(unavailable('the endpoint is gone')),
            (endpoint) => recordEndpointAttempt({ ...w.store, clock, versioning })(endpoint, false),
          ),
        ),
        TE.chain((change) => (change === 'disable' ? TE.right(change) : TE.left(unavailable(`expected a disable, got ${change}`)))),
      ),
  },
  {
    name: 'a test webhook (test event, its delivery)',
    events: 0,
    run: (w) =>
      w.app.sendTestWebhook({ id: w.clientId, environment: 'sandbox', api_version: '2024-07-01' }, w.endpointId, {
        type: 'payment_plan.created',
      }),
  },
  {
    name: "an event's redelivery (its deliveries re-armed)",
    events: 0,
    run: (w) =>
      pipe(
        w.store.events.list(w.clientId, { limit: 1 }, {}, clock.now()),
        TE.chain((page) => w.app.redeliverEvent(w.clientId, page.items[0]!.id, {})),
      ),
  },
  {
    name: 'a window replay (endpoint, its deliveries re-armed)',
    events: 0,
    run: (w) =>
      w.app.replayWebhookEndpoint(w.clientId, w.endpointId, {
        since: new Date(clock.now().getTime() - 86_400_000).toISOString() as Timestamp,
        until: new Date(clock.now().getTime() + 1).toISOString() as Timestamp,
      }),
  },
  {
    name: 'a client creation with its first token and their audit records (client admin)',
    events: 0,
    run: (w) => clientAccess(w).createClient({ name: 'Another', environment: 'sandbox', apiVersion: '2024-07-01' }),
  },
  {
    name: 'a client moved to another API version with its audit record (client admin)',
    events: 0,
    // The client of `world` is on 2024-07-01 (`aClient`).
    run: (w) => clientAccess(w).changeClientApiVersion(w.clientId, '2026-11-26'),
  },
  { name: 'a token issue with its audit record (client admin)', events: 0, run: (w) => clientAccess(w).issueToken(w.clientId) },
  {
    name: 'a token roll: the old token expiring, the new one, two audit records (client admin)',
    events: 0,
    run: (w) => clientAccess(w).rollToken(w.tokenId, 3600),
  },
  { name: 'a token revocation with its audit record (client admin)', events: 0, run: (w) => clientAccess(w).revokeToken(w.tokenId) },
];

/** The bureau steps, when the suite is given a bureau that answers (the sandbox's: code 123456, the user's date of birth). */
const BUREAU_CHANGES: ReadonlyArray<Change> = [
  {
    name: 'the bureau identity step (user bump, flow, new credit score, two events)',
    events: 2,
    run: (w) => w.app.submitBureauIdentity(w.scope, { ssn_last4: '1234', date_of_birth: '1990-12-10' as IsoDate }),
  },
];

export interface AtomicityContractOptions {
  /** A bureau whose flow passes with the one-time code `123456`: adds the bureau steps. */
  readonly bureau?: CreditBureau;
}

export function atomicityContract(name: string, makeStore: StoreFactory, options: AtomicityContractOptions = {}): void {
  describe(`${name} atomicity contract (docs/decisions/transactions.md)`, function () {
    this.timeout(60_000);

    const world = async (): Promise<World> => {
      const store = faultInjectingStore(await makeStore());
      const app = createApplication({
        ...store,
        clock,
        bureau: options.bureau ?? noBureau,
        secrets: sequentialSecrets(),
        webhookUrls: { check: () => TE.right(undefined) },
      });
      const client = await expectRight(store.clients.create(aClient()));
      const user = await expectRight(store.users.create(aUser(client.id)));
      const account = await expectRight(store.accounts.create(anAccount(user.id, { balance: cents(1_000_000) })));
      const card = await expectRight(store.accounts.create(aSegmentedCard(user.id)));
      const scope: UserScope = { clientId: client.id, userId: user.id };
      const plan = await expectRight(app.createPaymentPlan(scope, { strategy: 'avalanche', monthly_payment: cents(50_000) }));
      await expectRight(app.recordPlanPayment(scope, plan.id, { account_id: account.id, amount: cents(100) }));
      const endpoint = await expectRight(app.createWebhookEndpoint(client.id, { url: 'https://example.com/hook' }));
      // Failing since 3 days ago: its next failed attempt disables it (docs/decisions/tenancy.md).
      await expectRight(
        store.webhookEndpoints.update(client.id, endpoint.id, 1, {
          failing_since: new Date(clock.now().getTime() - FAILING_ENDPOINT_DISABLE_MS).toISOString() as Timestamp,
        }),
      );
      const token = await expectRight(store.tokens.create(client.id, aTokenHash(1), CREATED_AT));
      // Pending deliveries of the user's events, which a user delete cancels (docs/decisions/tenancy.md).
      expect(
        (await expectRight(fanOutEvents({ ...store, clock })({ perClient: 100, clients: 100 }))).events,
        'events fanned out',
      ).to.be.greaterThan(0);
      if (options.bureau !== undefined) {
        // The flow waits for the identity step.
        await expectRight(app.invokeBureau(scope, { device_ip: '203.0.113.7' }));
        await expectRight(app.consentBureau(scope));
        await expectRight(app.validateBureauOtp(scope, { code: '123456' }));
      }
      return {
        store,
        app,
        clientId: client.id,
        scope,
        accountId: account.id,
        cardId: card.id,
        planId: plan.id,
        endpointId: endpoint.id,
        tokenId: token.id,
      };
    };

    for (const change of [...CHANGES, ...(options.bureau === undefined ? [] : BUREAU_CHANGES)]) {
      it(`${change.name}: each store call failing once leaves nothing; run again, it happens once`, async () => {
        // How many store calls the change makes when nothing fails.
        const probe = await world();
        probe.store.reset();
        expect(E.isRight(await run(change.run(probe) as TE.TaskEither<never, unknown>)), 'the change succeeds').to.equal(true);
        const calls = probe.store.callsSinceArmed;
        expect(calls, 'store calls of the change').to.be.greaterThan(1);
        for (let n = 1; n <= calls; n++) {
          const w = await world();
          const before = await observe(w);
          const events = await eventCount(w);
          w.store.failNthCall(n);
          const failed = await run(change.run(w) as TE.TaskEither<never, unknown>);
          expect(E.isLeft(failed) && (failed.left as { _tag: string })._tag, `call ${n} of ${calls} failing`).to.equal('unavailable');
          expect(await observe(w), `call ${n} of ${calls} failing: all or nothing`).to.deep.equal(before);
          w.store.reset();
          expect(E.isRight(await run(change.run(w) as TE.TaskEither<never, unknown>)), `call ${n}: the retry succeeds`).to.equal(true);
          expect(await eventCount(w), `call ${n}: exactly the change's events`).to.equal(events + change.events);
        }
      });
    }
  });
}
