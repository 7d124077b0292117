/**
 * @debtkit/adapter-http: the Koa app (`createApp`), the route table types and
 * handler tools for resource routes, token issuing, and the server's
 * configuration, composition root and lifecycle (the `debtkit` CLI uses these).
 */
export * from './http/app-context.js';
export * from './http/api-error.js';
export * from './http/route-kit.js';
export * from './http/token-issuer.js';
export * from './http/metrics.js';
export * from './http/rate-limits.js';
export { createApp, BODY_LIMIT_BYTES } from './http/app.js';
export { createApiRoutes } from './http/routes/index.js';
export * from './main/config.js';
export * from './main/container.js';
export * from './main/composition.js';
export * from './main/server.js';
export * from './openapi/openapi-document.js';
export * from './webhooks/index.js';
export type { LogFn, LogLevelName, Logger } from './logger.js';
