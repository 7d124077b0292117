/**
 * Webhook endpoints with their own API version, events rendered per reader,
 * and moving a client (docs/decisions/tenancy.md, docs/operations.md, docs/decisions/webhooks.md), over `app.callback()` on the memory
 * store and on the mongo store (the wire-protocol test server, or MONGODB_URL):
 * - an endpoint on each version receives the same event, each in its shape;
 * - `api_version` on create and PATCH (default the client's pinned version;
 *   an unknown version is 400 naming the field, nothing changed);
 * - the events API in the request's version;
 * - `PATCH /admin/clients/{client_id}`, audited;
 * - what releases before 2026-11-26 stored (an endpoint without `api_version`,
 *   an event already rendered, without a render context) still reads.
 */
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import type supertest from 'supertest';
import { Webhook } from 'standardwebhooks';
import { EVENT_RETENTION_MS, type ClientId, type StorePorts, type Timestamp, type UserId } from '@debtkit/core';
import { MemoryDatabase, createMemoryStore } from '@debtkit/adapter-memory';
import { COLLECTIONS, connectMongoStore } from '@debtkit/adapter-mongo';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { ADMIN_TOKEN } from './support/http-harness.js';
import { Receiver, webhookHarness, type ApiClient, type Json } from './support/webhook-harness.js';

const OLD = '2024-07-01';
const NEW = '2026-11-26';
const ADMIN = { Authorization: `Bearer ${ADMIN_TOKEN}` };
const PERSON = {
  last_name: 'Quillfeather',
  first_name: 'Zephyrine',
  email: 'z@versions.example',
  date_of_birth: '1987-06-05',
  phone: '+1 555 0100',
};

/** A store and a way to write a record into it as an older release did, with no repository code in between. */
interface StoreUnderTest {
  readonly store: StorePorts;
  readonly writeStoredEndpoint: (
    record: Readonly<Record<string, unknown>> & { readonly id: number; readonly client_id: number },
  ) => Promise<void>;
  readonly close: () => Promise<void>;
}

const memoryStore = async (): Promise<StoreUnderTest> => {
  const db = new MemoryDatabase();
  return {
    store: createMemoryStore(db),
    writeStoredEndpoint: async (record) => {
      const written = db
        .table<unknown, unknown, unknown>('webhookEndpoints')
        .set(db.autocommit, record.client_id, record.id, { ...record });
      if (written._tag === 'Left') throw new Error(written.left.message);
    },
    close: async () => undefined,
  };
};

