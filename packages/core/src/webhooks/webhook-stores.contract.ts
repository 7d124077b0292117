/**
 * Contracts of the event and webhook ports (docs/decisions/webhooks.md), run against every
 * store adapter: events ascend per client and page; expired events and
 * deliveries are never answered (30-day retention); endpoints update by
 * compare-and-set; a due delivery is claimed by exactly one claimer at a time
 * under a lease, and only the lease holder records the attempt.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import { EVENT_RETENTION_MS, EventRecord, WebhookDeliveryRecord, WebhookEndpointRecord, toWebhookEndpointView } from './webhook.js';
import type { ClientId, EventId, Timestamp, WebhookEndpointId } from '../shared/primitives.js';
import type { NewEvent } from './event-outbox.js';
import type { NewWebhookEndpoint } from './webhook-endpoint-repository.js';
import type { ClaimFilter, NewWebhookDelivery } from './webhook-delivery-repository.js';
import {
  StoreContractOptions,
  StoreFactory,
  expectLeft,
  expectNone,
  expectRight,
  expectSome,
  idsOf,
  run,
  useFreshStore,
} from '../testing/contract-harness.js';
import { CREATED_AT, anId } from '../testing/record-mothers.js';

const CLIENT = anId('client', 1);
const OTHER_CLIENT = anId('client', 2);
/**
 * Far in the future: MongoDB's TTL monitor (or the test server's) deletes by the
 * wall clock, so test records must not have expired by it while a test runs.
 */
