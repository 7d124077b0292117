/**
 * Quotas under concurrency (docs/decisions/tenancy.md "Quotas per client", 4.6): accounts
 * and payment plans per user, webhook endpoints per client. Many creations
 * race for the last places of a quota; whatever the interleaving, the owner
 * never holds more than the quota, a refused creation writes nothing (no
 * record, no event), and once the quota is full the next creation is 409
 * `quota_exceeded` naming the quota and its value. Run on a store with forced
 * interleaving (every store call yields, so the racers all count before any
 * of them writes) and on mongo: a creation that counts without writing its
 * owner in the same transaction passes the quota here.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { unavailable, type DomainError } from '../../shared/errors.js';
import type { Quotas } from '../../shared/quotas.js';
import type { EventId, Timestamp } from '../../shared/primitives.js';
import type { Clock } from '../../shared/clock.js';
import type { CreditBureau } from '../../bureau/credit-bureau.js';
import type { StorePorts } from '../../shared/unit-of-work.js';
import { createApplication } from '../../application.js';
import type { UserScope } from '../../shared/deps.js';
import { StoreContractOptions, StoreFactory, expectRight, run, useFreshStore } from '../../testing/contract-harness.js';
import { aClient } from '../../clients/record-mothers.js';
import { aUser } from '../../users/record-mothers.js';
import { anAccount } from '../../accounts/record-mothers.js';
import { cents } from '../../testing/record-mothers.js';
import { sequentialSecrets } from '../../testing/test-secrets.js';

const clock: Clock = { now: () => new Date('2024-07-01T12:00:00.000Z') };

const noBureau: CreditBureau = {
  invoke: () => TE.left(unavailable('no bureau in the quota contract')),
  verifyOtp: () => TE.left(unavailable('no bureau in the quota contract')),
  verifyIdentity: () => TE.left(unavailable('no bureau in the quota contract')),
  deleteIdentity: () => TE.left(unavailable('no bureau in the quota contract')),
  fetchReport: () => TE.left(unavailable('no bureau in the quota contract')),
};

/** Small quotas, so a race for the last places is cheap to run. */
const QUOTAS: Quotas = { accountsPerUser: 4, paymentPlansPerUser: 3, webhookEndpointsPerClient: 2, armedDeliveriesPerClient: 5 };
const RACERS = 10;

const appOn = (store: StorePorts) =>
  createApplication({
    ...store,
    clock,
    bureau: noBureau,
    secrets: sequentialSecrets(),
    quotas: QUOTAS,
    // Any URL: registration checks are not what this contract is about.
    webhookUrls: { check: () => TE.right(undefined) },
  });

const tagsOf = (results: ReadonlyArray<E.Either<DomainError, unknown>>): string[] =>
  results.flatMap((r) => (E.isLeft(r) ? [r.left._tag] : []));

/** Until `full()` says so, run one creation after another; a 409 `conflict` (a lost race) is retried. */
const fillUp = async (create: () => Promise<E.Either<DomainError, unknown>>, full: () => Promise<boolean>): Promise<void> => {
  for (let i = 0; i < 50 && !(await full()); i++) {
    const r = await create();
    if (E.isLeft(r)) expect(['conflict', 'quota_exceeded'], JSON.stringify(r.left)).to.include(r.left._tag);
  }
};

