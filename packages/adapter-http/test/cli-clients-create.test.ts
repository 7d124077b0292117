/**
 * `debtkit clients create` as a real process on the mongo store (the wire-
 * protocol test server): it composes through the server's path
 * (`composeContainer`), prints the client and its first token, and that token
 * is one the API accepts. It runs no HTTP app, so production without a credit
 * bureau bound does not stop it. Bad arguments: exit 1, one line, nothing created.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import request from 'supertest';
import { connectMongoStore } from '@debtkit/adapter-mongo';
import { compose } from '../src/main/composition.js';
import { runCli, useCliOnWireServer } from './support/cli-process.js';

describe('debtkit clients create (child process, mongo store on the wire-protocol test server)', function () {
  this.timeout(30_000);
  const wire = useCliOnWireServer();
  let databases = 0;

  const newDatabase = (): string => `${wire().url}debtkit_clients_${process.pid}_${++databases}`;
  const clientNamesIn = async (url: string): Promise<string[]> => {
    const store = await connectMongoStore(url, { serverSelectionTimeoutMS: 2000 });
    try {
      const page = await store.clients.list({ limit: 100 })();
      if (E.isLeft(page)) throw new Error(page.left.message);
      return page.right.items.map((c) => c.name);
    } finally {
      await store.close();
    }
  };

  it('prints the new client and a token that the API on the same database accepts', async () => {
    const url = newDatabase();
    const out = await runCli(['clients', 'create', '--name', 'Acme Lending'], { DEBTKIT_STORE: 'mongo', MONGODB_URL: url });
    expect(out.stderr).to.equal('');
    expect(out.code).to.equal(0);
    const printed = JSON.parse(out.stdout) as { client: Record<string, unknown>; token: string };
    expect(Object.keys(printed)).to.deep.equal(['client', 'token']);
    expect(printed.client).to.include({ name: 'Acme Lending', environment: 'sandbox', api_version: '2026-11-26' });
    expect(printed.client['id']).to.be.a('number');
    expect(printed.token).to.match(/^dk_sandbox_[A-Za-z0-9_-]{43}$/);
    expect(await clientNamesIn(url)).to.deep.equal(['Acme Lending']);

    const api = await compose({ config: { store: 'mongo', mongodbUrl: url } });
    try {
      const users = await request(api.app.callback()).get('/api/users').set('Authorization', `Bearer ${printed.token}`);
      expect(users.status).to.equal(200);
      expect(users.body).to.deep.equal({ users: [], has_more: false });
      const wrong = await request(api.app.callback())
        .get('/api/users')
        .set('Authorization', `Bearer ${printed.token.slice(0, -1)}x`);
      expect(wrong.status).to.equal(401);
    } finally {
      await api.close();
    }
  });

  it('production without a credit bureau bound still creates the client (a live token): it serves nothing', async () => {
    const url = newDatabase();
    const env = { DEBTKIT_ENV: 'production', DEBTKIT_STORE: 'mongo', MONGODB_URL: url };
    const out = await runCli(['clients', 'create', '--name', 'Live Co'], env);
    expect(out.stderr).to.equal('');
    expect(out.code).to.equal(0);
    const printed = JSON.parse(out.stdout) as { client: Record<string, unknown>; token: string };
    expect(printed.client).to.include({ name: 'Live Co', environment: 'production' });
    expect(printed.token).to.match(/^dk_live_/);
    expect(await clientNamesIn(url)).to.deep.equal(['Live Co']);
  });

  it('no --name, an empty name, a name over 100 characters: exit 1 with one line on stderr, nothing created', async () => {
    const url = newDatabase();
    const outcomes = await Promise.all(
      [
        ['clients', 'create'],
        ['clients', 'create', '--name', '  '],
        ['clients', 'create', '--name', 'x'.repeat(101)],
      ].map((args) => runCli(args, { DEBTKIT_STORE: 'mongo', MONGODB_URL: url })),
    );
    for (const out of outcomes) {
      expect(out).to.deep.equal({ code: 1, stdout: '', stderr: 'debtkit: clients create needs --name <1 to 100 characters>\n' });
    }
    expect(await clientNamesIn(url)).to.deep.equal([]);
  });
});
