/**
 * verifyWebhook and signWebhook (src/webhooks.ts): against the Standard Webhooks
 * reference package the server signs with, against real deliveries of a started
 * debtkit to a receiver on 127.0.0.1 (in each API version), and every way a
 * webhook must be refused: bad signature, old or future timestamp, missing
 * header, another version than the receiver expects.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import {
  API_VERSIONS,
  WebhookVerificationError,
  createClient,
  signWebhook,
  unwrap,
  verifyWebhook,
  type WebhookEvent,
} from '../src/index.js';
import { NOW, startDebtkit, type TestDebtkit } from './support/debtkit-server.js';

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const EVENT = {
  id: 7,
  type: 'user.deleted',
  created_at: NOW.toISOString(),
  api_version: '2026-11-26',
  data: { user_id: 3, object: { id: 3 } },
};

const refusal = async (pending: Promise<unknown>): Promise<string> =>
  pending.then(
    () => 'verified',
    (e: unknown) => (e instanceof WebhookVerificationError ? e.code : `unexpected ${String(e)}`),
  );

describe('@debtkit/client: webhooks', function () {
  this.timeout(60_000);

  it('verifies what the Standard Webhooks package signs, and signs what it verifies', async () => {
    const body = JSON.stringify(EVENT);
    const reference = new Webhook(SECRET);
    const signature = reference.sign('msg_1', NOW, body);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(NOW.getTime() / 1000), 'webhook-signature': signature };
    const event = await verifyWebhook(SECRET, headers, body, { now: NOW });
    expect(event).to.deep.equal(EVENT);

    const signed = await signWebhook(SECRET, EVENT, { id: 'msg_2', timestamp: NOW });
    // The reference checks the timestamp against the real clock: sign one made now for it.
    const fresh = await signWebhook(SECRET, EVENT, { id: 'msg_3' });
    expect(reference.verify(fresh.body, fresh.headers)).to.deep.equal(EVENT);
    expect(signed.headers['webhook-signature']).to.equal(reference.sign('msg_2', NOW, signed.body));
  });

  it('takes the body as text, bytes or an ArrayBuffer, and headers as a Headers or a Node record', async () => {
    const { headers, body } = await signWebhook(SECRET, EVENT, { timestamp: NOW });
    const bytes = new TextEncoder().encode(body);
    const asHeaders = new Headers(headers);
    for (const raw of [body, bytes, bytes.buffer]) expect(await verifyWebhook(SECRET, asHeaders, raw, { now: NOW })).to.deep.equal(EVENT);
    const node: IncomingHttpHeaders = { ...headers };
    expect((await verifyWebhook(SECRET, node, body, { now: NOW })).id).to.equal(7);
  });

  it('accepts a header with several signatures when one matches (a rolled secret)', async () => {
    const { headers, body } = await signWebhook(SECRET, EVENT, { timestamp: NOW });
    const other = await signWebhook(`whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`, EVENT, {
      id: headers['webhook-id'],
      timestamp: NOW,
    });
    const both = { ...headers, 'webhook-signature': `${other.headers['webhook-signature']} ${headers['webhook-signature']}` };
    expect((await verifyWebhook(SECRET, both, body, { now: NOW })).type).to.equal('user.deleted');
  });

  it('refuses a changed body, another secret, an old or future timestamp, a missing header, another version', async () => {
    const { headers, body } = await signWebhook(SECRET, EVENT, { timestamp: NOW });
    expect(await refusal(verifyWebhook(SECRET, headers, body.replace('"user_id":3', '"user_id":4'), { now: NOW }))).to.equal(
      'invalid_signature',
    );
    expect(await refusal(verifyWebhook(`whsec_${Buffer.from('x'.repeat(32)).toString('base64')}`, headers, body, { now: NOW }))).to.equal(
      'invalid_signature',
    );
    expect(await refusal(verifyWebhook(SECRET, { ...headers, 'webhook-signature': 'v1,not base64!' }, body, { now: NOW }))).to.equal(
      'invalid_signature',
    );
    expect(await refusal(verifyWebhook(SECRET, { ...headers, 'webhook-signature': 'v2,abc' }, body, { now: NOW }))).to.equal(
      'invalid_signature',
    );
    const later = new Date(NOW.getTime() + 301_000);
    expect(await refusal(verifyWebhook(SECRET, headers, body, { now: later }))).to.equal('timestamp_too_old');
    expect(await refusal(verifyWebhook(SECRET, headers, body, { now: new Date(NOW.getTime() + 300_000) }))).to.equal('verified');
    expect(await refusal(verifyWebhook(SECRET, headers, body, { now: new Date(NOW.getTime() - 301_000) }))).to.equal('timestamp_in_future');
    expect(await refusal(verifyWebhook(SECRET, headers, body, { now: later, toleranceSeconds: 600 }))).to.equal('verified');
    expect(await refusal(verifyWebhook(SECRET, { ...headers, 'webhook-timestamp': 'yesterday' }, body, { now: NOW }))).to.equal(
      'invalid_timestamp',
    );
    const { ['webhook-id']: _, ...withoutId } = headers;
    expect(await refusal(verifyWebhook(SECRET, withoutId, body, { now: NOW }))).to.equal('missing_header');
    expect(await refusal(verifyWebhook(SECRET, headers, body, { now: NOW, apiVersion: '2024-07-01' }))).to.equal('unexpected_api_version');
    const notJson = await signWebhook(SECRET, 'not json', { timestamp: NOW });
    expect(await refusal(verifyWebhook(SECRET, notJson.headers, notJson.body, { now: NOW }))).to.equal('invalid_body');
    expect(await refusal(verifyWebhook('whsec_%%%', headers, body, { now: NOW }))).to.equal('invalid_secret');
  });

  it("types the event by version: narrowing on type gives that event's object", () => {
    const read = (event: WebhookEvent<'2026-11-26'>): string => {
      if (event.type === 'plan_payment.created') return `payment ${event.data.object.amount}`;
      if (event.type === 'user.deleted') return `user ${event.data.object.id}`;
      return event.type;
    };
    expect(read(EVENT as WebhookEvent<'2026-11-26'>)).to.equal('user 3');
  });

  describe("a started debtkit's deliveries", () => {
    let debtkit: TestDebtkit;
    let receiver: Server;
    let receiverUrl = '';
    const arrivals: Array<(delivery: { headers: IncomingHttpHeaders; body: Buffer }) => void> = [];

    before(async () => {
      debtkit = await startDebtkit();
      receiver = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (c: Buffer) => chunks.push(c));
        request.on('end', () => {
          response.writeHead(204).end();
          arrivals.shift()?.({ headers: request.headers, body: Buffer.concat(chunks) });
        });
      });
      receiver.listen(0, '127.0.0.1');
      await once(receiver, 'listening');
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    });

    after(async () => {
      receiver?.close();
      await debtkit?.running.shutdown();
    });

    for (const version of API_VERSIONS) {
      it(`verifies a real test event of an endpoint in ${version}, typed in that version, and refuses it as the other version`, async () => {
        const client = createClient({ baseUrl: debtkit.url, token: debtkit.token, apiVersion: version });
        const endpoint = await unwrap(client.POST('/api/webhook_endpoints', { body: { url: receiverUrl, api_version: version } }));
        const arrived = new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve) => arrivals.push(resolve));
        await client.sandbox.sendTestEvent(endpoint.id, 'account.created');
        const delivery = await arrived;

        const event = await verifyWebhook(endpoint.secret, delivery.headers, delivery.body, { apiVersion: version, now: NOW });
        expect(event.type).to.equal('account.created');
        expect(event.api_version).to.equal(version);
        const other = API_VERSIONS.find((v) => v !== version)!;
        expect(await refusal(verifyWebhook(endpoint.secret, delivery.headers, delivery.body, { apiVersion: other, now: NOW }))).to.equal(
          'unexpected_api_version',
        );
        expect(await refusal(verifyWebhook(SECRET, delivery.headers, delivery.body, { apiVersion: version, now: NOW }))).to.equal(
          'invalid_signature',
        );
        await unwrap(client.DELETE('/api/webhook_endpoints/{endpoint_id}', { params: { path: { endpoint_id: endpoint.id } } }));
      });
    }
  });
});
