/**
 * What the benchmark loads: four requests of the public API, each measured on
 * debtkit and on the bare Koa app. The bare app is registered with the same
 * route patterns, so both routers do the same matching work.
 */

export interface BenchRoute {
  /** Short name used in the report and the targets. */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** The @koa/router pattern debtkit registers for this route. */
  readonly pattern: string;
  /** The concrete path requested. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON request body (POST only). */
  readonly body?: string;
  /** Whether the request accepts gzip; the bare app then compresses this route as debtkit does. */
  readonly gzip: boolean;
}

/** The demo data the routes address: user 1 and its first account on a freshly seeded store. */
export interface DemoIds {
  readonly userId: number;
  readonly accountId: number;
}

const JSON_BODY = { 'Content-Type': 'application/json' };

export const benchRoutes = ({ userId, accountId }: DemoIds): ReadonlyArray<BenchRoute> => [
  {
    name: 'credit score',
    method: 'GET',
    pattern: '/api/users/:id/credit_scores',
    path: `/api/users/${userId}/credit_scores`,
    headers: {},
    gzip: false,
  },
  {
    name: 'account',
    method: 'GET',
    pattern: '/api/users/:id/accounts/:account_id',
    path: `/api/users/${userId}/accounts/${accountId}`,
    headers: {},
    gzip: false,
  },
  {
    name: 'learning modules (gzip)',
    method: 'GET',
    pattern: '/api/learning_modules',
    path: '/api/learning_modules',
    headers: { 'Accept-Encoding': 'gzip' },
    gzip: true,
  },
  {
    name: 'ping',
    method: 'POST',
    pattern: '/api/ping',
    path: '/api/ping',
    headers: JSON_BODY,
    body: JSON.stringify({ payload: 'benchmark' }),
    gzip: false,
  },
];

/** A response the bare app serves as a constant: debtkit's status and parsed body for the route. */
export interface CannedResponse {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly pattern: string;
  readonly status: number;
  readonly body: unknown;
  readonly gzip: boolean;
}