for (const kind of ['memory', 'mongo'] as const) {
  describe(`webhook endpoint versions and events per version (docs/decisions/versioning.md, docs/decisions/webhooks.md) on the ${kind} store`, function () {
    this.timeout(60_000);
    let wire: WireServer | undefined;
    let admin: MongoClient | undefined;
    let under: StoreUnderTest;
    let h: Awaited<ReturnType<typeof webhookHarness>>;
    const receivers: Receiver[] = [];

    before(async () => {
      if (kind === 'memory') under = await memoryStore();
      else {
        const realUrl = process.env['MONGODB_URL'];
        if (realUrl === undefined || realUrl === '') wire = await startWireServer();
        const url = wire?.url ?? realUrl!;
        const dbName = `debtkit_hook_versions_${process.pid}_${Date.now().toString(36)}`;
        const store = await connectMongoStore(url, { dbName, serverSelectionTimeoutMS: 2000 });
        const raw = (admin = new MongoClient(url, { serverSelectionTimeoutMS: 2000 }));
        under = {
          store,
          writeStoredEndpoint: async ({ id, ...rest }) => {
            await raw
              .db(dbName)
              .collection<{ _id: number }>(COLLECTIONS.webhookEndpoints)
              .insertOne({ _id: id, ...rest });
          },
          close: async () => {
            await raw.db(dbName).dropDatabase();
            await store.close();
          },
        };
      }
      // One app for the file: each test makes its own client.
      h = await webhookHarness({ store: under.store });
    });
    after(async () => {
      await under.close();
      await admin?.close();
      await wire?.stop();
    });
    afterEach(async () => {
      await Promise.all(receivers.splice(0).map((r) => r.stop()));
    });

    const receiver = async (): Promise<Receiver> => {
      const r = await new Receiver().start();
      receivers.push(r);
      return r;
    };
    const ok = (res: supertest.Response, status: number): Json => {
      expect(res.status, `${res.status} ${JSON.stringify(res.body)}`).to.equal(status);
      return res.body as Json;
    };
    const expectFieldError = (res: supertest.Response, field: string): void => {
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body['error']['code']).to.equal('validation_error');
      expect(res.body['error']['details'].map((d: Json) => d['path'])).to.include(field);
      expect(JSON.stringify(res.body)).not.to.match(/at \w+ \(|node_modules/);
    };
    /** A user created and deleted: one `user.deleted`. */
    const deletedUser = async (client: ApiClient): Promise<Json> => {
      const user = ok(await h.request.post('/api/users').set(client.auth).send(PERSON), 201);
      ok(await h.request.delete(`/api/users/${user['id']}`).set(client.auth), 204);
      return user;
    };
    const emptiedUser = (user: Json): Json => ({
      id: user['id'],
      first_name: null,
      last_name: '',
      email: null,
      date_of_birth: null,
      phone: null,
      created_at: user['created_at'],
    });
    /** The receiver's deliveries, each verified with the endpoint's secret. */
    const verified = (r: Receiver, secret: string): Json[] =>
      r.received.map((x) => new Webhook(secret).verify(x.body, x.headers as Record<string, string>) as Json);

    it('an endpoint on each version receives the same event, each in its own shape; a PATCH moves an endpoint', async () => {
      const client = await h.newClient('Two versions');
      const [oldHooks, newHooks] = [await receiver(), await receiver()];
      const oldHook = ok(
        await h.request
          .post('/api/webhook_endpoints')
          .set(client.auth)
          .send({ url: oldHooks.url, api_version: OLD, events: ['user.deleted'] }),
        201,
      );
      const newHook = ok(
        await h.request
          .post('/api/webhook_endpoints')
          .set(client.auth)
          .send({ url: newHooks.url, events: ['user.deleted'] }),
        201,
      );
      expect(oldHook['api_version']).to.equal(OLD);
      // The default: the client's pinned version (the latest at its creation).
      expect(newHook['api_version']).to.equal(NEW);

      const user = await deletedUser(client);
      await h.worker.drain();
      const [asOld] = verified(oldHooks, oldHook['secret']);
      const [asNew] = verified(newHooks, newHook['secret']);
      expect(oldHooks.received).to.have.length(1);
      expect(newHooks.received).to.have.length(1);
      // The same event, in two shapes.
      expect(asOld!['id']).to.equal(asNew!['id']);
      expect(asNew).to.deep.equal({
        id: asNew!['id'],
        type: 'user.deleted',
        created_at: asNew!['created_at'],
        api_version: NEW,
        data: { user_id: user['id'], object: { id: user['id'] } },
      });
      expect(asOld).to.deep.equal({ ...asNew, api_version: OLD, data: { user_id: user['id'], object: emptiedUser(user) } });
      // Byte for byte as 2024-07-01 delivered it before the release: key order included.
      expect(JSON.stringify(asOld!['data']['object'])).to.equal(JSON.stringify(emptiedUser(user)));

      // Moved to 2024-07-01: its next delivery is in that shape.
      const moved = ok(await h.request.patch(`/api/webhook_endpoints/${newHook['id']}`).set(client.auth).send({ api_version: OLD }), 200);
      expect(moved['api_version']).to.equal(OLD);
      const second = await deletedUser(client);
      await h.worker.drain();
      const next = verified(newHooks, newHook['secret'])[1]!;
      expect(next['api_version']).to.equal(OLD);
      expect(next['data']).to.deep.equal({ user_id: second['id'], object: emptiedUser(second) });
      expect(verified(oldHooks, oldHook['secret'])[1]).to.deep.equal(next);
    });

    it('api_version on create and PATCH: unknown versions are 400 naming the field, and change nothing', async () => {
      const client = await h.newClient('Validation');
      const hook = ok(await h.request.post('/api/webhook_endpoints').set(client.auth).send({ url: 'https://example.com/hook' }), 201);
      const path = `/api/webhook_endpoints/${hook['id']}`;
      const { secret: _secret, ...view } = hook;
      for (const bad of ['2025-01-01', 'latest', '', 20261126, null, 'x'.repeat(40)]) {
        expectFieldError(
          await h.request.post('/api/webhook_endpoints').set(client.auth).send({ url: 'https://example.com/other', api_version: bad }),
          'api_version',
        );
        expectFieldError(
          await h.request.patch(path).set(client.auth).send({ api_version: bad, description: 'not applied' }),
          'api_version',
        );
      }
      const unknown = await h.request.patch(path).set(client.auth).send({ api_version: '2025-01-01' });
      expect(unknown.body['error']['details'][0]['message']).to.contain(`${OLD}, ${NEW}`);
      expect(ok(await h.request.get(path).set(client.auth), 200)).to.deep.equal(view);
      expect(ok(await h.request.get('/api/webhook_endpoints').set(client.auth), 200)['webhook_endpoints']).to.deep.equal([view]);
      const patched = ok(await h.request.patch(path).set(client.auth).send({ api_version: OLD }), 200);
      expect(patched).to.deep.equal({ ...view, api_version: OLD });
      expect(ok(await h.request.get('/api/webhook_endpoints').set(client.auth), 200)['webhook_endpoints']).to.deep.equal([patched]);
      expect(ok(await h.request.patch(path).set(client.auth).send({ api_version: NEW }), 200)).to.deep.equal(view);
    });

    it("the events API answers in the request's version, saying which", async () => {
      const client = await h.newClient('Reader');
      const user = await deletedUser(client);
      const byDefault = ok(await h.request.get('/api/events').set(client.auth), 200);
      const asOld = await h.request.get('/api/events').set(client.auth).set('API-Version', OLD);
      expect(asOld.headers['api-version']).to.equal(OLD);
      const [latest] = byDefault['events'] as Json[];
      const [old] = ok(asOld, 200)['events'] as Json[];
      expect(latest).to.deep.equal({
        id: latest!['id'],
        type: 'user.deleted',
        created_at: latest!['created_at'],
        api_version: NEW,
        data: { user_id: user['id'], object: { id: user['id'] } },
      });
      expect(old).to.deep.equal({ ...latest, api_version: OLD, data: { user_id: user['id'], object: emptiedUser(user) } });
      expect(ok(await h.request.get(`/api/events/${latest!['id']}`).set(client.auth), 200)).to.deep.equal(latest);
      expect(ok(await h.request.get(`/api/events/${latest!['id']}`).set(client.auth).set('API-Version', OLD), 200)).to.deep.equal(old);
      expect(
        ok(await h.request.get(`/api/events?type=user.deleted&user_id=${user['id']}`).set(client.auth).set('API-Version', NEW), 200)[
          'events'
        ],
      ).to.deep.equal([latest]);
    });

    it('PATCH /admin/clients/{client_id} moves a client to another known version, audited; errors change nothing', async () => {
      const client = await h.newClient('Mover');
      const path = `/admin/clients/${client.id}`;
      const pinned = async (): Promise<string> =>
        (await h.request.get('/api/users?limit=1').set(client.auth).expect(200)).headers['api-version'] as string;
      expect(await pinned()).to.equal(NEW);

      const moved = await h.request.patch(path).set(ADMIN).set('X-Request-Id', 'move-mover-1').send({ api_version: OLD });
      expect(ok(moved, 200)).to.deep.include({ id: client.id, name: 'Mover', api_version: OLD });
      // Its requests without API-Version, and the endpoints it creates without one, are on the new pin at once.
      expect(await pinned()).to.equal(OLD);
      expect(
        ok(await h.request.post('/api/webhook_endpoints').set(client.auth).send({ url: 'https://example.com/moved' }), 201)['api_version'],
      ).to.equal(OLD);
      const listed = ok(await h.request.get('/admin/clients?limit=100').set(ADMIN), 200)['clients'] as Json[];
      expect(listed.find((c) => c['id'] === client.id)).to.deep.equal(moved.body);
      const audit = (
        ok(await h.request.get('/admin/audit_events?limit=100&action=client.version_changed').set(ADMIN), 200)['audit_events'] as Json[]
      ).filter((e) => e['target']['id'] === client.id);
      expect(audit).to.have.length(1);
      expect(audit[0]).to.deep.include({
        action: 'client.version_changed',
        target: { type: 'client', id: client.id },
        request_id: 'move-mover-1',
      });

      // The version it is on: 200, nothing recorded.
      expect(ok(await h.request.patch(path).set(ADMIN).send({ api_version: OLD }), 200)).to.deep.equal(moved.body);
      const auditedAfter = async (): Promise<number> =>
        (
          ok(await h.request.get('/admin/audit_events?limit=100&action=client.version_changed').set(ADMIN), 200)['audit_events'] as Json[]
        ).filter((e) => e['target']['id'] === client.id).length;
      expect(await auditedAfter()).to.equal(1);

      for (const bad of ['2025-01-01', 'latest', 7, null])
        expectFieldError(await h.request.patch(path).set(ADMIN).send({ api_version: bad }), 'api_version');
      expectFieldError(await h.request.patch(path).set(ADMIN).send({}), 'api_version');
      expect(ok(await h.request.patch(path).set(ADMIN).send({ api_version: NEW, name: 'Renamed' }), 400)['error']['code']).to.equal(
        'validation_error',
      );
      const missing = await h.request.patch('/admin/clients/987654').set(ADMIN).send({ api_version: NEW });
      expect(missing.status).to.equal(404);
      expect(missing.body['error']['code']).to.equal('not_found');
      // A client's token is not the admin's (as on every admin route).
      expect((await h.request.patch(path).set(client.auth).send({ api_version: NEW })).status).to.equal(403);
      expect((await h.request.patch(path).send({ api_version: NEW })).status).to.equal(401);
      expect((await h.request.patch('/admin/clients/abc').set(ADMIN).send({ api_version: NEW })).status).to.equal(400);
      expect(await auditedAfter()).to.equal(1);
      expect(await pinned()).to.equal(OLD);
    });

    it('what releases before 2026-11-26 stored still reads: an endpoint without api_version (2024-07-01), an event already rendered (as stored)', async () => {
      const client = await h.newClient('Old records');
      const r = await receiver();
      const legacyId = 900_000 + client.id;
      // Written as releases before the field wrote it: no api_version (and no health fields).
      await under.writeStoredEndpoint({
        id: legacyId,
        client_id: client.id,
        url: r.url,
        events: ['*'],
        description: 'stored by an older release',
        status: 'enabled',
        secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=',
        created_at: '2026-01-01T00:00:00.000Z',
        version: 1,
      });
      const endpoint = ok(await h.request.get(`/api/webhook_endpoints/${legacyId}`).set(client.auth), 200);
      expect(endpoint).to.deep.include({ id: legacyId, api_version: OLD, status: 'enabled', disabled_reason: null });
      expect(
        (ok(await h.request.get('/api/webhook_endpoints').set(client.auth), 200)['webhook_endpoints'] as Json[]).map(
          (e) => e['api_version'],
        ),
      ).to.deep.equal([OLD]);

      // An event as releases before 2026-11-26 stored it: its object rendered once, in the client's version of the day; no render context.
      const now = h.clock.now();
      const oldObject = {
        id: 4242,
        first_name: null,
        last_name: '',
        email: null,
        date_of_birth: null,
        phone: null,
        created_at: '2026-01-02T03:04:05.000Z',
      };
      const legacy = await under.store.events.append({
        client_id: client.id as ClientId,
        type: 'user.deleted',
        created_at: now.toISOString() as Timestamp,
        api_version: OLD,
        data: { user_id: 4242 as UserId, object: oldObject },
        expires_at: new Date(now.getTime() + EVENT_RETENTION_MS).toISOString() as Timestamp,
      })();
      if (legacy._tag === 'Left') throw new Error(legacy.left.message);
      const asStored = {
        id: legacy.right.id,
        type: 'user.deleted',
        created_at: now.toISOString(),
        api_version: OLD,
        data: { user_id: 4242, object: oldObject },
      };
      for (const version of [OLD, NEW]) {
        expect(
          ok(await h.request.get(`/api/events/${legacy.right.id}`).set(client.auth).set('API-Version', version), 200),
          version,
        ).to.deep.equal(asStored);
        expect(ok(await h.request.get('/api/events').set(client.auth).set('API-Version', version), 200)['events'], version).to.deep.equal([
          asStored,
        ]);
      }

      // Deliveries to the old endpoint: the old event as stored, a new one in 2024-07-01.
      const user = await deletedUser(client);
      await h.worker.drain();
      // In event order (both were due at once).
      const delivered = verified(r, 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=').sort((a, b) => a['id'] - b['id']);
      expect(delivered).to.have.length(2);
      expect(delivered[0]).to.deep.equal(asStored);
      expect(delivered[1]).to.deep.include({ type: 'user.deleted', api_version: OLD });
      expect(delivered[1]!['data']).to.deep.equal({ user_id: user['id'], object: emptiedUser(user) });
    });
  });
}
