/**
 * `GET /metrics` (docs/operations.md): Prometheus text format on the API's listener,
 * for the operator: the bearer is the admin token (Prometheus sends one with
 * `authorization.credentials`), and without an admin token the route does not
 * exist (404), like `/admin`.
 */
import type { RouteDef } from './app-context.js';
import { ApiError } from './api-error.js';
import type { Metrics } from './metrics.js';
import { bearerToken, secretsEqual } from './pipeline/bearer-token.js';

export const METRICS_PATH = '/metrics';

/** `GET /metrics`'s handler (an entry of the built-in endpoint table). */
export const serveMetrics = (deps: { readonly metrics: Metrics; readonly adminToken?: string }): RouteDef['handler'] =>
  async function serveMetricsText(ctx) {
    const { adminToken } = deps;
    if (adminToken === undefined) throw new ApiError('not_found', 'No such route');
    const token = bearerToken(ctx);
    if (token === undefined || !secretsEqual(token, adminToken)) {
      throw new ApiError('unauthorized', 'The admin token is required (Authorization: Bearer <token>)');
    }
    ctx.status = 200;
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  };
