/**
 * The routes that need no use case: ping (DESIGN 7.9, authenticated like all of
 * `/api`), and the probes `/healthz` (the process runs) and `/readyz` (the store
 * answers), which need no token so orchestrators can call them.
 */
import * as E from 'fp-ts/lib/Either.js';
import { PingBody, type StoreHealth } from '@debtkit/core';
import type { RouteDef } from './app-context.js';
import { ApiError } from './api-error.js';
import { writeJson } from './json-response.js';
import { decodeBody, respond } from './route-kit.js';

export const operationsRoutes = (deps: { readonly health: StoreHealth }): RouteDef[] => [
  {
    method: 'POST',
    path: '/api/ping',
    auth: 'client',
    handler: async (ctx) => {
      const { payload } = decodeBody(ctx, PingBody);
      respond(ctx, 200, 'ping', { payload });
    },
  },
  {
    method: 'GET',
    path: '/healthz',
    auth: 'none',
    handler: async (ctx) => writeJson(ctx, 200, { status: 'ok' }),
  },
  {
    method: 'GET',
    path: '/readyz',
    auth: 'none',
    handler: async (ctx) => {
      const ping = await deps.health.ping()();
      // Whatever the store says went wrong, the answer to a probe is "not ready".
      if (E.isLeft(ping)) throw new ApiError('unavailable', 'The store is not reachable');
      writeJson(ctx, 200, { status: 'ready' });
    },
  },
];
