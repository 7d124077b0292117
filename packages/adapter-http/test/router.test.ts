/**
 * The router (router.ts, @koa/router): what it matches, with which
 * parameters, and what it says about a path no route answers. Over HTTP the
 * same rules are covered by http-conventions.test.ts; here each rule is pinned
 * on its own, including the cases a request rarely shows.
 */
import { expect } from 'chai';
import type { RouteDef } from '../src/http/app-context.js';
import { createRouter, type RouteLookup } from '../src/http/router.js';
import { API_ENDPOINTS, BUILTIN_ENDPOINTS } from '../src/http/routes/index.js';

const route = (method: RouteDef['method'], path: string): RouteDef => ({
  method,
  path,
  auth: path.startsWith('/api') ? 'client' : 'none',
  handler: async () => undefined,
});

const TABLE = [
  route('GET', '/healthz'),
  route('POST', '/api/users'),
  route('GET', '/api/users'),
  route('GET', '/api/users/:id'),
  route('DELETE', '/api/users/:id'),
  route('POST', '/api/users/:id/payment_plans/compare'),
  route('GET', '/api/users/:id/payment_plans/:payment_plan_id'),
  route('DELETE', '/api/users/:id/payment_plans/:payment_plan_id'),
];

const table = createRouter(TABLE);
const compileRouteTable = createRouter;

/** The matched pattern and parameters, or the allowed methods when nothing matched. */
const outcome = (lookup: RouteLookup): unknown =>
  lookup.kind === 'route'
    ? { route: `${lookup.method} ${lookup.pattern}`, params: lookup.params }
    : { allowed: lookup.allowed, pattern: lookup.pattern ?? null };

