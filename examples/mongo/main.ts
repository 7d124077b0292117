/**
 * # The API on MongoDB
 *
 * The same Koa app as examples/http-server, composed with the MongoDB adapter
 * instead of the memory store: only the store changes.
 *
 *   MONGODB_URL set      connect to that server (database `debtkit_example`,
 *                        so the example never writes into your app's database)
 *   MONGODB_URL unset    start the MongoDB wire-protocol test server
 *                        (@debtkit/mongo-wire-test-server, data in memory), so the
 *                        example runs anywhere, with the real `mongodb` driver
 *
 * It seeds the sandbox demo (a client and its token, a user with linked
 * accounts and a credit score), serves the API on 127.0.0.1 on a free port,
 * asks `/readyz` (which pings the store) and the user's credit score, prints
 * them, and shuts down: HTTP server, then store, then the test server.
 *
 * Run it: `npm run build && node examples/dist/mongo/main.js`
 * (or `MONGODB_URL=mongodb://localhost:27017 node examples/dist/mongo/main.js`).
 * The test suite runs it too (examples/test/mongo.test.ts).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import * as E from 'fp-ts/lib/Either.js';
import { type Clock, PORTS, newToken } from '@debtkit/core';
import { seedDemo } from '@debtkit/adapter-memory';
import { startWireServer } from '@debtkit/mongo-wire-test-server';
import { compose, resolve } from '@debtkit/adapter-http';
import { createClient, unwrap, type Schemas } from '@debtkit/client';

export const EXAMPLE_DATABASE = 'debtkit_example';

export interface MongoExampleResult {
  readonly target: 'MONGODB_URL' | 'wire-protocol test server';
  readonly userId: number;
  readonly readyStatus: number;
  readonly creditScore: Schemas<'2026-11-26'>['CreditScore'];
}

const systemClock: Clock = { now: () => new Date() };

interface MongoServer {
  readonly url: string;
  readonly target: MongoExampleResult['target'];
  stop(): Promise<void>;
}

/** The server at `mongodbUrl`, or a wire-protocol test server started (and later stopped) here. */
const mongoServer = async (mongodbUrl: string | undefined): Promise<MongoServer> => {
  if (mongodbUrl !== undefined) return { url: mongodbUrl, target: 'MONGODB_URL', stop: async () => undefined };
  const wire = await startWireServer();
  return { url: wire.url, target: 'wire-protocol test server', stop: () => wire.stop() };
};

export const main = async (
  log: (line: string) => void = console.log,
  mongodbUrl: string | undefined = process.env['MONGODB_URL'] || undefined,
): Promise<MongoExampleResult> => {
  const mongo = await mongoServer(mongodbUrl);
  const { target } = mongo;
  log(`MongoDB: ${target}, database ${EXAMPLE_DATABASE}`);
  try {
    // The server's composition with DEBTKIT_STORE=mongo: it opens the store and closes it in `close()`.
    const mongodbUrl = `${mongo.url.replace(/\/[^/?]*(\?|$)/, (_m, q: string) => `/${EXAMPLE_DATABASE}${q}`)}`;
    const { app, store, container, close } = await compose({
      config: { store: 'mongo', mongodbUrl },
      clock: systemClock,
      logger: pino({ level: 'warn' }),
    });
    try {
      const token = newToken(resolve(container, PORTS.SecretGenerator), 'sandbox');
      const seeded = await seedDemo({ ...store, clock: systemClock, tokenHasher: resolve(container, PORTS.TokenHasher) }, { token })();
      if (E.isLeft(seeded)) throw new Error(`seeding the demo failed: ${seeded.left.message}`);
      const userId = seeded.right.user.id;

      const server = app.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const client = createClient({ baseUrl: url, token, apiVersion: '2026-11-26' });
        const ready = await client.GET('/readyz');
        log(`GET /readyz → ${ready.response.status}`);

        const path = `/api/users/${userId}/credit_scores`;
        // unwrap: the score, or the API's error thrown as a DebtkitApiError (code, status, request id).
        const score = await unwrap(client.GET('/api/users/{id}/credit_scores', { params: { path: { id: userId } } }));
        log(`GET ${path} → score ${score.score} for ${score.last_name} on ${score.date}`);
        return { target, userId, readyStatus: ready.response.status, creditScore: score };
      } finally {
        server.close();
      }
    } finally {
      await close();
    }
  } finally {
    await mongo.stop();
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
