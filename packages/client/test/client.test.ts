/**
 * @debtkit/client against a started debtkit (sandbox, memory store), in every
 * released API version: typed calls, automatic Idempotency-Keys, paging by id
 * and by month, typed errors, the sandbox helpers, and a POST whose answer is
 * lost on the wire (one effect, not two). One server for the file.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { API_VERSIONS, DebtkitApiError, createClient, isApiError, unwrap, type ApiVersion, type DebtkitClient } from '../src/index.js';
import { startDebtkit, TODAY, type TestDebtkit } from './support/debtkit-server.js';

/** A loan's APR and minimum payment, in each version's own field names (2026-11-26 renamed them). */
const terms = (version: ApiVersion, apr: number, minimum: number) =>
  version === '2024-07-01' ? { apr, minimum_payment: minimum } : { institution_apr: apr, institution_minimum_payment: minimum };

/** Every request the client sent, as it left it (after the client added its headers). */
const recordingFetch =
  (sent: Request[]) =>
  async (request: Request): Promise<Response> => {
    sent.push(request.clone());
    return fetch(request);
  };

describe('@debtkit/client against a started debtkit', function () {
  this.timeout(60_000);
  let debtkit: TestDebtkit;

  before(async () => {
    debtkit = await startDebtkit();
  });

  after(async () => {
    await debtkit?.running.shutdown();
  });

  for (const version of API_VERSIONS) {
    describe(`API version ${version}`, () => {
      let client: DebtkitClient<typeof version>;
      const sent: Request[] = [];

      before(() => {
        client = createClient({
          baseUrl: debtkit.url,
          token: debtkit.token,
          apiVersion: version,
          environment: { fetch: recordingFetch(sent) },
        });
      });

      it('sends API-Version and the token, and is answered in that version', async () => {
        const { data, error, response } = await client.GET('/api/users/{id}', { params: { path: { id: debtkit.demoUserId } } });
        expect(error).to.equal(undefined);
        expect(data?.id).to.equal(debtkit.demoUserId);
        expect(response.headers.get('api-version')).to.equal(version);
        const last = sent[sent.length - 1]!;
        expect(last.headers.get('api-version')).to.equal(version);
        expect(last.headers.get('authorization')).to.equal(`Bearer ${debtkit.token}`);
        expect(last.headers.get('idempotency-key'), 'a GET carries no key').to.equal(null);
      });

      it('gives every POST a new Idempotency-Key unless one is given, and keeps a given one', async () => {
        const before = sent.length;
        const first = await client.POST('/api/users', { body: { first_name: 'Key', last_name: `Auto ${version}` } });
        const second = await client.POST('/api/users', { body: { first_name: 'Key', last_name: `Auto ${version}` } });
        expect(first.response.status).to.equal(201);
        expect(second.response.status, 'two keys, two users').to.equal(201);
        expect(second.data?.id).to.not.equal(first.data?.id);
        const keys = sent.slice(before).map((r) => r.headers.get('idempotency-key'));
        expect(keys).to.have.length(2);
        expect(keys[0]).to.match(/^[0-9a-f-]{36}$/);
        expect(keys[1]).to.match(/^[0-9a-f-]{36}$/);
        expect(keys[0]).to.not.equal(keys[1]);

        const key = `given-${version}`;
        const once = await client.POST('/api/users', { body: { last_name: `Given ${version}` }, headers: { 'Idempotency-Key': key } });
        const again = await client.POST('/api/users', { body: { last_name: `Given ${version}` }, headers: { 'Idempotency-Key': key } });
        expect(sent[sent.length - 1]!.headers.get('idempotency-key')).to.equal(key);
        expect(again.data?.id, 'the same key is the same user').to.equal(once.data?.id);
        expect(again.response.headers.get('idempotent-replayed')).to.equal('true');
      });

      it('pages a list by id with for await, across pages', async () => {
        const created: number[] = [];
        for (let i = 0; i < 5; i++) {
          const user = await unwrap(client.POST('/api/users', { body: { last_name: `Paged ${version} ${i}` } }));
          created.push(user.id);
        }
        const pagesBefore = sent.length;
        const seen: number[] = [];
        for await (const user of client.paginate('/api/users', { params: { query: { limit: 2 } } })) seen.push(user.id);
        expect(seen).to.include.members(created);
        expect(seen).to.deep.equal([...seen].sort((a, b) => a - b));
        expect(new Set(seen).size).to.equal(seen.length);
        const pages = sent.slice(pagesBefore);
        expect(pages.length).to.equal(Math.ceil(seen.length / 2));
        // Each page after the first starts after the last id of the one before.
        expect(new URL(pages[1]!.url).searchParams.get('starting_after')).to.equal(String(seen[1]));
      });

      it("pages a plan's schedule by month, and the months add up to the plan", async () => {
        const plan = await unwrap(
          client.POST('/api/users/{id}/payment_plans', {
            params: { path: { id: debtkit.demoUserId } },
            body: { strategy: 'avalanche', monthly_payment: 500_000 },
          }),
        );
        const months: number[] = [];
        const balances: number[] = [];
        for await (const month of client.paginate('/api/users/{id}/payment_plans/{payment_plan_id}/schedule', {
          params: { path: { id: debtkit.demoUserId, payment_plan_id: plan.id }, query: { limit: 7 } },
        })) {
          months.push(month.month);
          balances.push(month.payments.reduce((sum, p) => sum + p.balance, 0));
        }
        expect(months).to.deep.equal(Array.from({ length: plan.months ?? 0 }, (_, i) => i + 1));
        expect(balances[balances.length - 1]).to.equal(0);
        // 2024-07-01 still embeds the schedule in the plan: the pages are the same months.
        if ('schedule' in plan) expect((plan as { schedule: Array<{ month: number }> }).schedule.map((m) => m.month)).to.deep.equal(months);
      });

      it('answers an API error as data: typed by code, with the status and the request id', async () => {
        const { data, error, response } = await client.GET('/api/users/{id}', { params: { path: { id: 987_654 } } });
        expect(data).to.equal(undefined);
        expect(response.status).to.equal(404);
        expect(error?.error.code).to.equal('not_found');
        expect(error?.error.request_id).to.equal(response.headers.get('x-request-id'));

        const invalid = await client.POST('/api/users/{id}/payment_plans', {
          params: { path: { id: debtkit.demoUserId } },
          body: { strategy: 'avalanche', monthly_payment: -1 },
        });
        expect(invalid.response.status).to.equal(400);
        expect(invalid.error?.error.code).to.equal('validation_error');
        expect(JSON.stringify(invalid.error?.error.details)).to.include('monthly_payment');
      });

      it('throws an API error from unwrap and paginate as DebtkitApiError with code, status and requestId', async () => {
        const thrown = await unwrap(client.GET('/api/users/{id}/accounts', { params: { path: { id: 987_654 } } })).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(thrown).to.be.instanceOf(DebtkitApiError);
        expect(isApiError(thrown, 'not_found')).to.equal(true);
        const apiError = thrown as DebtkitApiError;
        expect(apiError.status).to.equal(404);
        expect(apiError.requestId).to.match(/^[0-9a-f-]{36}$/);

        const paging = async () => {
          for await (const _ of client.paginate('/api/users/{id}/accounts', { params: { path: { id: 987_654 } } })) expect.fail('no page');
        };
        const fromPaging = await paging().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isApiError(fromPaging, 'not_found')).to.equal(true);
      });

      it('advances the sandbox clock, sends a test event and replays a window through the helpers', async () => {
        const user = await unwrap(client.POST('/api/users', { body: { last_name: `Clock ${version}` } }));
        await unwrap(
          client.POST('/api/users/{id}/accounts', {
            params: { path: { id: user.id } },
            body: {
              name: 'Card',
              type: 'loan',
              subtype: 'credit_card_loan',
              balance: 100_000,
              limit: 500_000,
              ...terms(version, 24, 5_000),
            },
          }),
        );
        const advanced = await client.sandbox.advance(user.id, { months: 2, payments: 'minimum' });
        expect(advanced.months).to.have.length(2);
        expect(advanced.sandbox_date > TODAY).to.equal(true);

        const endpoint = await unwrap(client.POST('/api/webhook_endpoints', { body: { url: 'http://127.0.0.1:9/hook' } }));
        const test = await client.sandbox.sendTestEvent(endpoint.id, 'account.created');
        expect(test.deliveries).to.equal(1);
        const replay = await client.sandbox.replay(endpoint.id, {
          since: new Date(`${TODAY}T00:00:00Z`),
          until: new Date(`${TODAY}T23:59:59Z`),
        });
        expect(replay.events).to.be.greaterThan(0);
        expect(replay.deliveries).to.equal(replay.events);
        const events = client.paginate('/api/events', { params: { query: { type: 'account.created', user_id: user.id } } });
        const first = (await events[Symbol.asyncIterator]().next()).value as { id: number };
        const redelivered = await client.sandbox.redeliver(first.id, { endpointId: endpoint.id });
        expect(redelivered).to.deep.equal({ event_id: first.id, deliveries: 1 });
        await unwrap(client.DELETE('/api/webhook_endpoints/{endpoint_id}', { params: { path: { endpoint_id: endpoint.id } } }));
      });
    });
  }

  describe('a POST whose answer is lost on the wire', () => {
    /** A TCP relay in front of debtkit that can cut the connection once the server has answered, before the client gets a byte. */
    let relay: Server;
    let relayUrl = '';
    let cutNextAnswer = false;
    const keysSeen: string[] = [];
    const sockets = new Set<Socket>();

    before(async () => {
      const target = new URL(debtkit.url);
      relay = createServer((client) => {
        sockets.add(client);
        const server = connect(Number(target.port), target.hostname);
        client.on('data', (chunk: Buffer) => {
          const key = /\r\nidempotency-key: ([^\r]+)\r\n/i.exec(chunk.toString('latin1'))?.[1];
          if (key !== undefined) keysSeen.push(key);
          server.write(chunk);
        });
        server.on('data', (chunk: Buffer) => {
          if (cutNextAnswer) {
            cutNextAnswer = false;
            // The server has committed and answered; the client never hears it.
            client.destroy();
            server.destroy();
            return;
          }
          client.write(chunk);
        });
        server.on('close', () => client.destroy());
        client.on('close', () => {
          sockets.delete(client);
          server.destroy();
        });
        server.on('error', () => client.destroy());
        client.on('error', () => server.destroy());
      });
      relay.listen(0, '127.0.0.1');
      await once(relay, 'listening');
      relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
    });

    after(async () => {
      for (const s of sockets) s.destroy();
      relay.close();
    });

    for (const version of API_VERSIONS) {
      it(`retries with the same key and records one payment, not two (${version})`, async () => {
        const waits: number[] = [];
        const client = createClient({
          baseUrl: relayUrl,
          token: debtkit.token,
          apiVersion: version as ApiVersion,
          environment: { sleep: async (ms) => void waits.push(ms) },
        });
        const direct = createClient({ baseUrl: debtkit.url, token: debtkit.token, apiVersion: version as ApiVersion });
        const user = await unwrap(direct.POST('/api/users', { body: { last_name: `Lost ${version}` } }));
        const account = await unwrap(
          direct.POST('/api/users/{id}/accounts', {
            params: { path: { id: user.id } },
            body: { name: 'Loan', type: 'loan', subtype: 'personal_loan', balance: 300_000, ...terms(version, 9.5, 10_000) },
          }),
        );
        const plan = await unwrap(
          direct.POST('/api/users/{id}/payment_plans', {
            params: { path: { id: user.id } },
            body: { strategy: 'avalanche', monthly_payment: 20_000 },
          }),
        );

        keysSeen.length = 0;
        cutNextAnswer = true;
        const paid = await client.POST('/api/users/{id}/payment_plans/{payment_plan_id}/payments', {
          params: { path: { id: user.id, payment_plan_id: plan.id } },
          body: { account_id: account.id, amount: 25_000, date: TODAY },
        });
        expect(paid.response.status).to.equal(201);
        expect(paid.response.headers.get('idempotent-replayed'), 'the retry got the kept answer').to.equal('true');
        expect(keysSeen).to.have.length(2);
        expect(keysSeen[1]).to.equal(keysSeen[0]);
        expect(waits).to.have.length(1);

        const payments = [];
        for await (const p of direct.paginate('/api/users/{id}/payment_plans/{payment_plan_id}/payments', {
          params: { path: { id: user.id, payment_plan_id: plan.id } },
        }))
          payments.push(p);
        expect(payments).to.have.length(1);
        const after = await unwrap(
          direct.GET('/api/users/{id}/accounts/{account_id}', { params: { path: { id: user.id, account_id: account.id } } }),
        );
        expect(after.balance, 'paid once').to.equal(300_000 - 25_000);
      });
    }

    it('does not retry a PATCH whose answer is lost: the caller gets a DebtkitConnectionError after one attempt', async () => {
      const client = createClient({
        baseUrl: relayUrl,
        token: debtkit.token,
        apiVersion: API_VERSIONS[0],
        environment: { sleep: async () => undefined },
      });
      const user = await unwrap(client.POST('/api/users', { body: { last_name: 'Patch' } }));
      keysSeen.length = 0;
      cutNextAnswer = true;
      const failed = await client.PATCH('/api/users/{id}', { params: { path: { id: user.id } }, body: { first_name: 'Once' } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((failed as Error).name).to.equal('DebtkitConnectionError');
      expect((failed as { attempts: number }).attempts).to.equal(1);
    });
  });
});
