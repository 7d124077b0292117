/**
 * An ESM service using every published package as installed from its tarball:
 * core's use cases on the memory store, the mongo store on the wire-protocol
 * test server, and the HTTP app answering a probe, on the memory store and on
 * the mongo one (its optional peer, installed here), and @debtkit/client calling
 * that app and verifying a webhook it signed. Prints one JSON line.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as E from 'fp-ts/lib/Either.js';
import { CURRENT_VERSION, classify, createApplication, timestampOf, type Clock } from '@debtkit/core';
import { expectRight, sequentialSecrets } from '@debtkit/core/testing';
import { SandboxCreditBureau, createMemoryStore } from '@debtkit/adapter-memory';
import { connectMongoStore } from '@debtkit/adapter-mongo';
import { startWireServer } from '@debtkit/mongo-wire-test-server';
import { compose } from '@debtkit/adapter-http';
import { API_VERSIONS, LATEST_API_VERSION, createClient, signWebhook, verifyWebhook } from '@debtkit/client';

const clock: Clock = { now: () => new Date('2026-03-15T09:30:00.000Z') };

const main = async (): Promise<void> => {
  const store = createMemoryStore();
  const client = await store.clients.create({
    name: 'esm',
    environment: 'sandbox',
    api_version: CURRENT_VERSION,
    created_at: timestampOf(clock.now()),
  })();
  if (E.isLeft(client)) throw new Error(client.left.message);
  const app = createApplication({ ...store, clock, bureau: new SandboxCreditBureau(), secrets: sequentialSecrets() });
  const user = await app.createUser(client.right.id, { first_name: 'Ada', last_name: 'Okafor' })();

  const wire = await startWireServer();
  const mongo = await connectMongoStore(`${wire.url}/consumer`);
  const mongoClient = await mongo.clients.create({
    name: 'mongo',
    environment: 'sandbox',
    api_version: CURRENT_VERSION,
    created_at: timestampOf(clock.now()),
  })();
  await mongo.close();
  // The HTTP package on the mongo store: it loads its optional peer, installed here.
  const onMongo = await compose({ config: { store: 'mongo', mongodbUrl: `${wire.url}/consumer` } });
  const mongoServer = createServer(onMongo.app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => mongoServer.once('listening', resolve));
  const mongoReady = await fetch(`http://127.0.0.1:${(mongoServer.address() as AddressInfo).port}/readyz`);
  mongoServer.close();
  await onMongo.close();
  await wire.stop();

  const composed = await compose({ config: { store: 'memory' } });
  const server = createServer(composed.app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = await fetch(`${baseUrl}/healthz`);
  // A client per released version, each typed by its own document.
  const health = await Promise.all(API_VERSIONS.map((apiVersion) => createClient({ baseUrl, apiVersion }).GET('/healthz')));
  server.close();
  const secret = `whsec_${Buffer.from('a consumer secret of 32 bytes...').toString('base64')}`;
  const signed = await signWebhook(secret, {
    id: 1,
    type: 'user.deleted',
    created_at: clock.now().toISOString(),
    api_version: LATEST_API_VERSION,
    data: { user_id: 1, object: { id: 1 } },
  });
  const event = await verifyWebhook(secret, signed.headers, signed.body);
  await composed.close();

  console.log(
    JSON.stringify({
      rating: classify('payment_history', 95),
      user: E.isRight(user) ? user.right.first_name : user.left._tag,
      mongoClient: E.isRight(mongoClient) ? mongoClient.right.name : mongoClient.left._tag,
      probe: probe.status,
      mongoReady: mongoReady.status,
      testing: typeof expectRight,
      clientHealth: health.map((h) => h.response.status),
      webhook: event.type,
    }),
  );
};

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
