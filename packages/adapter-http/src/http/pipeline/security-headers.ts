import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import type { Environment } from '@debtkit/core';

export interface SecurityHeadersOptions {
  /** `Strict-Transport-Security` only in production: the sandbox is often plain HTTP on a laptop. */
  readonly environment: Environment;
}

/** One year, the value HSTS preload lists ask for. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * Helmet's headers that mean something for a JSON API read by servers:
 * `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`,
 * `X-Frame-Options: DENY`, HSTS in production, and no `X-Powered-By`. The ones
 * about HTML documents and browser contexts (CSP, COEP/COOP/CORP,
 * Origin-Agent-Cluster, DNS prefetch, download and XSS-filter headers) are left
 * out: a JSON body renders nothing.
 */
export const securityHeaderSet = (options: SecurityHeadersOptions): Readonly<Record<string, string>> => {
  const middleware = helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.environment === 'production' ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
    xContentTypeOptions: true,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: true,
    xXssProtection: false,
  });
  // With these options helmet's headers do not depend on the request (no CSP
  // nonce): run it once against a response that is never sent and keep what it set, so a
  // request costs one `ctx.set` instead of helmet's chain. Its only removal,
  // `X-Powered-By`, is a header Koa never sets.
  const req = new IncomingMessage(new Socket());
  const res = new HeaderRecorder(req);
  let done = false;
  middleware(req, res, () => (done = true));
  if (!done) throw new Error('helmet did not finish synchronously: its headers cannot be computed once');
  const headers: Record<string, string> = {};
  // Under the names as helmet spelled them (Node's own list is lower-cased).
  for (const name of res.names) if (res.hasHeader(name)) headers[name] = String(res.getHeader(name));
  return Object.freeze(headers);
};

/** A response that is never sent, remembering the names headers were set under. */
class HeaderRecorder extends ServerResponse {
  readonly names = new Set<string>();
  override setHeader(name: string, value: number | string | ReadonlyArray<string>): this {
    this.names.add(name);
    return super.setHeader(name, value);
  }
}
