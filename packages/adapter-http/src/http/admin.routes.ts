/**
 * The admin API (DESIGN 6): operators create clients and issue and revoke their
 * tokens, through core's client use cases. Not versioned: bodies are written as
 * they are. `adminAuth` guards every path here.
 */
import * as t from 'io-ts';
import { PageQuery, boundedString, strictObject, versioning, type ClientAccess } from '@debtkit/core';
import type { AppConfig, RouteDef } from './app-context.js';
import { writeJson } from './json-response.js';
import { decodeBody, decodeQuery, noContent, parseId, runUseCase } from './route-kit.js';

export const CreateClientBody = strictObject('CreateClientBody', { name: boundedString(1, 100, 'string(1..100)') });
export type CreateClientBody = t.TypeOf<typeof CreateClientBody>;

/** Issuing a token takes no input; a body, if sent, must be empty. */
const IssueTokenBody = strictObject('IssueTokenBody', {});

export interface AdminRoutesDeps {
  readonly clientAccess: ClientAccess;
  readonly config: Pick<AppConfig, 'environment'>;
}

export const adminRoutes = ({ clientAccess, config }: AdminRoutesDeps): RouteDef[] => [
  {
    method: 'POST',
    path: '/admin/clients',
    auth: 'admin',
    handler: async (ctx) => {
      const { name } = decodeBody(ctx, CreateClientBody);
      const created = await runUseCase(clientAccess.createClient({ name, environment: config.environment, apiVersion: versioning.latest }));
      writeJson(ctx, 201, { client: created.client, token: created.token });
    },
  },
  {
    method: 'GET',
    path: '/admin/clients',
    auth: 'admin',
    handler: async (ctx) => {
      const page = await runUseCase(clientAccess.listClients(decodeQuery(ctx, PageQuery)));
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
      const issued = await runUseCase(clientAccess.issueToken(clientId));
      writeJson(ctx, 201, { token_id: issued.tokenId, token: issued.token });
    },
  },
  {
    method: 'DELETE',
    path: '/admin/tokens/:token_id',
    auth: 'admin',
    handler: async (ctx) => {
      await runUseCase(clientAccess.revokeToken(parseId(ctx, 'token_id')));
      noContent(ctx);
    },
  },
];
