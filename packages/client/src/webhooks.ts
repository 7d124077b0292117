/**
 * Webhook signatures (Standard Webhooks, as the server signs them:
 * docs/decisions/webhooks.md), with WebCrypto only, so a receiver on Node,
 * Deno, Bun, an edge runtime or a browser verifies the same way.
 *
 * A signature is `v1,` + base64(HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${body}`)),
 * the key being the base64 after `whsec_` in the endpoint's secret. The header may
 * carry several, space-separated (a rolled secret): one match is enough.
 */
import { WebhookVerificationError } from './errors.js';
import type { ApiVersion, VersionTypes } from './generated/versions.js';
import { LATEST_API_VERSION } from './generated/versions.js';

type Webhooks<V extends ApiVersion> = VersionTypes[V]['webhooks'];
/** The events version `V` delivers: a union tagged by `type` (`bureau_auth.completed`, `plan_payment.created`…). */
export type WebhookEvent<V extends ApiVersion = typeof LATEST_API_VERSION> = {
  [K in keyof Webhooks<V>]: Webhooks<V>[K] extends { post: { requestBody: { content: { 'application/json': infer E } } } } ? E : never;
}[keyof Webhooks<V>];

/** How a receiver's framework hands over headers: a `Headers`, or Node's `IncomingHttpHeaders`-like record. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>;

export interface VerifyOptions<V extends ApiVersion> {
  /** The version the endpoint was created with (its `api_version`): the event must be in it. Default: the latest. */
  readonly apiVersion?: V;
  /** How far the timestamp may be from now, in seconds (default 300, as Standard Webhooks). */
  readonly toleranceSeconds?: number;
  /** Now, for tests (default: the system clock). */
  readonly now?: Date;
}

const encoder = new TextEncoder();
const PREFIX = 'whsec_';

const header = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | ReadonlyArray<string> | undefined>>;
  const value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  return typeof value === 'string' ? value : value?.[0];
};

const base64ToBytes = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const bytesToBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));

/** WebCrypto's key type, named without the DOM's lib (the client compiles for every runtime). */
type HmacKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

const keyOf = async (secret: string): Promise<HmacKey> => {
  let raw: Uint8Array;
  try {
    raw = base64ToBytes(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret);
  } catch {
    throw new WebhookVerificationError('invalid_secret', 'the secret is not whsec_ followed by base64');
  }
  return globalThis.crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
};

const bodyText = (rawBody: string | Uint8Array | ArrayBuffer): string =>
  typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { fatal: false }).decode(rawBody);

const sign = async (key: HmacKey, id: string, timestamp: string, body: string): Promise<string> =>
  bytesToBase64(new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`))));

/**
 * The event a webhook carries, once its signature and timestamp are checked:
 * `const event = await verifyWebhook(secret, request.headers, rawBody, { apiVersion: '2026-11-26' })`.
 * Pass the body exactly as received (the bytes, or their text), not a re-serialised JSON.
 * Throws `WebhookVerificationError` (`code` says why); de-duplicate deliveries by `webhook-id`.
 */
export const verifyWebhook = async <V extends ApiVersion = typeof LATEST_API_VERSION>(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array | ArrayBuffer,
  options: VerifyOptions<V> = {},
): Promise<WebhookEvent<V>> => {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  for (const [name, value] of [
    ['webhook-id', id],
    ['webhook-timestamp', timestamp],
    ['webhook-signature', signatures],
  ] as const) {
    if (value === undefined || value === '') throw new WebhookVerificationError('missing_header', `the ${name} header is missing`);
  }
  if (!/^\d{1,15}$/.test(timestamp!)) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not unix seconds');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  const age = now - Number(timestamp);
  if (age > tolerance)
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `webhook-timestamp is ${age} s old (more than ${tolerance} s): a replayed or delayed message`,
    );
  if (-age > tolerance)
    throw new WebhookVerificationError('timestamp_in_future', `webhook-timestamp is ${-age} s in the future (more than ${tolerance} s)`);

  const key = await keyOf(secret);
  const body = bodyText(rawBody);
  const signed = encoder.encode(`${id!}.${timestamp!}.${body}`);
  let verified = false;
  for (const candidate of signatures!.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || value === undefined) continue;
    let bytes: Uint8Array;
    try {
      bytes = base64ToBytes(value);
    } catch {
      continue;
    }
    // subtle.verify compares in constant time.
    if (await globalThis.crypto.subtle.verify('HMAC', key, bytes, signed)) {
      verified = true;
      break;
    }
  }
  if (!verified) throw new WebhookVerificationError('invalid_signature', 'no webhook-signature matches the body under this secret');

  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    throw new WebhookVerificationError('invalid_body', 'the signed body is not JSON');
  }
  const expected = options.apiVersion ?? LATEST_API_VERSION;
  const got = (event as { api_version?: unknown } | null)?.api_version;
  if (got !== expected) {
    throw new WebhookVerificationError(
      'unexpected_api_version',
      `the event is in API version ${String(got)}, not ${expected}: the endpoint's api_version and the receiver's disagree`,
    );
  }
  return event as WebhookEvent<V>;
};

export interface SignedWebhook {
  readonly headers: {
    readonly 'webhook-id': string;
    readonly 'webhook-timestamp': string;
    readonly 'webhook-signature': string;
    readonly 'content-type': 'application/json';
  };
  readonly body: string;
}

/**
 * Signs a webhook as debtkit does, for a receiver's own tests:
 * `const { headers, body } = await signWebhook(secret, event)`, then POST them to the receiver.
 */
export const signWebhook = async (
  secret: string,
  event: unknown,
  options: { readonly id?: string; readonly timestamp?: Date } = {},
): Promise<SignedWebhook> => {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  const id = options.id ?? `msg_${globalThis.crypto.randomUUID()}`;
  const timestamp = String(Math.floor((options.timestamp ?? new Date()).getTime() / 1000));
  const signature = await sign(await keyOf(secret), id, timestamp, body);
  return {
    headers: {
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${signature}`,
      'content-type': 'application/json',
    },
    body,
  };
};
