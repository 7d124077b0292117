import helmet from 'koa-helmet';
import type { Middleware } from 'koa';
import type { Environment } from '@debtkit/core';
import type { AppState } from '../app-context.js';

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
export const securityHeaders = (options: SecurityHeadersOptions): Middleware<AppState> => {
  const headers = helmet({
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
  return async function securityHeaders(ctx, next) {
    await headers(ctx, next);
  };
};
