import type { Application } from '@debtkit/core';
import type { RouteDef } from '../app-context.js';
import { API_ENDPOINTS } from './api-endpoints.js';
import { toRouteDef } from './endpoint.js';

export * from './endpoint.js';
export { API_ENDPOINTS } from './api-endpoints.js';
export { BUILTIN_ENDPOINTS, createBuiltinRoutes, type BuiltinEndpoint, type BuiltinServices } from './builtin-endpoints.js';
export { ADMIN_ENDPOINTS, CreateClientBody, auditActorOf } from './admin-endpoints.js';

/** The resource routes, bound to the use cases. */
export const createApiRoutes = (app: Application): RouteDef[] => API_ENDPOINTS.map((e) => toRouteDef(app, e));