export function quotaConcurrencyContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} quota contract (docs/decisions/tenancy.md)`, function () {
    this.timeout(30_000);
    const store = useFreshStore(makeStore, opts);

    const aUserOf = async () => {
      const client = await expectRight(store().clients.create(aClient()));
      const user = await expectRight(store().users.create(aUser(client.id)));
      const scope: UserScope = { clientId: client.id, userId: user.id };
      return { client, scope };
    };

    const eventsOf = async (clientId: UserScope['clientId'], type: string) =>
      (await expectRight(appOn(store()).listEvents(clientId, { limit: 100 }, '2024-07-01'))).items.filter((e) => e.type === type).length;

    it(`${RACERS} concurrent account links for the last places never pass accounts per user; the next is quota_exceeded naming it`, async () => {
      const app = appOn(store());
      const { client, scope } = await aUserOf();
      // One place left before the race.
      for (let i = 0; i < QUOTAS.accountsPerUser - 1; i++) await expectRight(store().accounts.create(anAccount(scope.userId)));
      const link = () => run(app.linkAccount(scope, { name: 'Card', type: 'loan', subtype: 'credit_card_loan', balance: cents(1_000) }));
      const results = await Promise.all(Array.from({ length: RACERS }, link));
      for (const tag of tagsOf(results)) expect(['quota_exceeded', 'conflict']).to.include(tag);
      const count = async () => expectRight(store().accounts.countForUser(scope.userId));
      expect(await count(), 'accounts after the race').to.be.at.most(QUOTAS.accountsPerUser);
      expect(results.filter(E.isRight).length).to.be.at.most(1);
      await fillUp(link, async () => (await count()) === QUOTAS.accountsPerUser);
      const over = await link();
      expect(E.isLeft(over) && over.left).to.deep.equal({
        _tag: 'quota_exceeded',
        message: `Quota reached: at most ${QUOTAS.accountsPerUser} accounts per user`,
      });
      expect(await count()).to.equal(QUOTAS.accountsPerUser);
      // A refused creation wrote nothing: the one place was taken through the use case, with its one event.
      expect(await eventsOf(client.id, 'account.created')).to.equal(1);
    });

    it(`${RACERS} concurrent plan creations never pass payment plans per user; the next is quota_exceeded naming it`, async () => {
      const app = appOn(store());
      const { client, scope } = await aUserOf();
      await expectRight(store().accounts.create(anAccount(scope.userId, { balance: cents(100_000) })));
      const create = () => run(app.createPaymentPlan(scope, { strategy: 'avalanche', monthly_payment: cents(20_000) }));
      const results = await Promise.all(Array.from({ length: RACERS }, create));
      for (const tag of tagsOf(results)) expect(['quota_exceeded', 'conflict']).to.include(tag);
      const count = async () => expectRight(store().paymentPlans.countForUser(scope.userId));
      expect(await count(), 'plans after the race').to.be.at.most(QUOTAS.paymentPlansPerUser);
      await fillUp(create, async () => (await count()) === QUOTAS.paymentPlansPerUser);
      const over = await create();
      expect(E.isLeft(over) && over.left).to.deep.equal({
        _tag: 'quota_exceeded',
        message: `Quota reached: at most ${QUOTAS.paymentPlansPerUser} payment plans per user`,
      });
      expect(await count()).to.equal(QUOTAS.paymentPlansPerUser);
      expect(await eventsOf(client.id, 'payment_plan.created')).to.equal(QUOTAS.paymentPlansPerUser);
      // Deleting one frees its place.
      const [first] = (await expectRight(app.listPaymentPlans(scope, { limit: 1 }))).items;
      await expectRight(app.deletePaymentPlan(scope, first!.id));
      expect(E.isRight(await create())).to.equal(true);
    });

    it(`${RACERS} concurrent redeliveries never pass armed deliveries per client; a replay that would pass it arms nothing`, async () => {
      const app = appOn(store());
      const { client } = await aUserOf();
      const endpoint = await expectRight(app.createWebhookEndpoint(client.id, { url: 'https://hooks.example.com/debtkit' }));
      const now = clock.now().getTime();
      const events: Array<{ readonly id: EventId }> = [];
      for (let i = 0; i < RACERS + 4; i++) {
        events.push(
          await expectRight(
            store().events.append({
              client_id: client.id,
              type: 'account.created',
              created_at: new Date(now - 60_000 + i).toISOString() as Timestamp,
              api_version: '2024-07-01',
              data: { user_id: null, object: { id: i } },
              expires_at: new Date(now + 86_400_000).toISOString() as Timestamp,
            }),
          ),
        );
      }
      const armed = async () => expectRight(store().webhookDeliveries.countArmed(client.id, clock.now()));
      const redeliver = (i: number) => run(app.redeliverEvent(client.id, events[i]!.id, { endpoint_id: endpoint.id }));
      const results = await Promise.all(Array.from({ length: RACERS }, (_, i) => redeliver(i)));
      for (const tag of tagsOf(results)) expect(['quota_exceeded', 'conflict']).to.include(tag);
      expect(await armed(), 'armed after the race').to.be.at.most(QUOTAS.armedDeliveriesPerClient);
      let next = RACERS;
      await fillUp(
        () => redeliver(next++ % events.length),
        async () => (await armed()) === QUOTAS.armedDeliveriesPerClient,
      );
      const over = await redeliver(RACERS + 3);
      expect(E.isLeft(over) && over.left).to.deep.equal({
        _tag: 'quota_exceeded',
        message: `Quota reached: at most ${QUOTAS.armedDeliveriesPerClient} armed webhook deliveries per client`,
      });
      // A window replay over the quota arms nothing.
      const window = { since: new Date(now - 120_000).toISOString() as Timestamp, until: new Date(now).toISOString() as Timestamp };
      const replay = await run(app.replayWebhookEndpoint(client.id, endpoint.id, window));
      expect(E.isLeft(replay) && replay.left._tag).to.equal('quota_exceeded');
      expect(await armed()).to.equal(QUOTAS.armedDeliveriesPerClient);
    });

    it(`${RACERS} concurrent webhook endpoint registrations never pass endpoints per client; the next is quota_exceeded naming it`, async () => {
      const app = appOn(store());
      const { client } = await aUserOf();
      const other = await expectRight(store().clients.create(aClient()));
      const register = (clientId = client.id) => run(app.createWebhookEndpoint(clientId, { url: 'https://hooks.example.com/debtkit' }));
      const results = await Promise.all(Array.from({ length: RACERS }, () => register()));
      for (const tag of tagsOf(results)) expect(['quota_exceeded', 'conflict']).to.include(tag);
      const count = async (clientId = client.id) => expectRight(store().webhookEndpoints.countForClient(clientId));
      expect(await count(), 'endpoints after the race').to.be.at.most(QUOTAS.webhookEndpointsPerClient);
      await fillUp(register, async () => (await count()) === QUOTAS.webhookEndpointsPerClient);
      const over = await register();
      expect(E.isLeft(over) && over.left).to.deep.equal({
        _tag: 'quota_exceeded',
        message: `Quota reached: at most ${QUOTAS.webhookEndpointsPerClient} webhook endpoints per client`,
      });
      expect(await count()).to.equal(QUOTAS.webhookEndpointsPerClient);
      // Per client: another client's quota is its own.
      expect(E.isRight(await register(other.id))).to.equal(true);
      expect(await count(other.id)).to.equal(1);
    });
  });
}
