/**
 * The types of the built-in endpoint table (./builtin-endpoints.ts): what its
 * handlers are given, and an entry. In a module of their own so that the admin
 * table (./admin-endpoints.ts) names them without importing the table that lists
 * it (no import cycle; docs/architecture.md "The dependency rule, measured").
 */
import type { ClientAccess, Environment, StoreHealth } from '@debtkit/core';
import type { RouteDef } from '../app-context.js';
import type { Metrics } from '../metrics.js';
import type { EndpointSpec } from './endpoint.js';

/** What the built-in endpoints run on. */
export interface BuiltinServices {
  readonly health: StoreHealth;
  readonly clientAccess: ClientAccess;
  /** The server's environment: clients created by the admin API belong to it. */
  readonly environment: Environment;
  /** What `GET /metrics` serves. */
  readonly metrics: Metrics;
  /** The admin token (`/metrics` takes it too); absent, `/admin` and `/metrics` answer 404. */
  readonly adminToken?: string;
  /**
   * What `GET /openapi.json` serves: `serveOpenApi` (openapi/openapi-document.ts) bound at
   * composition to the server's environment and public address, so this table does not
   * import the document that lists it (no import cycle; docs/architecture.md).
   */
  readonly openApi: RouteDef['handler'];
  /** Milliseconds, for how long `/readyz` reuses the store's answer; default `Date.now`. */
  readonly now?: () => number;
}

/** An entry of the built-in table: its spec (types erased) and the handler it becomes, typed inside. */
export interface BuiltinEndpoint extends EndpointSpec {
  readonly auth: NonNullable<EndpointSpec['auth']>;
  readonly handler: (services: BuiltinServices) => RouteDef['handler'];
}
