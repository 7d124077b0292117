/**
 * The routes that need no use case: ping (DESIGN 7.9, authenticated like all of
 * `/api`), and the probes `/healthz` (the process runs) and `/readyz` (the store
 * answers), which need no token so orchestrators can call them.
 */
import * as E from 'fp-ts/lib/Either.js';
import { PingBody, type StorePorts } from '@debtkit/core';
import type { RouteDef } from './app-context.js';
import { ApiError } from './api-error.js';
import { writeJson } from './json-response.js';
import { decodeBody, respond } from './route-kit.js';

/**
 * How long `/readyz` waits for the store. A probe must answer fast even when the
 * store is down: the driver would otherwise wait its whole server-selection
 * timeout (5 s) before saying so, longer than most probes' own timeout.
 */
export const READINESS_TIMEOUT_MS = 800;

/** Whether the store answers a ping within `timeoutMs`. */
const storeAnswers = async (store: Pick<StorePorts, 'health'>, timeoutMs: number): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([store.health.ping()().then(E.isRight, () => false), late]);
  } finally {
    clearTimeout(timer);
  }
};

export const operationsRoutes = (deps: { readonly store: Pick<StorePorts, 'health'> }): RouteDef[] => [
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
      // Whatever the store says went wrong (or if it says nothing in time), the answer to a probe is "not ready".
      if (!(await storeAnswers(deps.store, READINESS_TIMEOUT_MS))) throw new ApiError('unavailable', 'The store is not reachable');
      writeJson(ctx, 200, { status: 'ready' });
    },
  },
];
