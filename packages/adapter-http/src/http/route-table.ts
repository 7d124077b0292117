/**
 * The route table, compiled once: which route a request's method and path
 * name, with its path parameters. It answers what @koa/router's matching did
 * for this app (DESIGN 9: one route decision per request, made up front so the
 * metrics and the log name the route of a request refused before its handler):
 *
 * - Patterns are `/segment/:param/...`; a parameter is one non-empty segment,
 *   URL-decoded (left as sent when it does not decode). Matching is
 *   case-sensitive, on the path as sent (not decoded), and one trailing `/` is
 *   ignored (`/api/users/` is `/api/users`).
 * - Every GET route answers HEAD too.
 * - When several patterns match a path (`/payment_plans/compare` and
 *   `/payment_plans/:payment_plan_id`), the first registered with the request's
 *   method wins; the allowed methods are those of every matching pattern.
 *
 * Routes are bucketed by segment count, so a request compares its segments
 * with the handful of patterns of its length instead of testing every route.
 */
import type { RouteDef } from './app-context.js';

type Segment = { readonly literal: string } | { readonly param: string };

interface CompiledRoute {
  readonly route: RouteDef;
  /** The methods this route answers: its own, and HEAD for a GET. */
  readonly methods: ReadonlyArray<string>;
  readonly segments: ReadonlyArray<Segment>;
}

/** A request's route and path parameters. */
export interface RouteMatch {
  readonly route: RouteDef;
  readonly params: Record<string, string>;
}

/**
 * What the table knows about a request: its route, or the methods its path
 * allows (none: no such path) and the first pattern the path matched.
 */
export type RouteLookup =
  | { readonly kind: 'route'; readonly match: RouteMatch }
  | { readonly kind: 'unrouted'; readonly allowed: ReadonlyArray<string>; readonly pattern?: string };

const PARAM = /^:([A-Za-z0-9_]+)$/;

const compile = (route: RouteDef): CompiledRoute => {
  if (!route.path.startsWith('/')) throw new Error(`route table: ${route.path} does not start with /`);
  const segments = route.path
    .slice(1)
    .split('/')
    .map((s): Segment => {
      const param = PARAM.exec(s)?.[1];
      if (param !== undefined) return { param };
      if (s === '' || s.includes(':')) throw new Error(`route table: ${route.path} has a segment it cannot match: '${s}'`);
      return { literal: s };
    });
  return { route, methods: route.method === 'GET' ? ['HEAD', 'GET'] : [route.method], segments };
};

/** The path's segments (one trailing `/` ignored); `undefined` when the path is not absolute. */
const segmentsOf = (path: string): string[] | undefined => {
  if (!path.startsWith('/')) return undefined;
  const parts = path.slice(1).split('/');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
};

const decodeParam = (raw: string): string => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/** The parameters of `segments` against `compiled`, or `undefined` when it does not match. */
const matchSegments = (compiled: CompiledRoute, segments: ReadonlyArray<string>): Record<string, string> | undefined => {
  let params: Record<string, string> | undefined;
  for (let i = 0; i < segments.length; i++) {
    const pattern = compiled.segments[i]!;
    const given = segments[i]!;
    if ('literal' in pattern) {
      if (pattern.literal !== given) return undefined;
    } else {
      if (given === '') return undefined;
      (params ??= {})[pattern.param] = decodeParam(given);
    }
  }
  return params ?? {};
};

export interface RouteTable {
  lookup(method: string, path: string): RouteLookup;
  /** Every (method, pattern) the table answers, HEAD included, in registration order. */
  routes(): ReadonlyArray<{ readonly method: string; readonly path: string }>;
}

export const compileRouteTable = (routes: ReadonlyArray<RouteDef>): RouteTable => {
  const buckets = new Map<number, CompiledRoute[]>();
  const seen = new Set<string>();
  const all: CompiledRoute[] = [];
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`route table: ${key} is registered twice`);
    seen.add(key);
    const compiled = compile(route);
    all.push(compiled);
    const bucket = buckets.get(compiled.segments.length) ?? [];
    bucket.push(compiled);
    buckets.set(compiled.segments.length, bucket);
  }
  const NOWHERE: RouteLookup = { kind: 'unrouted', allowed: [] };

  return {
    lookup(method, path) {
      const segments = segmentsOf(path);
      const bucket = segments === undefined ? undefined : buckets.get(segments.length);
      if (segments === undefined || bucket === undefined) return NOWHERE;
      let allowed: string[] | undefined;
      let pattern: string | undefined;
      for (const compiled of bucket) {
        const params = matchSegments(compiled, segments);
        if (params === undefined) continue;
        if (compiled.methods.includes(method)) return { kind: 'route', match: { route: compiled.route, params } };
        allowed ??= [];
        pattern ??= compiled.route.path;
        for (const m of compiled.methods) if (!allowed.includes(m)) allowed.push(m);
      }
      return allowed === undefined ? NOWHERE : { kind: 'unrouted', allowed, ...(pattern === undefined ? {} : { pattern }) };
    },
    routes: () => all.flatMap((c) => c.methods.map((method) => ({ method, path: c.route.path }))),
  };
};