describe('router', () => {
  it('matches a literal path and a path with parameters', () => {
    expect(outcome(table.lookup('GET', '/healthz'))).to.deep.equal({ route: 'GET /healthz', params: {} });
    expect(outcome(table.lookup('GET', '/api/users/42'))).to.deep.equal({ route: 'GET /api/users/:id', params: { id: '42' } });
    expect(outcome(table.lookup('DELETE', '/api/users/7/payment_plans/9'))).to.deep.equal({
      route: 'DELETE /api/users/:id/payment_plans/:payment_plan_id',
      params: { id: '7', payment_plan_id: '9' },
    });
  });

  it('ignores one trailing slash, not two, and never matches an empty segment', () => {
    expect(outcome(table.lookup('GET', '/api/users/'))).to.deep.equal({ route: 'GET /api/users', params: {} });
    expect(outcome(table.lookup('GET', '/api/users/42/'))).to.deep.equal({ route: 'GET /api/users/:id', params: { id: '42' } });
    expect(outcome(table.lookup('GET', '/api/users//'))).to.deep.equal({ allowed: [], pattern: null });
    expect(outcome(table.lookup('GET', '/api//users'))).to.deep.equal({ allowed: [], pattern: null });
    expect(outcome(table.lookup('GET', '/api/users/42/payment_plans//'))).to.deep.equal({ allowed: [], pattern: null });
  });

  it('is case-sensitive and compares literals as sent (not decoded)', () => {
    expect(outcome(table.lookup('GET', '/API/users'))).to.deep.equal({ allowed: [], pattern: null });
    expect(outcome(table.lookup('GET', '/api/%75sers'))).to.deep.equal({ allowed: [], pattern: null });
  });

  it('URL-decodes parameters, and keeps one that does not decode as sent', () => {
    expect(outcome(table.lookup('GET', '/api/users/%34%32'))).to.deep.equal({ route: 'GET /api/users/:id', params: { id: '42' } });
    expect(outcome(table.lookup('GET', '/api/users/%E0%A4%A'))).to.deep.equal({ route: 'GET /api/users/:id', params: { id: '%E0%A4%A' } });
  });

  it('answers HEAD with the GET route', () => {
    expect(outcome(table.lookup('HEAD', '/api/users/42'))).to.deep.equal({ route: 'GET /api/users/:id', params: { id: '42' } });
  });

  it('takes the first registered pattern that has the method when two match the path', () => {
    expect(outcome(table.lookup('POST', '/api/users/1/payment_plans/compare'))).to.deep.equal({
      route: 'POST /api/users/:id/payment_plans/compare',
      params: { id: '1' },
    });
    // `compare` is also a plan id as far as the path goes: a GET reaches the plan route (whose handler answers 400 for the id).
    expect(outcome(table.lookup('GET', '/api/users/1/payment_plans/compare'))).to.deep.equal({
      route: 'GET /api/users/:id/payment_plans/:payment_plan_id',
      params: { id: '1', payment_plan_id: 'compare' },
    });
  });

  it('names the methods every matching pattern allows (GET with HEAD), and the first pattern, when none has the method', () => {
    expect(outcome(table.lookup('PUT', '/api/users/1/payment_plans/compare'))).to.deep.equal({
      allowed: ['POST', 'HEAD', 'GET', 'DELETE'],
      pattern: '/api/users/:id/payment_plans/compare',
    });
    expect(outcome(table.lookup('PATCH', '/api/users'))).to.deep.equal({ allowed: ['POST', 'HEAD', 'GET'], pattern: '/api/users' });
  });

  it('knows nothing of a path no pattern matches, or one that is not absolute', () => {
    expect(outcome(table.lookup('GET', '/nowhere'))).to.deep.equal({ allowed: [], pattern: null });
    expect(outcome(table.lookup('GET', '/api/users/1/2/3/4/5/6/7'))).to.deep.equal({ allowed: [], pattern: null });
    expect(outcome(table.lookup('GET', '*'))).to.deep.equal({ allowed: [], pattern: null });
  });

  it("names a request's pattern as the lookup does, the second time from its memo, and a path with none as none", () => {
    const asked: Array<[string, string]> = [
      ['GET', '/api/users/42'],
      ['GET', '/api/users/42/'],
      ['PUT', '/api/users/1/payment_plans/compare'],
      ['HEAD', '/healthz'],
      ['GET', '/nowhere'],
      ['GET', '*'],
    ];
    const fresh = createRouter(TABLE);
    for (const round of [1, 2]) {
      for (const [method, path] of asked) {
        expect(fresh.patternOf(method, path), `${method} ${path}, round ${round}`).to.equal(fresh.lookup(method, path).pattern);
      }
    }
    expect(fresh.patternOf('GET', '/api/users/42')).to.equal('/api/users/:id');
    expect(fresh.patternOf('GET', '/nowhere')).to.equal(undefined);
  });

  it('lists every (method, pattern) it answers, HEAD included, in registration order', () => {
    expect(table.routes().slice(0, 4)).to.deep.equal([
      { method: 'HEAD', path: '/healthz' },
      { method: 'GET', path: '/healthz' },
      { method: 'POST', path: '/api/users' },
      { method: 'HEAD', path: '/api/users' },
    ]);
    expect(table.routes()).to.have.length(TABLE.length + TABLE.filter((r) => r.method === 'GET').length);
  });

  it('refuses a route registered twice and a pattern it cannot match', () => {
    expect(() => compileRouteTable([route('GET', '/a'), route('GET', '/a')])).to.throw('GET /a is registered twice');
    expect(() => compileRouteTable([route('GET', 'a')])).to.throw('does not start with /');
    expect(() => compileRouteTable([route('GET', '/a/:b-c')])).to.throw('cannot match');
    expect(() => compileRouteTable([route('GET', '/a//b')])).to.throw('cannot match');
  });

  it("compiles debtkit's own table, and every route in it is found by its own pattern", () => {
    const all = [...BUILTIN_ENDPOINTS, ...API_ENDPOINTS].map((e) => route(e.method, e.path));
    const real = compileRouteTable(all);
    for (const r of all) {
      const path = r.path.replace(/:[A-Za-z0-9_]+/g, '12');
      const found = real.lookup(r.method, path);
      expect(found.kind === 'route' ? found.pattern : undefined, `${r.method} ${path}`).to.equal(r.path);
    }
  });
});
