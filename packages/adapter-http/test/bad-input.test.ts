/**
 * Bad input never breaks the API: every endpoint of the table, fed hostile
 * bodies, queries and path ids, answers a 4xx JSON error and changes nothing.
 */
import { expect } from 'chai';
import { API_ENDPOINTS } from '../src/http/routes/index.js';
import { ResourceHarness, resourceHarness } from './support/resource-app.js';

const HOSTILE_BODIES: ReadonlyArray<string> = [
  'null',
  '[]',
  '"text"',
  '42',
  'true',
  '{',
  '{"a":1,}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  JSON.stringify({ balance: 1e308, apr: -0, monthly_payment: 'NaN', name: '\u0000', type: { $gt: '' } }),
  JSON.stringify({ last_name: 'x'.repeat(10_000), strategy: ['avalanche'], device_ip: '1'.repeat(100) }),
  '{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
  '{"amount":1e309}',
  JSON.stringify({ account_id: 9007199254740993, amount: 100, code: 123456, accepted: 'true' }),
];

const concrete = (path: string): string => path.replace(/:[a-z_]+/g, '1');

describe('hostile input on every endpoint', () => {
  let h: ResourceHarness;
  before(async () => {
    h = await resourceHarness();
  });

  const snapshot = async () => {
    const users = await h.request.get('/api/users?limit=100').set(h.auth).expect(200);
    const accounts = await h.request.get('/api/users/1/accounts?limit=100').set(h.auth).expect(200);
    const plans = await h.request.get('/api/users/1/payment_plans?limit=100').set(h.auth).expect(200);
    const bureau = await h.request.get('/api/users/1/bureau/auth').set(h.auth).expect(200);
    return JSON.stringify([users.body, accounts.body, plans.body, bureau.body]);
  };

  for (const e of API_ENDPOINTS.filter((x) => x.method === 'POST' || x.method === 'PATCH')) {
    it(`${e.method} ${e.path} answers 4xx to every hostile body and changes nothing`, async () => {
      const before = await snapshot();
      for (const body of HOSTILE_BODIES) {
        const res = await h.request[e.method === 'POST' ? 'post' : 'patch'](concrete(e.path))
          .set(h.auth)
          .set('Content-Type', 'application/json')
          .send(body);
        expect(res.status, `${body.slice(0, 60)} → ${res.status} ${JSON.stringify(res.body)}`).to.be.within(400, 499);
        expect(res.body.error.code).to.be.a('string');
        expect(JSON.stringify(res.body)).not.to.match(/\bat .+\.(js|ts):\d+/);
      }
      expect(await snapshot()).to.equal(before);
      expect(({} as Record<string, unknown>)['admin']).to.equal(undefined);
      expect(({} as Record<string, unknown>)['polluted']).to.equal(undefined);
    });
  }

  for (const e of API_ENDPOINTS.filter((x) => x.pathIds.length > 0)) {
    it(`${e.method} ${e.path} answers 400 to odd ids`, async () => {
      for (const bad of ['0', '-1', '1.5', '1e3', '9007199254740993', '%00', '%20', 'null', '0x10']) {
        const path = e.path.replace(`:${e.pathIds[e.pathIds.length - 1]}`, bad).replace(/:[a-z_]+/g, '1');
        const req = h.request[e.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](path).set(h.auth);
        const res = e.method === 'POST' || e.method === 'PATCH' ? await req.send({}) : await req;
        expect(res.status, `${e.method} ${path}`).to.equal(400);
      }
    });
  }

  it('answers 400 to repeated and unknown query parameters', async () => {
    await h.request.get('/api/users?limit=1&limit=2').set(h.auth).expect(400);
    await h.request.get('/api/learning_modules?category=career&category=college').set(h.auth).expect(400);
    await h.request.get('/api/users/1/accounts?type[$ne]=loan').set(h.auth).expect(400);
    await h.request.get('/api/users/1/credit_scores?debug=1').set(h.auth).expect(400);
  });
});
