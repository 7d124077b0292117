/**
 * Helmet's headers for a JSON API (issue 13): on successes and errors alike;
 * HSTS only in production; none of the HTML-document headers.
 */
import { expect } from 'chai';
import { harness } from './support/http-harness.js';

describe('security headers', () => {
  it('are on a success, a 401 and a 404 in the sandbox, without HSTS, CSP or X-Powered-By', async () => {
    const h = await harness();
    const responses = [
      await h.request.post('/api/ping').set(h.auth).send({ payload: 'p' }),
      await h.request.get('/api/users/1'),
      await h.request.get('/nowhere'),
    ];
    expect(responses.map((r) => r.status)).to.deep.equal([200, 401, 404]);
    for (const res of responses) {
      expect(res.headers).to.include({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' });
      for (const absent of [
        'strict-transport-security',
        'x-powered-by',
        'content-security-policy',
        'cross-origin-embedder-policy',
        'x-xss-protection',
      ]) {
        expect(res.headers, absent).not.to.have.property(absent);
      }
    }
  });

  it('add Strict-Transport-Security in production', async () => {
    const h = await harness({ environment: 'production' });
    const res = await h.request.get('/healthz');
    expect(res.headers['strict-transport-security']).to.equal('max-age=31536000; includeSubDomains');
    const unauthorized = await h.request.get('/api/users/1');
    expect(unauthorized.headers['strict-transport-security']).to.equal('max-age=31536000; includeSubDomains');
  });
});
