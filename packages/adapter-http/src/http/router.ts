/**
 * The API's routes on @koa/router (docs/decisions/koa.md): one router built from the
 * endpoint tables, each route registered with its method and pattern, a route
 * answering GET answering HEAD too (the router's own rule).
 *
 * What the router's matching means here:
 * - Patterns are `/segment/:param/...`; a parameter is one non-empty segment,
 *   URL-decoded (left as sent when it does not decode). Matching is
 *   case-sensitive (`sensitive: true`, so the router and the areas' prefix
 *   checks agree on every path), on the path as sent, and one trailing `/` is
 *   ignored (`/api/users/` is `/api/users`).
 * - When several patterns match a path (`/payment_plans/compare` and
 *   `/payment_plans/:payment_plan_id`), the first registered with the
 *   request's method answers (handlers never call `next`); the methods a path
 *   allows are those of every pattern it matches.
 *
 * `lookup` answers the same question without running anything: the telemetry
 * asks it for the route pattern of a request refused before the router ran
 * (401, 413, 429, …), so the metrics and the log line name it too.
 */
import Router, { type RouterMiddleware } from '@koa/router';
import compose from 'koa-compose';
import { LRUCache } from 'lru-cache';
import type { AppState, RouteDef } from './app-context.js';

/** The methods a path allows, and the pattern the route of a request is named by. */
export type RouteLookup =
  | {
      readonly kind: 'route';
      /** The method the route was registered with (a HEAD request's route is a GET route). */
      readonly method: string;
      readonly pattern: string;
      readonly params: Record<string, string>;
    }
  | { readonly kind: 'unrouted'; readonly allowed: ReadonlyArray<string>; readonly pattern?: string };

export interface ApiRouter {
  readonly router: Router<AppState>;
  /** What the router would do with `method` and `path` (for a request it did not see). */
  lookup(method: string, path: string): RouteLookup;
  /** `lookup`'s pattern alone (what the telemetry names a request by), without the parameters or the allowed methods. */
  patternOf(method: string, path: string): string | undefined;
  /** Every (method, pattern) the router answers, HEAD included, in registration order. */
  routes(): ReadonlyArray<{ readonly method: string; readonly path: string }>;
}

const SEGMENT = /^(?::[A-Za-z0-9_]+|[^:]+)$/;

const checkPattern = (path: string): void => {
  if (!path.startsWith('/')) throw new Error(`router: ${path} does not start with /`);
  for (const segment of path.slice(1).split('/')) {
    if (!SEGMENT.test(segment)) throw new Error(`router: ${path} has a segment it cannot match: '${segment}'`);
  }
};

/** A segment URL-decoded, or as sent when it does not decode (the router's own rule for `ctx.params`). */
const decodeSegment = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/**
 * The parameters of `path` under `pattern`, a pattern it matched (so both have
 * as many segments, one trailing `/` of the path aside): read from our own
 * patterns, not from the router's private layer methods.
 */
export const paramsOf = (pattern: string, path: string): Record<string, string> => {
  const names = pattern.split('/');
  const values = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    const value = values[i];
    if (name.startsWith(':') && value !== undefined) params[name.slice(1)] = decodeSegment(value);
  });
  return params;
};

/** The methods a path allows, from the layers it matched (in registration order, each once). */
export const allowedMethodsOf = (matched: ReadonlyArray<{ readonly methods: ReadonlyArray<string> }>): string[] => {
  const allowed: string[] = [];
  for (const layer of matched) for (const m of layer.methods) if (!allowed.includes(m)) allowed.push(m);
  return allowed;
};

/** The pattern of the first layer in `layers` (all registered with string patterns here). */
const patternOf = (layers: ReadonlyArray<{ readonly path: string | RegExp }>): string | undefined => {
  const path = layers[0]?.path;
  return typeof path === 'string' ? path : undefined;
};

/** `patternOf`'s memo holds at most this many bytes of keys. */
const PATTERN_CACHE_BYTES = 1024 * 1024;
/** A path the memo knows no pattern for (lru-cache keeps no `undefined`). */
const NO_PATTERN = '';

/** A route's own middleware (the Idempotency-Key step of a POST under /api). */
export type RouteMiddleware = RouterMiddleware<AppState>;

/**
 * One router for `routes`, in their order; `middlewareOf` gives the route
 * middleware that runs before a route's handler (none by default).
 */
export const createRouter = (
  routes: ReadonlyArray<RouteDef>,
  middlewareOf: (route: RouteDef) => ReadonlyArray<RouteMiddleware> = () => [],
): ApiRouter => {
  const router = new Router<AppState>({ sensitive: true });
  const seen = new Set<string>();
  const all: Array<{ method: string; path: string }> = [];
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`router: ${key} is registered twice`);
    seen.add(key);
    checkPattern(route.path);
    // The route's handler ends its stack itself (no wrapper): a request enters this file once, at `routeName`
    // (docs/decisions/transaction-owner.md). koa-compose hands it `next` too, which a handler never calls.
    const answer = route.handler as RouteMiddleware;
    // The route names itself (telemetry reads `ctx.state.route`), before anything of its own can refuse the request.
    const named: RouteMiddleware = function routeName(ctx, next) {
      ctx.state.route = route.path;
      return next();
    };
    // One middleware per route, composed once here with koa-compose (as the router composes
    // a route's stack): the router composes its matched layers again on every request, and
    // koa-compose flattens its array with one `concat` per function, so a stack of four cost
    // four array copies per request (docs/performance.md, round 5).
    const stack: RouteMiddleware = compose([named, ...middlewareOf(route), answer]) as RouteMiddleware;
    router.register(route.path, [route.method], [stack]);
    if (route.method === 'GET') all.push({ method: 'HEAD', path: route.path });
    all.push({ method: route.method, path: route.path });
  }
  // Bounded by the bytes of its keys (a path is the client's to choose): the least recently asked go first.
  const patterns = new LRUCache<string, string>({ maxSize: PATTERN_CACHE_BYTES, sizeCalculation: (_value, key) => key.length + 1 });
  return {
    router,
    lookup(method, path) {
      // `match` is the router's public answer (its layers, typed); nothing here reaches past it.
      const match = router.match(path, method);
      const layers = match.path;
      const first = match.pathAndMethod[0];
      if (first !== undefined) {
        const registered = first.methods[first.methods.length - 1] ?? method;
        const pattern = String(first.path);
        return { kind: 'route', method: registered, pattern, params: paramsOf(pattern, path) };
      }
      const pattern = patternOf(layers);
      return { kind: 'unrouted', allowed: allowedMethodsOf(layers), ...(pattern === undefined ? {} : { pattern }) };
    },
    patternOf(method, path) {
      // The routes never change once built, so an answer stays true: a client refused again and again
      // (a flood's 429s) costs a lookup, not a match of every route's pattern (docs/performance.md, cheap refusals).
      const key = `${method} ${path}`;
      const known = patterns.get(key);
      if (known !== undefined) return known === NO_PATTERN ? undefined : known;
      const match = router.match(path, method);
      const first = match.pathAndMethod[0];
      const pattern = first !== undefined ? String(first.path) : patternOf(match.path);
      patterns.set(key, pattern ?? NO_PATTERN);
      return pattern;
    },
    routes: () => all,
  };
};
