/**
 * The set-up of the mongo cost tests (what a request costs in commands): a
 * wire-protocol test server for the suite, and the production composition on
 * a mongo store there with the demo seeded and a per-client rate limit far
 * above any test's load (on mongo: a connection of its own).
 */
import * as E from 'fp-ts/lib/Either.js';
import supertest from 'supertest';
import type { DemoSeed } from '@debtkit/core';
import { mongoStorePorts, openMongoContext, type MongoContext } from '@debtkit/adapter-mongo';
import { seedDemo } from '@debtkit/adapter-memory';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import { Sha256TokenHasher, generateToken } from '../../src/http/token-issuer.js';
import { compose, type Composition } from '../../src/main/composition.js';
import { fixedClock } from './resource-app.js';

export interface SeededMongoApp {
  /** The store's own context (its client, for command monitoring). */
  readonly ctx: MongoContext;
  readonly request: ReturnType<typeof supertest>;
  readonly seeded: DemoSeed;
  /** `/api/users/{the demo user's id}`. */
  readonly user: string;
  readonly auth: { readonly Authorization: string };
}

export interface MongoCostFixture {
  /** The suite's wire server (its `commands` log counts what every connection sent). */
  readonly server: () => WireServer;
  /** debtkit on a fresh database `dbName` of the suite's server; `urlOptions` (e.g. `?monitorCommands=true`) go on the store's URL. */
  open(dbName: string, urlOptions?: string): Promise<SeededMongoApp>;
}

/** Call inside a `describe`: starts the server before the suite and stops it (and what `open` composed) after. */
export const mongoCostFixture = (): MongoCostFixture => {
  let server: WireServer | undefined;
  let composition: Composition | undefined;
  before(async () => {
    server = await startWireServer();
  });
  after(async () => {
    await composition?.close();
    await server?.stop();
  });
  const running = (): WireServer => {
    if (server === undefined) throw new Error('mongoCostFixture: the wire server is not running (call open inside a test)');
    return server;
  };
  return {
    server: running,
    async open(dbName, urlOptions = '') {
      const { url } = running();
      const ctx = await openMongoContext(`${url}${urlOptions}`, { dbName, serverSelectionTimeoutMS: 2000 });
      const store = mongoStorePorts(ctx);
      const clock = fixedClock();
      composition = await compose({
        store,
        clock,
        config: { store: 'mongo', mongodbUrl: `${url}${dbName}`, rateLimit: 1_000_000, authFailureLimit: 0 },
      });
      const token = generateToken('sandbox');
      const seeded = await seedDemo({ ...store, clock, tokenHasher: new Sha256TokenHasher() }, { token, apiVersion: '2024-07-01' })();
      if (E.isLeft(seeded)) throw new Error(seeded.left.message);
      return {
        ctx,
        request: supertest(composition.app.callback()),
        seeded: seeded.right,
        user: `/api/users/${seeded.right.user.id}`,
        auth: { Authorization: `Bearer ${token}` },
      };
    },
  };
};
