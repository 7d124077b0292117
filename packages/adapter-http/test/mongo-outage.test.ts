/**
 * The API on the mongo store when the database goes away and comes back:
 * 503 `service_unavailable` with `Retry-After` within the selection timeout,
 * `/readyz` 503, and success again after the restart without restarting the API.
 */
import { expect } from 'chai';
import { connectMongoStore } from '@debtkit/adapter-mongo';
import { startWireServer, type WireServer } from '@debtkit/mongo-wire-test-server';
import type { StorePorts } from '@debtkit/core';
import { ResourceHarness, resourceHarness } from './support/resource-app.js';

describe('HTTP API on the mongo store during an outage (wire-protocol test server)', () => {
  let server: WireServer;
  let store: StorePorts;
  let h: ResourceHarness;

  before(async () => {
    server = await startWireServer();
    store = await connectMongoStore(server.url, { dbName: 'debtkit_outage', serverSelectionTimeoutMS: 500, maxTimeMS: 1000 });
    h = await resourceHarness(store);
  });
  after(async () => {
    await store.close();
    await server.stop();
  });

  it('answers 503 while the store is down and recovers when it is back', async () => {
    await h.request.get('/api/users/1/credit_scores').set(h.auth).expect(200);

    await server.stop();
    const started = Date.now();
    const down = await h.request.get('/api/users/1/accounts/1').set(h.auth).expect(503);
    expect(Date.now() - started).to.be.below(3000);
    expect(down.body.error.code).to.equal('service_unavailable');
    expect(down.headers['retry-after']).to.be.a('string');
    expect(JSON.stringify(down.body)).not.to.match(/mongo|topology|ECONNREFUSED/i);
    await h.request.get('/readyz').expect(503);

    await server.restart();
    // The driver notices the server on its next heartbeat; each attempt waits at most its own timeout.
    let status = 0;
    for (let attempt = 0; attempt < 10 && status !== 200; attempt++) {
      status = (await h.request.get('/api/users/1/credit_scores').set(h.auth)).status;
    }
    expect(status).to.equal(200);
    // `/readyz` reuses the store's last answer for up to a second (docs/decisions/proxies.md): probed until it asks again, bounded.
    let ready = 0;
    for (let attempt = 0; attempt < 30 && ready !== 200; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      ready = (await h.request.get('/readyz')).status;
    }
    expect(ready).to.equal(200);
  });
});
