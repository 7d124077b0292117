/**
 * One webhook attempt over HTTP: a POST of the signed body, answered within
 * the timeout or cut. Redirects are not followed (node's `http.request` never
 * does): a 3xx is an answer like any other non-2xx. The connection resolves
 * its host through the URL guard, so it can only reach an allowed address.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isAllowedAddress, type WebhookUrlGuard } from './webhook-url-guard.js';

export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Cuts the attempt (the server is shutting down): it ends as an error, like a timeout. */
  readonly signal?: AbortSignal;
}

/** The error of an attempt cut by its request's `signal`. */
export const CUT_BY_SHUTDOWN = 'cut: the server is shutting down';

/** An HTTP status, or why there was none (refused address, network error, timeout). */
export type WebhookAttemptResult = { readonly status: number } | { readonly error: string };

export type SendWebhook = (request: WebhookRequest) => Promise<WebhookAttemptResult>;

/** How much of a receiver's answer is read before the connection is dropped: only the status matters. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface HttpWebhookSenderOptions {
  readonly guard: WebhookUrlGuard;
  readonly environment: 'sandbox' | 'production';
  /** The whole attempt, connection to last byte read; docs/decisions/webhooks.md: 10 s. */
  readonly timeoutMs: number;
}

export const createHttpWebhookSender =
  (options: HttpWebhookSenderOptions): SendWebhook =>
  async (request) => {
    // Checked again at every attempt: the rule or the name's addresses may have changed since registration.
    const refusal = await options.guard.refusal(request.url);
    if (refusal !== undefined) return { error: `refused: ${refusal}` };
    const url = new URL(request.url);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // An IP literal is connected to without a lookup: it is judged here instead.
    if (isIP(host) !== 0 && !isAllowedAddress(host, options.environment)) return { error: 'refused: not a public address' };
    const transport = url.protocol === 'https:' ? https : http;
    const { signal } = request;
    if (signal?.aborted === true) return { error: CUT_BY_SHUTDOWN };
    return new Promise<WebhookAttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: WebhookAttemptResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = transport.request(
        url,
        {
          method: 'POST',
          headers: {
            ...request.headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(request.body),
            'user-agent': 'debtkit-webhooks/1',
          },
          lookup: options.guard.guardedLookup,
          agent: false,
          ...(signal === undefined ? {} : { signal }),
        },
        (res) => {
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) res.destroy();
          });
          const status = res.statusCode ?? 0;
          res.on('end', () => finish({ status }));
          res.on('close', () => finish({ status }));
          res.on('error', () => finish({ status }));
        },
      );
      const timer = setTimeout(() => {
        finish({ error: `no answer within ${options.timeoutMs} ms` });
        req.destroy();
      }, options.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) =>
        finish({ error: signal?.aborted === true ? CUT_BY_SHUTDOWN : (err.code ?? err.message) }),
      );
      req.end(request.body);
    });
  };