const T0 = new Date('2100-01-01T00:00:00.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const stamp = (d: Date): Timestamp => d.toISOString() as Timestamp;

export const anEvent = (clientId: ClientId, overrides: Partial<NewEvent> = {}): NewEvent => ({
  client_id: clientId,
  type: 'account.created',
  created_at: stamp(T0),
  api_version: '2024-07-01',
  data: { user_id: anId('user', 5), object: { id: 9, name: 'Card', nested: { a: [1, 2] } } },
  expires_at: stamp(at(EVENT_RETENTION_MS)),
  ...overrides,
});

export const aWebhookEndpoint = (clientId: ClientId, overrides: Partial<NewWebhookEndpoint> = {}): NewWebhookEndpoint => ({
  client_id: clientId,
  url: 'https://hooks.example.com/debtkit',
  events: ['*'],
  description: null,
  status: 'enabled',
  api_version: '2024-07-01',
  secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=',
  created_at: CREATED_AT,
  ...overrides,
});

export const aDelivery = (
  clientId: ClientId,
  endpointId: WebhookEndpointId,
  eventId: EventId,
  overrides: Partial<NewWebhookDelivery> = {},
): NewWebhookDelivery => ({
  client_id: clientId,
  endpoint_id: endpointId,
  event_id: eventId,
  event_type: 'account.created',
  created_at: stamp(T0),
  expires_at: stamp(at(EVENT_RETENTION_MS)),
  next_attempt_at: stamp(T0),
  ...overrides,
});

const lease = (token: string, until: Date) => ({ token, until: stamp(until) });
/** A claim that skips nothing and starts from the lowest client id. */
const ANY: ClaimFilter = { busyEndpoints: [], busyClients: [] };

export function webhookStoresContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} EventOutbox contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('append stores the event with the next id, not fanned out; get reads it back exactly', async () => {
      const first = await expectRight(store().events.append(anEvent(CLIENT)));
      const second = await expectRight(store().events.append(anEvent(CLIENT, { type: 'user.deleted' })));
      expect(EventRecord.is(first)).to.equal(true);
      expect(first).to.deep.equal({ ...anEvent(CLIENT), id: first.id, fanned_out: false });
      expect(second.id).to.be.greaterThan(first.id);
      expect(await expectSome(store().events.get(CLIENT, first.id, T0))).to.deep.equal(first);
    });

    it('an event keeps its render context exactly (docs/decisions/tenancy.md); one stored without (the shape before 2026-11-26) reads back without one', async () => {
      const context = { user_deleted: { emptied_user: { id: 5, last_name: '', email: null, nested: [1, { a: 'b' }] } } };
      const latest = await expectRight(
        store().events.append(
          anEvent(CLIENT, { api_version: '2026-11-26', data: { user_id: anId('user', 5), object: { id: 5 } }, render_context: context }),
        ),
      );
      // The old shape, exactly as releases before 2026-11-26 wrote it: the object already rendered, no render context.
      const legacy = await expectRight(store().events.append(anEvent(CLIENT)));
      for (const [event, expected] of [
        [latest, context],
        [legacy, undefined],
      ] as const) {
        const read = await expectSome(store().events.get(CLIENT, event.id, T0));
        expect(EventRecord.is(read)).to.equal(true);
        expect(read.render_context).to.deep.equal(expected);
        expect(Object.hasOwn(read, 'render_context')).to.equal(expected !== undefined);
        expect(read).to.deep.equal(event);
      }
      const listed = await expectRight(store().events.list(CLIENT, { limit: 10 }, {}, T0));
      expect(listed.items).to.deep.equal([latest, legacy]);
    });

    it("another client's event is none, as a missing one", async () => {
      const event = await expectRight(store().events.append(anEvent(CLIENT)));
      await expectNone(store().events.get(OTHER_CLIENT, event.id, T0));
      await expectNone(store().events.get(CLIENT, anId('event', event.id + 100), T0));
      expect((await expectRight(store().events.list(OTHER_CLIENT, { limit: 10 }, {}, T0))).items).to.deep.equal([]);
    });

    it('lists one client’s events ascending by id, paged with an exact has_more, filtered by type and user', async () => {
      const mine: EventRecord[] = [];
      for (let i = 0; i < 5; i++) {
        mine.push(
          await expectRight(
            store().events.append(
              anEvent(CLIENT, {
                type: i % 2 === 0 ? 'account.created' : 'user.deleted',
                data: { user_id: anId('user', i < 3 ? 5 : 6), object: { i } },
              }),
            ),
          ),
        );
        await expectRight(store().events.append(anEvent(OTHER_CLIENT)));
      }
      const page1 = await expectRight(store().events.list(CLIENT, { limit: 2 }, {}, T0));
      expect(idsOf(page1.items)).to.deep.equal(idsOf(mine.slice(0, 2)));
      expect(page1.hasMore).to.equal(true);
      const page3 = await expectRight(store().events.list(CLIENT, { limit: 2, startingAfter: mine[3]!.id }, {}, T0));
      expect(idsOf(page3.items)).to.deep.equal([mine[4]!.id]);
      expect(page3.hasMore).to.equal(false);
      const deleted = await expectRight(store().events.list(CLIENT, { limit: 10 }, { type: 'user.deleted' }, T0));
      expect(idsOf(deleted.items)).to.deep.equal([mine[1]!.id, mine[3]!.id]);
      const user6 = await expectRight(store().events.list(CLIENT, { limit: 10 }, { user_id: anId('user', 6) }, T0));
      expect(idsOf(user6.items)).to.deep.equal([mine[3]!.id, mine[4]!.id]);
      const both = await expectRight(store().events.list(CLIENT, { limit: 10 }, { user_id: anId('user', 6), type: 'account.created' }, T0));
      expect(idsOf(both.items)).to.deep.equal([mine[4]!.id]);
    });

    it('a test event (docs/sandbox-over-time.md) is read by get but never listed, never in a window; listWindow answers [since, until) of one client ascending, up to the limit', async () => {
      const t = (ms: number) => stamp(at(ms));
      const early = await expectRight(store().events.append(anEvent(CLIENT, { created_at: t(0) })));
      const test = await expectRight(store().events.append(anEvent(CLIENT, { created_at: t(1000), test: true })));
      const inside = await expectRight(store().events.append(anEvent(CLIENT, { created_at: t(1000) })));
      await expectRight(store().events.append(anEvent(OTHER_CLIENT, { created_at: t(1000) })));
      const last = await expectRight(store().events.append(anEvent(CLIENT, { created_at: t(2000) })));
      await expectRight(store().events.append(anEvent(CLIENT, { created_at: t(3000) })));
      expect(test.test).to.equal(true);
      expect(await expectSome(store().events.get(CLIENT, test.id, T0))).to.deep.equal(test);
      expect(idsOf((await expectRight(store().events.list(CLIENT, { limit: 10 }, {}, T0))).items)).to.not.include(test.id);
      expect(idsOf((await expectRight(store().events.list(CLIENT, { limit: 10 }, { type: 'account.created' }, T0))).items)).to.not.include(
        test.id,
      );
      expect(idsOf(await expectRight(store().events.listWindow(CLIENT, t(1000), t(3000), 10, T0)))).to.deep.equal([inside.id, last.id]);
      expect(idsOf(await expectRight(store().events.listWindow(CLIENT, t(0), t(3000), 2, T0)))).to.deep.equal([early.id, inside.id]);
      expect(await expectRight(store().events.listWindow(CLIENT, t(0), t(3000), 10, at(EVENT_RETENTION_MS)))).to.deep.equal([]);
    });

    it('paging with starting_after never skips an event whose write was overtaken by a later append', async function () {
      const first = await expectRight(store().events.append(anEvent(CLIENT)));
      expect(idsOf((await expectRight(store().events.list(CLIENT, { limit: 10 }, {}, T0))).items)).to.deep.equal([first.id]);
      const hold = opts.holdNextWrite?.('event');
      if (opts.holdNextWrite !== undefined && hold === undefined) this.skip();
      try {
        // The slow append takes its id first; its write is then held while a later append is stored in full.
        const slow = run(store().events.append(anEvent(CLIENT, { type: 'user.deleted' })));
        await hold?.held;
        const fast = await expectRight(store().events.append(anEvent(CLIENT, { type: 'account.updated' })));
        const between = await expectRight(store().events.list(CLIENT, { limit: 10, startingAfter: first.id }, {}, T0));
        hold?.release();
        const late = await slow;
        if (E.isLeft(late)) return expect.fail(`the held append failed: ${JSON.stringify(late.left)}`);
        expect(late.right.id).to.be.lessThan(fast.id);
        // A reader that saw `between` pages on from the last event it saw: together it sees every event once, ascending.
        const lastSeen = between.items.at(-1)?.id ?? first.id;
        const after = await expectRight(store().events.list(CLIENT, { limit: 10, startingAfter: lastSeen }, {}, T0));
        expect(idsOf([...between.items, ...after.items])).to.deep.equal([late.right.id, fast.id]);
      } finally {
        // A hold left waiting would catch the next test's write.
        hold?.release();
      }
    });

    it('retention: an event is answered until it expires (30 days), never after', async () => {
      const event = await expectRight(store().events.append(anEvent(CLIENT)));
      const justBefore = at(EVENT_RETENTION_MS - 1);
      const expired = at(EVENT_RETENTION_MS);
      await expectSome(store().events.get(CLIENT, event.id, justBefore));
      await expectNone(store().events.get(CLIENT, event.id, expired));
      expect((await expectRight(store().events.list(CLIENT, { limit: 10 }, {}, expired))).items).to.deep.equal([]);
      expect(await expectRight(store().events.pendingFanOut({ perClient: 10, clients: 10 }, expired))).to.deep.equal([]);
    });

    it('pendingFanOut answers unmarked events in turn across clients, each client’s oldest first, up to its share; markFannedOut is idempotent', async () => {
      const a = await expectRight(store().events.append(anEvent(CLIENT)));
      const b = await expectRight(store().events.append(anEvent(OTHER_CLIENT)));
      const c = await expectRight(store().events.append(anEvent(CLIENT)));
      const d = await expectRight(store().events.append(anEvent(CLIENT)));
      const pending = async (turn: { perClient: number; clients: number; afterClient?: typeof CLIENT }) =>
        idsOf(await expectRight(store().events.pendingFanOut(turn, T0)));
      expect(await pending({ perClient: 2, clients: 10 })).to.deep.equal([a.id, c.id, b.id]);
      expect(await pending({ perClient: 10, clients: 1 })).to.deep.equal([a.id, c.id, d.id]);
      // The turn: clients after the last one served first, then wrapping around.
      expect(await pending({ perClient: 1, clients: 1, afterClient: CLIENT })).to.deep.equal([b.id]);
      expect(await pending({ perClient: 1, clients: 2, afterClient: OTHER_CLIENT })).to.deep.equal([a.id, b.id]);
      await expectRight(store().events.markFannedOut([a.id, c.id]));
      await expectRight(store().events.markFannedOut([a.id]));
      await expectRight(store().events.markFannedOut([]));
      expect(await pending({ perClient: 10, clients: 10 })).to.deep.equal([d.id, b.id]);
      expect((await expectSome(store().events.get(CLIENT, a.id, T0))).fanned_out).to.equal(true);
      // A client with thousands pending takes its share only: another client's event is in the same answer.
      for (let i = 0; i < 300; i++) await expectRight(store().events.append(anEvent(CLIENT)));
      const e = await expectRight(store().events.append(anEvent(OTHER_CLIENT)));
      expect(await pending({ perClient: 5, clients: 10 })).to.include.members([b.id, e.id]);
    });
  });

  describe(`${name} WebhookEndpointRepository contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('create stores version 1; get, list and listEnabled are scoped to the client', async () => {
      const created = await expectRight(
        store().webhookEndpoints.create(aWebhookEndpoint(CLIENT, { events: ['account.created', 'user.deleted'] })),
      );
      expect(WebhookEndpointRecord.is(created)).to.equal(true);
      expect(created).to.deep.equal({
        ...aWebhookEndpoint(CLIENT, { events: ['account.created', 'user.deleted'] }),
        id: created.id,
        version: 1,
      });
      const disabled = await expectRight(store().webhookEndpoints.create(aWebhookEndpoint(CLIENT, { status: 'disabled' })));
      const other = await expectRight(store().webhookEndpoints.create(aWebhookEndpoint(OTHER_CLIENT)));
      expect(await expectSome(store().webhookEndpoints.get(CLIENT, created.id))).to.deep.equal(created);
      await expectNone(store().webhookEndpoints.get(CLIENT, other.id));
      const page = await expectRight(store().webhookEndpoints.list(CLIENT, { limit: 1 }));
      expect(idsOf(page.items)).to.deep.equal([created.id]);
      expect(page.hasMore).to.equal(true);
      expect(
        idsOf((await expectRight(store().webhookEndpoints.list(CLIENT, { limit: 5, startingAfter: created.id }))).items),
      ).to.deep.equal([disabled.id]);
      expect(idsOf(await expectRight(store().webhookEndpoints.listEnabled(CLIENT)))).to.deep.equal([created.id]);
    });

    it('update from the stored version applies the patch (null clears the description) and bumps the version', async () => {
      const created = await expectRight(store().webhookEndpoints.create(aWebhookEndpoint(CLIENT, { description: 'old' })));
      const updated = await expectSome(
        store().webhookEndpoints.update(CLIENT, created.id, 1, {
          url: 'https://b.example.com/x',
          description: null,
          status: 'disabled',
          events: ['user.deleted'],
        }),
      );
      expect(updated).to.deep.equal({
        ...created,
        url: 'https://b.example.com/x',
        description: null,
        status: 'disabled',
        events: ['user.deleted'],
        version: 2,
      });
      expect(await expectSome(store().webhookEndpoints.get(CLIENT, created.id))).to.deep.equal(updated);
    });

    it('update from a stale version is conflict and changes nothing; of two concurrent updates from one version exactly one wins', async () => {
      const created = await expectRight(store().webhookEndpoints.create(aWebhookEndpoint(CLIENT)));
      const results = await Promise.all([
        run(store().webhookEndpoints.update(CLIENT, created.id, 1, { description: 'first' })),
        run(store().webhookEndpoints.update(CLIENT, created.id, 1, { description: 'second' })),
      ]);
      expect(results.filter(E.isRight)).to.have.length(1);
      expect(results.filter(E.isLeft).map((r) => r.left._tag)).to.deep.equal(['conflict']);
      const stored = await expectSome(store().webhookEndpoints.get(CLIENT, created.id));
      expect(stored.version).to.equal(2);
      await expectLeft(store().webhookEndpoints.update(CLIENT, created.id, 1, { description: 'late' }), 'conflict');
      expect(await expectSome(store().webhookEndpoints.get(CLIENT, created.id))).to.deep.equal(stored);
    });

    it("update or delete of a missing or another client's endpoint → none / false, nothing changes", async () => {
      const other = await expectRight(store().webhookEndpoints.create(aWebhookEndpoint(OTHER_CLIENT)));
      await expectNone(store().webhookEndpoints.update(CLIENT, other.id, 1, { description: 'x' }));
      await expectNone(store().webhookEndpoints.update(CLIENT, anId('webhook_endpoint', 999), 1, { description: 'x' }));
      expect(await expectRight(store().webhookEndpoints.delete(CLIENT, other.id))).to.equal(false);
      expect(await expectSome(store().webhookEndpoints.get(OTHER_CLIENT, other.id))).to.deep.equal(other);
      expect(await expectRight(store().webhookEndpoints.delete(OTHER_CLIENT, other.id))).to.equal(true);
      await expectNone(store().webhookEndpoints.get(OTHER_CLIENT, other.id));
    });
    it('an endpoint stored before the health fields (docs/decisions/tenancy.md) decodes, reads as none failing, and takes them on update', async () => {
      expect(opts.writeStoredEndpoint, 'the store suite gives a way to write a stored endpoint').to.be.a('function');
      const old = {
        id: anId('webhook_endpoint', 500),
        client_id: CLIENT,
        url: 'https://old.example.com/hook',
        events: ['*'],
        description: 'stored by an older release',
        status: 'enabled',
        secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=',
        created_at: CREATED_AT,
        version: 1,
      };
      await opts.writeStoredEndpoint!(store(), old);
      const read = await expectSome(store().webhookEndpoints.get(CLIENT, anId('webhook_endpoint', 500)));
      expect(WebhookEndpointRecord.is(read)).to.equal(true);
      expect(read.failing_since ?? null).to.equal(null);
      // Its deliveries were in 2024-07-01, the only version there was: it stays there (docs/decisions/versioning.md).
      expect(toWebhookEndpointView(read)).to.include({ status: 'enabled', disabled_reason: null, api_version: '2024-07-01' });
      expect(idsOf(await expectRight(store().webhookEndpoints.listEnabled(CLIENT)))).to.deep.equal([500]);
      expect(idsOf((await expectRight(store().webhookEndpoints.list(CLIENT, { limit: 5 }))).items)).to.deep.equal([500]);
      const failing = await expectSome(
        store().webhookEndpoints.update(CLIENT, anId('webhook_endpoint', 500), 1, { failing_since: stamp(T0) }),
      );
      expect(failing).to.include({ failing_since: stamp(T0), version: 2 });
      const disabled = await expectSome(
        store().webhookEndpoints.update(CLIENT, anId('webhook_endpoint', 500), 2, { status: 'disabled', disabled_reason: 'failing' }),
      );
      expect(toWebhookEndpointView(disabled)).to.include({ status: 'disabled', disabled_reason: 'failing' });
      expect(await expectSome(store().webhookEndpoints.get(CLIENT, anId('webhook_endpoint', 500)))).to.deep.equal(disabled);
      expect(await expectRight(store().webhookEndpoints.listEnabled(CLIENT))).to.deep.equal([]);
      const cleared = await expectSome(
        store().webhookEndpoints.update(CLIENT, anId('webhook_endpoint', 500), 3, {
          status: 'enabled',
          disabled_reason: null,
          failing_since: null,
        }),
      );
      expect(cleared).to.include({ status: 'enabled', disabled_reason: null, failing_since: null, version: 4 });
      expect(await expectSome(store().webhookEndpoints.get(CLIENT, anId('webhook_endpoint', 500)))).to.deep.equal(cleared);
      const moved = await expectSome(
        store().webhookEndpoints.update(CLIENT, anId('webhook_endpoint', 500), 4, { api_version: '2026-11-26' }),
      );
      expect(moved).to.include({ api_version: '2026-11-26', version: 5 });
      expect(toWebhookEndpointView(await expectSome(store().webhookEndpoints.get(CLIENT, anId('webhook_endpoint', 500))))).to.include({
        api_version: '2026-11-26',
      });
    });
  });

  describe(`${name} WebhookDeliveryRepository contract`, () => {
    const store = useFreshStore(makeStore, opts);
    const ENDPOINT = anId('webhook_endpoint', 3);

    it('createMany makes one pending delivery per (endpoint, event), however often it runs', async () => {
      await expectRight(
        store().webhookDeliveries.createMany([
          aDelivery(CLIENT, ENDPOINT, anId('event', 1)),
          aDelivery(CLIENT, anId('webhook_endpoint', 4), anId('event', 1)),
        ]),
      );
      await expectRight(
        store().webhookDeliveries.createMany([
          aDelivery(CLIENT, ENDPOINT, anId('event', 1)),
          aDelivery(CLIENT, ENDPOINT, anId('event', 2)),
        ]),
      );
      await Promise.all([
        expectRight(store().webhookDeliveries.createMany([aDelivery(CLIENT, ENDPOINT, anId('event', 7))])),
        expectRight(store().webhookDeliveries.createMany([aDelivery(CLIENT, ENDPOINT, anId('event', 7))])),
      ]);
      const page = await expectRight(store().webhookDeliveries.listForEndpoint(CLIENT, ENDPOINT, { limit: 10 }, T0));
      expect(page.items.map((d) => d.event_id)).to.deep.equal([1, 2, 7]);
      expectAscendingIds(page.items);
      for (const d of page.items) {
        expect(WebhookDeliveryRecord.is(d)).to.equal(true);
        expect(d).to.include({ status: 'pending', attempts: 0, last_response_status: null, lease_until: null, lease_token: null });
      }
      expect((await expectRight(store().webhookDeliveries.listForEndpoint(OTHER_CLIENT, ENDPOINT, { limit: 10 }, T0))).items).to.deep.equal(
        [],
      );
    });

    it('paging deliveries with starting_after never skips one whose write was overtaken by a later fan-out', async function () {
      await expectRight(store().webhookDeliveries.createMany([aDelivery(CLIENT, ENDPOINT, anId('event', 1))]));
      const [first] = (await expectRight(store().webhookDeliveries.listForEndpoint(CLIENT, ENDPOINT, { limit: 10 }, T0))).items;
      const hold = opts.holdNextWrite?.('delivery');
      if (opts.holdNextWrite !== undefined && hold === undefined) this.skip();
      try {
        // Two fan-outs (of events 2 and 3) to one endpoint: the first takes its id, then its write is held.
        const slow = run(store().webhookDeliveries.createMany([aDelivery(CLIENT, ENDPOINT, anId('event', 2))]));
        await hold?.held;
        await expectRight(store().webhookDeliveries.createMany([aDelivery(CLIENT, ENDPOINT, anId('event', 3))]));
        const between = await expectRight(
          store().webhookDeliveries.listForEndpoint(CLIENT, ENDPOINT, { limit: 10, startingAfter: first!.id }, T0),
        );
        hold?.release();
        expect(E.isRight(await slow), 'the held fan-out').to.equal(true);
        const lastSeen = between.items.at(-1)?.id ?? first!.id;
        const after = await expectRight(
          store().webhookDeliveries.listForEndpoint(CLIENT, ENDPOINT, { limit: 10, startingAfter: lastSeen }, T0),
        );
        const seen = [...between.items, ...after.items];
        expectAscendingIds(seen);
        expect(seen.map((d) => d.event_id)).to.deep.equal([2, 3]);
      } finally {
        // A hold left waiting would catch the next test's write.
        hold?.release();
      }
    });

    it('claimDue takes the soonest due delivery under a lease; nothing not yet due, leased or of a busy endpoint', async () => {
      await expectRight(
        store().webhookDeliveries.createMany([
          aDelivery(CLIENT, ENDPOINT, anId('event', 1), { next_attempt_at: stamp(at(5000)) }),
          aDelivery(CLIENT, anId('webhook_endpoint', 4), anId('event', 2), { next_attempt_at: stamp(at(1000)) }),
        ]),
      );
      await expectNone(store().webhookDeliveries.claimDue(at(999), lease('a', at(60_000)), ANY));
      const first = await expectSome(store().webhookDeliveries.claimDue(at(6000), lease('a', at(60_000)), ANY));
      expect(first).to.include({ event_id: 2, lease_token: 'a', lease_until: stamp(at(60_000)) });
      await expectNone(store().webhookDeliveries.claimDue(at(6000), lease('b', at(60_000)), { ...ANY, busyEndpoints: [ENDPOINT] }));
      const second = await expectSome(store().webhookDeliveries.claimDue(at(6000), lease('b', at(60_000)), ANY));
      expect(second.event_id).to.equal(1);
      await expectNone(store().webhookDeliveries.claimDue(at(6000), lease('c', at(60_000)), ANY));
    });

    it('a lease that ran out can be claimed again; only the current holder records the attempt', async () => {
      await expectRight(store().webhookDeliveries.createMany([aDelivery(CLIENT, ENDPOINT, anId('event', 1))]));
      const claimed = await expectSome(store().webhookDeliveries.claimDue(T0, lease('old', at(30_000)), ANY));
      await expectNone(store().webhookDeliveries.claimDue(at(29_999), lease('new', at(90_000)), ANY));
      await expectSome(store().webhookDeliveries.claimDue(at(30_000), lease('new', at(90_000)), ANY));
      const outcome = { status: 'pending' as const, attempts: 1, last_response_status: 500, next_attempt_at: stamp(at(40_000)) };
      expect(await expectRight(store().webhookDeliveries.complete(claimed.id, 'old', outcome))).to.equal(false);
      expect(await expectRight(store().webhookDeliveries.complete(claimed.id, 'new', outcome))).to.equal(true);
      expect(await expectRight(store().webhookDeliveries.complete(claimed.id, 'new', outcome))).to.equal(false);
      const [stored] = (await expectRight(store().webhookDeliveries.listForEndpoint(CLIENT, ENDPOINT, { limit: 1 }, T0))).items;
      expect(stored).to.include({ ...outcome, lease_until: null, lease_token: null });
      await expectNone(store().webhookDeliveries.claimDue(at(39_999), lease('x', at(90_000)), ANY));
      await expectSome(store().webhookDeliveries.claimDue(at(40_000), lease('x', at(90_000)), ANY));
    });

    it("cancelPendingForUser cancels the pending deliveries of the user's events only, leased ones too; the lease holder can no longer record", async () => {
      const USER = anId('user', 5);
      const mine = await expectRight(store().events.append(anEvent(CLIENT, { data: { user_id: USER, object: { id: 1 } } })));
      const mineLeased = await expectRight(store().events.append(anEvent(CLIENT, { data: { user_id: USER, object: { id: 2 } } })));
      const another = await expectRight(store().events.append(anEvent(CLIENT, { data: { user_id: anId('user', 6), object: { id: 3 } } })));
      const otherClient = await expectRight(store().events.append(anEvent(OTHER_CLIENT, { data: { user_id: USER, object: { id: 4 } } })));
      await expectRight(
        store().webhookDeliveries.createMany([
          aDelivery(CLIENT, ENDPOINT, mine.id, { next_attempt_at: stamp(at(5000)) }),
          aDelivery(CLIENT, anId('webhook_endpoint', 4), mine.id, { next_attempt_at: stamp(at(5000)) }),
          aDelivery(CLIENT, ENDPOINT, mineLeased.id),
          aDelivery(CLIENT, ENDPOINT, another.id, { next_attempt_at: stamp(at(5000)) }),
          aDelivery(OTHER_CLIENT, anId('webhook_endpoint', 9), otherClient.id, { next_attempt_at: stamp(at(5000)) }),
        ]),
      );
      const leased = await expectSome(store().webhookDeliveries.claimDue(T0, lease('in-flight', at(60_000)), ANY));
      expect(leased.event_id).to.equal(mineLeased.id);
      // A delivery of the user's event already succeeded: left as it is.
      const done = await expectSome(
        store().webhookDeliveries.claimDue(at(5000), lease('done', at(60_000)), {
          ...ANY,
          busyEndpoints: [ENDPOINT, anId('webhook_endpoint', 9)],
        }),
      );
      await expectRight(
        store().webhookDeliveries.complete(done.id, 'done', {
          status: 'succeeded',
          attempts: 1,
          last_response_status: 200,
          next_attempt_at: null,
        }),
      );

      expect(await expectRight(store().webhookDeliveries.cancelPendingForUser(CLIENT, USER))).to.equal(2);
      expect(
        await expectRight(
          store().webhookDeliveries.complete(leased.id, 'in-flight', {
            status: 'succeeded',
            attempts: 1,
            last_response_status: 200,
            next_attempt_at: null,
          }),
        ),
        'the canceled lease records nothing',
      ).to.equal(false);
      const listed = async (clientId: ClientId, endpointId: WebhookEndpointId) =>
        (await expectRight(store().webhookDeliveries.listForEndpoint(clientId, endpointId, { limit: 10 }, T0))).items;
      const byEvent = (items: ReadonlyArray<WebhookDeliveryRecord>) =>
        items.map((d) => [d.event_id, d.status, d.next_attempt_at, d.lease_token]);
      expect(byEvent(await listed(CLIENT, ENDPOINT))).to.deep.equal([
        [mine.id, 'canceled', null, null],
        [mineLeased.id, 'canceled', null, null],
        [another.id, 'pending', stamp(at(5000)), null],
      ]);
      expect(byEvent(await listed(CLIENT, anId('webhook_endpoint', 4)))).to.deep.equal([[mine.id, 'succeeded', null, null]]);
      expect(byEvent(await listed(OTHER_CLIENT, anId('webhook_endpoint', 9)))).to.deep.equal([
        [otherClient.id, 'pending', stamp(at(5000)), null],
      ]);
      // Canceled deliveries are never claimed again; the others still are.
      const claims = [];
      for (let i = 0; i < 3; i++)
        claims.push(await expectRight(store().webhookDeliveries.claimDue(at(10_000_000), lease(`late${i}`, at(20_000_000)), ANY)));
      expect(
        claims
          .filter(O.isSome)
          .map((c) => c.value.event_id)
          .sort(),
      ).to.deep.equal([another.id, otherClient.id].sort());
      expect(
        await expectRight(store().webhookDeliveries.cancelPendingForUser(CLIENT, USER)),
        'a second cancel finds nothing pending',
      ).to.equal(0);
    });

    it('succeeded and failed deliveries are never claimed again', async () => {
      await expectRight(
        store().webhookDeliveries.createMany([
          aDelivery(CLIENT, ENDPOINT, anId('event', 1)),
          aDelivery(CLIENT, ENDPOINT, anId('event', 2)),
        ]),
      );
      for (const status of ['succeeded', 'failed'] as const) {
        const d = await expectSome(store().webhookDeliveries.claimDue(T0, lease(status, at(1000)), ANY));
        await expectRight(
          store().webhookDeliveries.complete(d.id, status, { status, attempts: 1, last_response_status: 200, next_attempt_at: null }),
        );
      }
      await expectNone(store().webhookDeliveries.claimDue(at(10_000_000), lease('z', at(20_000_000)), ANY));
    });

    it('concurrent claimers: each due delivery is claimed exactly once', async () => {
      await expectRight(
        store().webhookDeliveries.createMany(
          [1, 2, 3, 4, 5].map((n) => aDelivery(CLIENT, anId('webhook_endpoint', 10 + n), anId('event', n))),
        ),
      );
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, i) => expectRight(store().webhookDeliveries.claimDue(T0, lease(`t${i}`, at(60_000)), ANY))),
      );
      const won = claims.filter(O.isSome).map((c) => c.value.id);
      expect(won).to.have.length(5);
      expect(new Set(won).size).to.equal(5);
    });

    it('claims go in turn across clients (docs/decisions/tenancy.md): the first client after the last one served, wrapping around; busy clients and endpoints skipped', async () => {
      const C3 = anId('client', 3);
      await expectRight(
        store().webhookDeliveries.createMany([
          aDelivery(CLIENT, anId('webhook_endpoint', 11), anId('event', 1), { next_attempt_at: stamp(at(0)) }),
          aDelivery(CLIENT, anId('webhook_endpoint', 12), anId('event', 2), { next_attempt_at: stamp(at(1)) }),
          aDelivery(OTHER_CLIENT, anId('webhook_endpoint', 21), anId('event', 3), { next_attempt_at: stamp(at(2)) }),
          aDelivery(OTHER_CLIENT, anId('webhook_endpoint', 22), anId('event', 4), { next_attempt_at: stamp(at(3)) }),
          aDelivery(C3, anId('webhook_endpoint', 31), anId('event', 5), { next_attempt_at: stamp(at(4)) }),
        ]),
      );
      const claim = async (token: string, filter: Partial<ClaimFilter>) =>
        (await expectSome(store().webhookDeliveries.claimDue(at(10), lease(token, at(60_000)), { ...ANY, ...filter }))).endpoint_id;
      // Clients at their cap are skipped, however early their deliveries are due.
      expect(await claim('a', { busyClients: [CLIENT, OTHER_CLIENT] })).to.equal(31);
      // After the last client, the first again.
      expect(await claim('b', { afterClient: C3 })).to.equal(11);
      // The next client; of its deliveries the soonest due whose endpoint is not busy.
      expect(await claim('c', { afterClient: CLIENT, busyEndpoints: [anId('webhook_endpoint', 21)] })).to.equal(22);
      // The client after has nothing left, the first is busy: the one after that.
      expect(await claim('d', { afterClient: OTHER_CLIENT, busyClients: [CLIENT] })).to.equal(21);
      expect(await claim('e', { afterClient: OTHER_CLIENT })).to.equal(12);
      await expectNone(store().webhookDeliveries.claimDue(at(10), lease('f', at(60_000)), ANY));
    });

    it('concurrent claimers with different turns and caps: each due delivery is claimed exactly once', async () => {
      await expectRight(
        store().webhookDeliveries.createMany(
          [1, 2, 3, 4, 5, 6].map((n) => aDelivery(anId('client', 1 + (n % 3)), anId('webhook_endpoint', 10 + n), anId('event', n))),
        ),
      );
      const filters: ReadonlyArray<ClaimFilter> = [
        ANY,
        { ...ANY, afterClient: anId('client', 1) },
        { ...ANY, afterClient: anId('client', 3) },
        { ...ANY, busyClients: [anId('client', 2)] },
      ];
      const claims = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          expectRight(store().webhookDeliveries.claimDue(T0, lease(`t${i}`, at(60_000)), filters[i % filters.length]!)),
        ),
      );
      const won = claims.filter(O.isSome).map((c) => c.value.id);
      expect(won).to.have.length(6);
      expect(new Set(won).size).to.equal(6);
    });

    it('rearm (docs/sandbox-over-time.md) makes a delivery pending again (same id, attempts 0, no lease, due as given) or creates it; countPending counts an event-id range', async () => {
      await expectRight(
        store().webhookDeliveries.createMany([
          aDelivery(CLIENT, ENDPOINT, anId('event', 1)),
          aDelivery(CLIENT, ENDPOINT, anId('event', 2)),
        ]),
      );
      const claimed = await expectSome(store().webhookDeliveries.claimDue(T0, lease('a', at(60_000)), ANY));
      expect(
        await expectRight(
          store().webhookDeliveries.complete(claimed.id, 'a', {
            status: 'succeeded',
            attempts: 1,
            last_response_status: 204,
            next_attempt_at: null,
          }),
        ),
      ).to.equal(true);
      const leased = await expectSome(store().webhookDeliveries.claimDue(T0, lease('b', at(60_000)), ANY));
      expect(await expectRight(store().webhookDeliveries.countPending(CLIENT, ENDPOINT, anId('event', 1), anId('event', 9)))).to.equal(1);
      const due = stamp(at(5000));
      expect(
        await expectRight(
          store().webhookDeliveries.rearm([
            aDelivery(CLIENT, ENDPOINT, anId('event', 1), { next_attempt_at: due }),
            aDelivery(CLIENT, ENDPOINT, anId('event', 2), { next_attempt_at: due }),
            aDelivery(CLIENT, ENDPOINT, anId('event', 3), { next_attempt_at: due }),
          ]),
        ),
      ).to.equal(3);
      const page = await expectRight(store().webhookDeliveries.listForEndpoint(CLIENT, ENDPOINT, { limit: 10 }, T0));
      expect(page.items.map((d) => d.event_id)).to.deep.equal([1, 2, 3]);
      expect(page.items[0]).to.deep.include({
        id: claimed.id,
        status: 'pending',
        attempts: 0,
        last_response_status: 204,
        next_attempt_at: due,
        lease_until: null,
        lease_token: null,
        created_at: claimed.created_at,
      });
      expect(page.items[1]).to.deep.include({
        id: leased.id,
        status: 'pending',
        attempts: 0,
        next_attempt_at: due,
        lease_until: null,
        lease_token: null,
      });
      expect(page.items[2]).to.deep.include({ status: 'pending', attempts: 0, last_response_status: null, next_attempt_at: due });
      // The attempt under the old lease can no longer record itself: the new series is what counts.
      expect(
        await expectRight(
          store().webhookDeliveries.complete(leased.id, 'b', {
            status: 'succeeded',
            attempts: 1,
            last_response_status: 200,
            next_attempt_at: null,
          }),
        ),
      ).to.equal(false);
      expect(await expectRight(store().webhookDeliveries.countPending(CLIENT, ENDPOINT, anId('event', 1), anId('event', 9)))).to.equal(3);
      expect(await expectRight(store().webhookDeliveries.countPending(CLIENT, ENDPOINT, anId('event', 2), anId('event', 2)))).to.equal(1);
      expect(
        await expectRight(store().webhookDeliveries.countPending(OTHER_CLIENT, ENDPOINT, anId('event', 1), anId('event', 9))),
      ).to.equal(0);
      expect(
        await expectRight(store().webhookDeliveries.countPending(CLIENT, anId('webhook_endpoint', 4), anId('event', 1), anId('event', 9))),
      ).to.equal(0);
      // Not due before its time; then claimed as any delivery.
      await expectNone(store().webhookDeliveries.claimDue(at(4999), lease('c', at(60_000)), ANY));
      expect((await expectSome(store().webhookDeliveries.claimDue(at(5000), lease('c', at(60_000)), ANY))).id).to.equal(claimed.id);
    });

    it('countArmed counts the client’s pending unexpired deliveries, leased ones too; not succeeded, canceled, expired or another client’s', async () => {
      const deliveries = store().webhookDeliveries;
      await expectRight(deliveries.createMany([1, 2, 3, 4].map((e) => aDelivery(CLIENT, ENDPOINT, anId('event', e)))));
      await expectRight(
        deliveries.createMany([
          aDelivery(CLIENT, anId('webhook_endpoint', 4), anId('event', 1)),
          aDelivery(OTHER_CLIENT, anId('webhook_endpoint', 5), anId('event', 9)),
        ]),
      );
      expect(await expectRight(deliveries.countArmed(CLIENT, T0))).to.equal(5);
      const sent = await expectSome(deliveries.claimDue(T0, lease('a', at(60_000)), ANY));
      expect(await expectRight(deliveries.countArmed(CLIENT, T0)), 'a leased delivery is still armed').to.equal(5);
      expect(
        await expectRight(
          deliveries.complete(sent.id, 'a', { status: 'succeeded', attempts: 1, last_response_status: 200, next_attempt_at: null }),
        ),
      ).to.equal(true);
      expect(await expectRight(deliveries.countArmed(CLIENT, T0))).to.equal(4);
      expect(await expectRight(deliveries.countArmed(OTHER_CLIENT, T0))).to.equal(1);
      expect(await expectRight(deliveries.countArmed(CLIENT, at(EVENT_RETENTION_MS))), 'expired deliveries are not armed').to.equal(0);
      expect(await expectRight(deliveries.rearm([aDelivery(CLIENT, ENDPOINT, anId('event', sent.event_id))]))).to.equal(1);
      expect(await expectRight(deliveries.countArmed(CLIENT, T0)), 're-armed').to.equal(5);
    });

    it('retention: an expired delivery is neither listed nor claimed; deleteForEndpoint removes the endpoint’s only', async () => {
      await expectRight(
        store().webhookDeliveries.createMany([
          aDelivery(CLIENT, ENDPOINT, anId('event', 1)),
          aDelivery(CLIENT, anId('webhook_endpoint', 4), anId('event', 1)),
        ]),
      );
      const expired = at(EVENT_RETENTION_MS);
      expect((await expectRight(store().webhookDeliveries.listForEndpoint(CLIENT, ENDPOINT, { limit: 5 }, expired))).items).to.deep.equal(
        [],
      );
      await expectNone(store().webhookDeliveries.claimDue(expired, lease('late', at(EVENT_RETENTION_MS + 1000)), ANY));
      expect(await expectRight(store().webhookDeliveries.deleteForEndpoint(OTHER_CLIENT, ENDPOINT))).to.equal(0);
      expect(await expectRight(store().webhookDeliveries.deleteForEndpoint(CLIENT, ENDPOINT))).to.equal(1);
      expect((await expectRight(store().webhookDeliveries.listForEndpoint(CLIENT, ENDPOINT, { limit: 5 }, T0))).items).to.deep.equal([]);
      expect(
        (await expectRight(store().webhookDeliveries.listForEndpoint(CLIENT, anId('webhook_endpoint', 4), { limit: 5 }, T0))).items,
      ).to.have.length(1);
    });
  });
}

const expectAscendingIds = (items: ReadonlyArray<{ readonly id: number }>): void => {
  const ids = idsOf(items);
  expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
};
