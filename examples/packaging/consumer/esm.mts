/**
 * An ESM service using every published package as installed from its tarball:
 * core's use cases on the memory store, the mongo store on the wire-protocol
 * test server, and the HTTP app answering a probe. Prints one JSON line.
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

const clock: Clock = { now: () => new Date('2026-03-15T09:30:00.000Z') };

const main = async (): Promise<void> => {
  const store = createMemoryStore();
  const client = await store.clients.create({ name: 'esm', environment: 'sandbox', api_version: CURRENT_VERSION, created_at: timestampOf(clock.now()) })();
  if (E.isLeft(client)) throw new Error(client.left.message);
  const app = createApplication({ ...store, clock, bureau: new SandboxCreditBureau(), secrets: sequentialSecrets() });
  const user = await app.createUser(client.right.id, { first_name: 'Ada', last_name: 'Okafor' })();

  const wire = await startWireServer();
  const mongo = await connectMongoStore(`${wire.url}/consumer`);
  const mongoClient = await mongo.clients.create({ name: 'mongo', environment: 'sandbox', api_version: CURRENT_VERSION, created_at: timestampOf(clock.now()) })();
  await mongo.close();
  await wire.stop();

  const composed = await compose({ config: { store: 'memory' } });
  const server = createServer(composed.app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const probe = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`);
  server.close();
  await composed.close();

  console.log(
    JSON.stringify({
      rating: classify('payment_history', 95),
      user: E.isRight(user) ? user.right.first_name : user.left._tag,
      mongoClient: E.isRight(mongoClient) ? mongoClient.right.name : mongoClient.left._tag,
      probe: probe.status,
      testing: typeof expectRight,
    }),
  );
};

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
