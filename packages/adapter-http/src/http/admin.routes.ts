/**
 * The admin API (DESIGN 6): operators create clients and issue and revoke their
 * tokens. Not versioned: bodies are written as they are. `adminAuth` guards
 * every path here.
 */
import * as O from 'fp-ts/lib/Option.js';
import * as t from 'io-ts';
import { PageQuery, boundedString, strictObject, timestampOf, toPageRequest, versioning, type Clock, type StorePorts } from '@debtkit/core';
import type { AppConfig, RouteDef } from './app-context.js';
import { ApiError } from './api-error.js';
import { writeJson } from './json-response.js';
import { decodeBody, decodeQuery, noContent, parseId, runUseCase } from './route-kit.js';
import { createClientWithToken, issueToken } from './token-issuer.js';

export const CreateClientBody = strictObject('CreateClientBody', { name: boundedString(1, 100, 'string(1..100)') });
export type CreateClientBody = t.TypeOf<typeof CreateClientBody>;

/** Issuing a token takes no input; a body, if sent, must be empty. */
const IssueTokenBody = strictObject('IssueTokenBody', {});

export interface AdminRoutesDeps {
  readonly store: Pick<StorePorts, 'clients' | 'tokens'>;
  readonly clock: Clock;
  readonly config: Pick<AppConfig, 'environment'>;
}

export const adminRoutes = (deps: AdminRoutesDeps): RouteDef[] => [
  {
    method: 'POST',
    path: '/admin/clients',
    auth: 'admin',
    handler: async (ctx) => {
      const { name } = decodeBody(ctx, CreateClientBody);
      const created = await runUseCase(
        createClientWithToken(deps, { name, environment: deps.config.environment, apiVersion: versioning.latest }),
      );
      writeJson(ctx, 201, { client: created.client, token: created.token });
    },
  },
  {
    method: 'GET',
    path: '/admin/clients',
    auth: 'admin',
    handler: async (ctx) => {
      const page = await runUseCase(deps.store.clients.list(toPageRequest(decodeQuery(ctx, PageQuery))));
      writeJson(ctx, 200, { clients: page.items, has_more: page.hasMore });
    },
  },
  {
    method: 'POST',
    path: '/admin/clients/:client_id/tokens',
    auth: 'admin',
    handler: async (ctx) => {
      const clientId = parseId(ctx, 'client_id');
      decodeBody(ctx, IssueTokenBody);
      const client = await runUseCase(deps.store.clients.findById(clientId));
      if (O.isNone(client)) throw new ApiError('not_found', 'Client not found');
      const issued = await runUseCase(issueToken(deps, client.value));
      writeJson(ctx, 201, { token_id: issued.tokenId, token: issued.token });
    },
  },
  {
    method: 'DELETE',
    path: '/admin/tokens/:token_id',
    auth: 'admin',
    handler: async (ctx) => {
      const tokenId = parseId(ctx, 'token_id');
      const revoked = await runUseCase(deps.store.tokens.revoke(tokenId, timestampOf(deps.clock.now())));
      if (O.isNone(revoked)) throw new ApiError('not_found', 'Token not found');
      noContent(ctx);
    },
  },
];
