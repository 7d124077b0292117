/**
 * The types every part of the HTTP adapter shares: what `createApp` needs
 * (`AppDeps`), what a request carries (`AppState`), and how a route is declared
 * (`RouteDef`). Routes are data, registered by `createApp` on one @koa/router.
 */
import type { Middleware, ParameterizedContext } from 'koa';
import type { Logger } from '../logger.js';
import type {
  AnswerRenderer,
  Client,
  ClientAccess,
  Clock,
  Environment,
  ErasureRegistry,
  IdempotencyStore,
  StoreHealth,
} from '@debtkit/core';
import type { RateLimits } from './rate-limits.js';
import type { Metrics } from './metrics.js';
import type { AdmissionQueue } from './admission-queue.js';
import type { KnownClient } from './pipeline/bearer-token.js';
import type { AnswerForm, KeyedAnswer } from './pipeline/keyed-answer.js';
import type { KeyedBytes, RenderCache } from './render-cache.js';

/** What the HTTP adapter needs to know about the server's configuration. */
export interface AppConfig {
  readonly environment: Environment;
  /** Bearer token of the admin API; when absent, everything under `/admin` answers 404. */
  readonly adminToken?: string;
  /** The address clients reach the server at, for the OpenAPI document's `servers`. */
  readonly publicUrl?: string;
  /** docs/decisions/proxies.md: addresses and CIDRs of the proxies in front, whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed; absent, none. */
  readonly trustedProxies?: ReadonlyArray<string>;
  /** docs/sandbox-over-time.md: serve the interactive docs at `/docs` (the server sets it from DEBTKIT_DOCS); absent, they are not served (404). */
  readonly docs?: boolean;
  /** docs/decisions/rate-limits.md: milliseconds a blocked client's refusal is held before its 429, and the longest a held client's paced request waits (DEBTKIT_REFUSAL_HOLD_MS); absent or 0, answered at once and never paced. */
  readonly refusalHoldMs?: number;
}

export interface AppDeps {
  /** The store's health, for `/readyz`. */
  readonly health: StoreHealth;
  /** Core's client and token use cases: authentication and the admin API. */
  readonly clientAccess: ClientAccess;
  /** The token cache's `knownClient`, asked before `clientAccess`; absent, every request asks `clientAccess`. */
  readonly knownClient?: KnownClient;
  readonly config: AppConfig;
  /** Request lines and unexpected errors go here (inject one with a destination stream to read them in tests). */
  readonly logger: Logger;
  /** Resource routes, registered after the built-in ones (ping, health, admin). */
  readonly routes: ReadonlyArray<RouteDef>;
  /** Where `Idempotency-Key`s are kept (docs/decisions/idempotency.md), and the clock their expiry is measured with. */
  readonly idempotency: IdempotencyStore;
  /** Erasure markers: an Idempotency-Key's kept response about a deleted user is not replayed (docs/decisions/tenancy.md). */
  readonly erasures: ErasureRegistry;
  readonly clock: Clock;
  /**
   * What makes the answer of a request under an Idempotency-Key, the answer sent and kept
   * (answer-renderer.ts, core's `AnswerRenderer` port): one, bound at composition.
   */
  readonly answerRenderer: AnswerRenderer<AnswerForm>;
  /** docs/decisions/rate-limits.md's limits; absent, nothing is limited (an embedding service may limit in front of it). */
  readonly rateLimits?: RateLimits;
  /** Where requests are counted for `GET /metrics`; absent, the app makes its own (without process metrics). */
  readonly metrics?: Metrics;
  /** docs/decisions/tenancy.md's fair share of the process (admission-queue.ts); absent, `/api` requests are admitted without limit. */
  readonly admission?: AdmissionQueue;
  /** Rendered answers of resources that cannot change, kept (render-cache.ts, docs/decisions/tenancy.md); absent, every answer is rendered. */
  readonly renderCache?: RenderCache;
}

/** What middleware leaves on `ctx.state` for the next ones and for handlers. */
export interface AppState {
  /** The request id echoed in `X-Request-Id`, error bodies and log lines. */
  requestId: string;
  /** The authenticated client; set on every `/api` request that reaches a handler. */
  client?: Client;
  /** The API version the response is rendered in; set on every `/api` request that reaches a handler. */
  apiVersion?: string;
  /** Set on `/admin` requests that presented the admin token. */
  admin?: boolean;
  /** The scheme the client used, as trusted proxies reported it (docs/decisions/proxies.md); absent: the connection's own (see `schemeOf`). */
  scheme?: 'http' | 'https';
  /** The path's area, decided once per request by `areaOf`. */
  area?: RouteAuth;
  /** The parsed JSON body (a plain object), when the request had one (see the JSON body step). */
  body?: unknown;
  /**
   * Set when the request carries an Idempotency-Key (pipeline/idempotency-key.ts): the route's
   * handler then hands back its change in `keyedAnswer` instead of running it.
   */
  underIdempotencyKey?: true;
  /** The change a route answers with under the request's Idempotency-Key, not run, and the shape of its answer (set by its handler). */
  keyedAnswer?: KeyedAnswer;
  /**
   * The pattern of the route the request's path matched, for the metrics and
   * the log line: set by the router when it ran, else when the request is
   * recorded (a request refused before its handler is named by its route too).
   */
  route?: string;
  /** The app's render cache, for `respond` (set on `/api` requests by the apiVersion step). */
  renderCache?: RenderCache;
  /** The kept bytes `respond` answered with, and their key: the compression step keeps their compressed bytes. */
  rendered?: KeyedBytes;
}

/** A request as the pipeline sees it. */
export type RequestContext = ParameterizedContext<AppState>;

/** A request as a route handler sees it: with its route's path parameters (as sent, URL-decoded). */
export type AppContext = RequestContext & { params: Record<string, string> };

/**
 * Who may call a route. Authentication is decided by the path's area (`/api` →
 * client token, `/admin` → admin token, anything else → none); `createApp`
 * refuses a route whose declared `auth` disagrees with its area, so the table
 * always tells the truth about what protects a route.
 */
export type RouteAuth = 'client' | 'admin' | 'none';

export interface RouteDef {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** A path pattern, `:name` for a parameter segment, e.g. `/api/users/:id/accounts/:account_id`. */
  readonly path: string;
  readonly auth: RouteAuth;
  /**
   * The handler takes the admin token itself, outside `/admin` (`GET /metrics`):
   * the failed-authentication limit runs as the route's own middleware (docs/decisions/proxies.md).
   */
  readonly adminToken?: boolean;
  readonly handler: (ctx: AppContext) => Promise<void>;
}

/** The area a path belongs to, which decides its authentication. */
export const authOfPath = (path: string): RouteAuth =>
  path === '/api' || path.startsWith('/api/') ? 'client' : path === '/admin' || path.startsWith('/admin/') ? 'admin' : 'none';

/** The request's area: decided on first use and kept on `ctx.state`, so each request decides it once. */
export const areaOf = (ctx: { readonly path: string; readonly state: AppState }): RouteAuth => (ctx.state.area ??= authOfPath(ctx.path));

/** A step of the request pipeline: a Koa middleware over `AppState`. */
export type AppMiddleware = Middleware<AppState>;
