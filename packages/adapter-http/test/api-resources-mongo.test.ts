/**
 * The same resource suite on the mongo store, through the real `mongodb` driver:
 * against `MONGODB_URL` when it is set, otherwise against the wire-protocol test server.
 * Each test gets its own database.
 */
import { connectMongoStore } from '@debtkit/adapter-mongo';
import { startWireServer, type WireServer } from '@debtkit/adapter-mongo/test-support';
import { apiResourceSuite } from './support/api-resource-suite.js';

const realUrl = process.env['MONGODB_URL'];

describe('HTTP API on the mongo store', () => {
  let server: WireServer | undefined;
  let databases = 0;

  before(async () => {
    if (realUrl === undefined) server = await startWireServer();
  });
  after(async () => {
    await server?.stop();
  });

  apiResourceSuite(realUrl === undefined ? 'wire-protocol test server' : 'real MongoDB', async () =>
    connectMongoStore(realUrl ?? server!.url, { dbName: `debtkit_http_${process.pid}_${++databases}`, serverSelectionTimeoutMS: 2000 }),
  );
});
