/**
 * The client's retry rules (src/retrying-fetch.ts), with an injected fetch that
 * answers what each case needs and a sleep that records instead of waiting:
 * which methods and answers are retried, how many times, how long it waits,
 * that a POST's retries reuse its key, and that the attempts are bounded in time.
 */
import { expect } from 'chai';
import { DebtkitConnectionError, DebtkitTimeoutError, createClient } from '../src/index.js';
import { backoffMs, DEFAULT_RETRY_POLICY, retryAfterMs } from '../src/retrying-fetch.js';

const BASE = 'http://127.0.0.1:1';

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const apiError = (status: number, code: string, headers: Record<string, string> = {}): Response =>
  json(status, { error: { code, message: code, request_id: `req-${code}` } }, headers);

/** A client whose fetch answers from `script` in turn (a function throws, as fetch does on a connection error). */
const scripted = (script: ReadonlyArray<Response | (() => never)>, options: { maxRetries?: number; random?: number } = {}) => {
  const requests: Request[] = [];
  const waits: number[] = [];
  let next = 0;
  const client = createClient({
    baseUrl: BASE,
    token: 'dk_sandbox_test',
    apiVersion: '2026-11-26',
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    environment: {
      fetch: async (request) => {
        requests.push(request);
        const step = script[next++];
        if (step === undefined) throw new Error('the script ran out: more attempts than expected');
        return typeof step === 'function' ? step() : step;
      },
      sleep: async (ms) => void waits.push(ms),
      random: () => options.random ?? 0.5,
      newIdempotencyKey: () => `key-${requests.length + 1}`,
    },
  });
  return { client, requests, waits };
};

const refused = (): never => {
  throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
};

const user = {
  id: 1,
  first_name: 'Ada',
  last_name: 'Okafor',
  email: null,
  date_of_birth: null,
  phone: null,
  created_at: '2026-03-15T12:00:00.000Z',
};

