/**
 * A mongo store per test for an HTTP suite: against `MONGODB_URL` when it is
 * set, otherwise against the wire-protocol test server, started before the
 * suite and stopped after it. Call inside a `describe`; every store is a
 * database of its own.
 */
import type { StorePorts } from '@debtkit/core';
import { connectMongoStore } from '@debtkit/adapter-mongo';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';

export interface MongoStores {
  /** Where the stores live: `wire-protocol test server` or `real MongoDB`. */
  readonly label: string;
  /** A store on a fresh database named `debtkit_<prefix>_<pid>_<n>`. */
  readonly connect: () => Promise<StorePorts>;
}

export const useMongoStores = (prefix: string): MongoStores => {
  const realUrl = process.env['MONGODB_URL'];
  let server: WireServer | undefined;
  let databases = 0;
  before(async () => {
    if (realUrl === undefined || realUrl === '') server = await startWireServer();
  });
  after(async () => {
    await server?.stop();
  });
  return {
    label: realUrl === undefined || realUrl === '' ? 'wire-protocol test server' : 'real MongoDB',
    connect: () => {
      const url = realUrl === undefined || realUrl === '' ? server?.url : realUrl;
      if (url === undefined) throw new Error('useMongoStores: the wire-protocol test server has not started');
      return connectMongoStore(url, { dbName: `debtkit_${prefix}_${process.pid}_${++databases}`, serverSelectionTimeoutMS: 2000 });
    },
  };
};
