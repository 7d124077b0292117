/**
 * The client's `fetch`: every request of `createClient` goes through it
 * (packages/client/README.md, "Safe by default"; docs/decisions/client.md).
 *
 * - Every POST carries an `Idempotency-Key` (the caller's, or a new random one),
 *   and every attempt of that request sends the same key: the server answers a
 *   repeated key with the kept answer and no second effect (docs/decisions/idempotency.md).
 * - GET, HEAD and POST (keyed, so safe to repeat) are retried, `maxRetries` times
 *   at most, on a connection error or timeout and on the answers that say "not
 *   done, try again": 429, 503 and 409 `idempotency_key_in_use`. The wait honours
 *   `Retry-After` (seconds or a date); without it, exponential backoff with jitter,
 *   so that many clients refused at once do not come back at once.
 * - PATCH and DELETE are never retried: whether a lost answer's change happened is
 *   unknown, and they carry no key.
 * - Each attempt has `timeoutMs` to answer; the caller's own `signal` aborts it all.
 */
import { DebtkitConnectionError, DebtkitTimeoutError } from './errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt (default 2). 0 turns retrying off. */
  readonly maxRetries: number;
  /** How long one attempt may wait for its answer's headers (default 30 s). */
  readonly timeoutMs: number;
  /** The first backoff (default 500 ms), doubled each retry up to `maxDelayMs` (default 8 s), then jittered. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A `Retry-After` longer than this (default 60 s) is not waited for: the answer is returned. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  timeoutMs: 30_000,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** What the retrying fetch needs from its surroundings (injected by tests: a fetch that fails, a sleep that records). */
export interface RetryEnvironment {
  readonly fetch: (request: Request) => Promise<Response>;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random: () => number;
  readonly newIdempotencyKey: () => string;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

export const defaultRetryEnvironment = (): RetryEnvironment => ({
  fetch: (request) => globalThis.fetch(request),
  sleep,
  random: Math.random,
  newIdempotencyKey: () => globalThis.crypto.randomUUID(),
});

const RETRYABLE_METHODS = new Set(['GET', 'HEAD', 'POST']);

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
export const retryAfterMs = (value: string | null, now: number = Date.now()): number | undefined => {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

/** Exponential backoff with jitter: between half and all of `base · 2^(retry−1)`, capped. */
export const backoffMs = (retry: number, policy: RetryPolicy, random: () => number): number =>
  Math.round(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1)) * (0.5 + random() / 2));

/** An answer that says the request was not carried out and may be sent again. */
const worthRetrying = async (response: Response): Promise<boolean> => {
  if (response.status === 429 || response.status === 503) return true;
  if (response.status !== 409) return false;
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return body.error?.code === 'idempotency_key_in_use';
  } catch {
    return false;
  }
};

export const retryingFetch =
  (policy: RetryPolicy, env: RetryEnvironment) =>
  async (request: Request): Promise<Response> => {
    const method = request.method.toUpperCase();
    const headers = new Headers(request.headers);
    if (method === 'POST' && !headers.has('idempotency-key')) headers.set('Idempotency-Key', env.newIdempotencyKey());
    const attempts = RETRYABLE_METHODS.has(method) ? policy.maxRetries + 1 : 1;
    // Read once: every attempt sends the same bytes.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    for (let attempt = 1; ; attempt++) {
      const timeout = AbortSignal.timeout(policy.timeoutMs);
      const signal = AbortSignal.any([request.signal, timeout]);
      let response: Response;
      try {
        response = await env.fetch(new Request(request.url, { method, headers, body, signal, redirect: request.redirect }));
      } catch (cause) {
        if (request.signal.aborted) throw cause; // the caller's own abort is not ours to retry
        if (attempt >= attempts) {
          throw timeout.aborted
            ? new DebtkitTimeoutError(method, request.url, attempt, policy.timeoutMs)
            : new DebtkitConnectionError(method, request.url, attempt, cause);
        }
        await env.sleep(backoffMs(attempt, policy, env.random), request.signal);
        continue;
      }
      if (attempt >= attempts || !(await worthRetrying(response))) return response;
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(attempt, policy, env.random);
      if (wait > policy.maxRetryAfterMs) return response;
      await response.body?.cancel();
      await env.sleep(wait, request.signal);
    }
  };