describe('@debtkit/client: retries, keys and timeouts', () => {
  it('retries a GET on 429 after Retry-After, then answers the success', async () => {
    const { client, requests, waits } = scripted([apiError(429, 'rate_limited', { 'retry-after': '2' }), json(200, user)]);
    const { data } = await client.GET('/api/users/{id}', { params: { path: { id: 1 } } });
    expect(data?.id).to.equal(1);
    expect(requests).to.have.length(2);
    expect(waits).to.deep.equal([2000]);
  });

  it('retries at most twice (three attempts) on 503 with backoff and jitter, then answers the last error as data', async () => {
    const { client, requests, waits } = scripted(
      [apiError(503, 'service_unavailable'), apiError(503, 'service_unavailable'), apiError(503, 'service_unavailable')],
      {
        random: 1,
      },
    );
    const { error, response } = await client.GET('/api/users/{id}', { params: { path: { id: 1 } } });
    expect(response.status).to.equal(503);
    expect(error?.error.code).to.equal('service_unavailable');
    expect(requests).to.have.length(3);
    // No Retry-After: 500 ms, then 1000 ms (random() = 1: the whole step).
    expect(waits).to.deep.equal([500, 1000]);
  });

  it('jitters between half and all of each step, and caps the step', () => {
    expect(backoffMs(1, DEFAULT_RETRY_POLICY, () => 0)).to.equal(250);
    expect(backoffMs(1, DEFAULT_RETRY_POLICY, () => 1)).to.equal(500);
    expect(backoffMs(3, DEFAULT_RETRY_POLICY, () => 0.5)).to.equal(1500);
    expect(backoffMs(10, DEFAULT_RETRY_POLICY, () => 1)).to.equal(8000);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('3')).to.equal(3000);
    expect(retryAfterMs('Sun, 15 Mar 2026 12:00:05 GMT', Date.parse('2026-03-15T12:00:00Z'))).to.equal(5000);
    expect(retryAfterMs(null)).to.equal(undefined);
    expect(retryAfterMs('soon')).to.equal(undefined);
  });

  it('gives a POST a key and sends the same key on every attempt (connection error, then 409 idempotency_key_in_use, then the answer)', async () => {
    const { client, requests } = scripted([refused, apiError(409, 'idempotency_key_in_use', { 'retry-after': '1' }), json(201, user)]);
    const { data, response } = await client.POST('/api/users', { body: { last_name: 'Okafor' } });
    expect(response.status).to.equal(201);
    expect(data?.last_name).to.equal('Okafor');
    expect(requests.map((r) => r.headers.get('idempotency-key'))).to.deep.equal(['key-1', 'key-1', 'key-1']);
    // The same body each time (read once, sent three times).
    const bodies = await Promise.all(requests.map((r) => r.text()));
    expect(bodies).to.deep.equal(Array(3).fill('{"last_name":"Okafor"}'));
  });

  it('does not retry a 409 conflict, a 400 or a 500: they are answers', async () => {
    for (const [status, code] of [
      [409, 'conflict'],
      [400, 'validation_error'],
      [500, 'internal_server_error'],
    ] as const) {
      const { client, requests } = scripted([apiError(status, code)]);
      const { error } = await client.POST('/api/users', { body: { last_name: 'X' } });
      expect(error?.error.code).to.equal(code);
      expect(requests, code).to.have.length(1);
    }
  });

  it('never retries a PATCH or a DELETE, whatever the answer or failure', async () => {
    const patch = scripted([apiError(503, 'service_unavailable')]);
    const patched = await patch.client.PATCH('/api/users/{id}', { params: { path: { id: 1 } }, body: { first_name: 'B' } });
    expect(patched.response.status).to.equal(503);
    expect(patch.requests).to.have.length(1);
    expect(patch.requests[0]!.headers.get('idempotency-key'), 'no key on a PATCH').to.equal(null);

    const del = scripted([refused]);
    const failed = await del.client.DELETE('/api/users/{id}', { params: { path: { id: 1 } } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).to.be.instanceOf(DebtkitConnectionError);
    expect((failed as DebtkitConnectionError).attempts).to.equal(1);
    expect(del.requests).to.have.length(1);
  });

  it('throws DebtkitConnectionError for a GET that never connects, after three attempts', async () => {
    const { client, requests, waits } = scripted([refused, refused, refused]);
    const failed = await client.GET('/api/users').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).to.be.instanceOf(DebtkitConnectionError);
    expect((failed as DebtkitConnectionError).attempts).to.equal(3);
    expect((failed as Error).message).to.include('ECONNREFUSED');
    expect(requests).to.have.length(3);
    expect(waits).to.have.length(2);
  });

  it('does not wait a Retry-After longer than the limit: the 429 is the answer', async () => {
    const { client, requests } = scripted([apiError(429, 'rate_limited', { 'retry-after': '3600' })]);
    const { response } = await client.GET('/api/users');
    expect(response.status).to.equal(429);
    expect(requests).to.have.length(1);
  });

  it('maxRetries: 0 turns retrying off', async () => {
    const { client, requests } = scripted([apiError(503, 'service_unavailable')], { maxRetries: 0 });
    expect((await client.GET('/api/users')).response.status).to.equal(503);
    expect(requests).to.have.length(1);
  });

  it('bounds each attempt by timeoutMs and throws DebtkitTimeoutError when none answers', async () => {
    let attempts = 0;
    const client = createClient({
      baseUrl: BASE,
      apiVersion: '2024-07-01',
      timeoutMs: 30,
      maxRetries: 1,
      environment: {
        sleep: async () => undefined,
        // A server that never answers: the attempt ends only when its signal aborts.
        fetch: (request) =>
          new Promise<Response>((_, reject) => {
            attempts++;
            request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
          }),
      },
    });
    const failed = await client.GET('/api/users').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).to.be.instanceOf(DebtkitTimeoutError);
    expect((failed as DebtkitTimeoutError).attempts).to.equal(2);
    expect(attempts).to.equal(2);
  });

  it("lets the caller's own signal abort without a retry", async () => {
    const controller = new AbortController();
    const { client, requests } = scripted([
      () => {
        controller.abort(new Error('the caller gave up'));
        throw controller.signal.reason as Error;
      },
    ]);
    const failed = await client.GET('/api/users', { signal: controller.signal }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((failed as Error).message).to.equal('the caller gave up');
    expect(requests).to.have.length(1);
  });

  it('refuses an API version it has no types for', () => {
    expect(() => createClient({ baseUrl: BASE, apiVersion: '1999-01-01' as '2026-11-26' })).to.throw(
      TypeError,
      /apiVersion must be one of 2026-11-26, 2024-07-01/,
    );
  });
});
