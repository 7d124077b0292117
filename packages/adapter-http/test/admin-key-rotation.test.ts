/**
 * Key rotation and the audit log over HTTP (docs/operations.md, round 4): a client's
 * tokens listed without their secrets, a token rolled with an overlap that
 * ends exactly at its `expires_at` (on the injected clock), and every admin
 * change in the audit log with the request that made it; no token value in an
 * audit record or a log line.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { AuditAction, type Clock } from '@debtkit/core';
import { Harness, harness } from './support/http-harness.js';

/** A clock the test moves. */
const movableClock = (iso: string): Clock & { set(iso: string): void; advance(ms: number): void } => {
  let now = Date.parse(iso);
  return { now: () => new Date(now), set: (to) => void (now = Date.parse(to)), advance: (ms) => void (now += ms) };
};

const START = '2026-03-15T12:00:00.000Z';

describe('admin API: key rotation and the audit log', () => {
  let h: Harness;
  let clock: ReturnType<typeof movableClock>;
  beforeEach(async () => {
    clock = movableClock(START);
    h = await harness({ clock });
  });

  const ping = (token: string) => h.request.post('/api/ping').set('Authorization', `Bearer ${token}`).send({ payload: 'x' });
  const tokensOf = async (clientId: number, query = ''): Promise<{ tokens: Array<Record<string, unknown>>; has_more: boolean }> => {
    const res = await h.request.get(`/admin/clients/${clientId}/tokens${query}`).set(h.admin);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  /** The harness client's first token's id. */
  const firstTokenId = async (): Promise<number> => (await tokensOf(h.client.id)).tokens[0]!['id'] as number;

  describe('GET /admin/clients/:client_id/tokens', () => {
    it("lists the client's tokens ascending by id, paged, with created, expiry and revocation times and never the token", async () => {
      const second = await h.request.post(`/admin/clients/${h.client.id}/tokens`).set(h.admin);
      const third = await h.request.post(`/admin/clients/${h.client.id}/tokens`).set(h.admin);
      await h.request.delete(`/admin/tokens/${third.body.token_id}`).set(h.admin).expect(204);
      // Another client's token is not listed.
      await h.request.post('/admin/clients').set(h.admin).send({ name: 'Other' }).expect(201);
      const all = await tokensOf(h.client.id);
      expect(all.has_more).to.equal(false);
      expect(all.tokens.map((t) => t['id'])).to.deep.equal([all.tokens[0]!['id'], second.body.token_id, third.body.token_id]);
      expect(all.tokens[2]).to.deep.equal({ id: third.body.token_id, created_at: START, expires_at: null, revoked_at: START });
      for (const t of all.tokens) expect(Object.keys(t).sort()).to.deep.equal(['created_at', 'expires_at', 'id', 'revoked_at']);
      expect(JSON.stringify(all)).not.to.include(h.token).and.not.to.include(second.body.token);
      const page = await tokensOf(h.client.id, '?limit=1');
      expect([page.tokens.length, page.has_more]).to.deep.equal([1, true]);
      const next = await tokensOf(h.client.id, `?limit=2&starting_after=${String(page.tokens[0]!['id'])}`);
      expect(next.tokens.map((t) => t['id'])).to.deep.equal([second.body.token_id, third.body.token_id]);
      expect(next.has_more).to.equal(false);
    });

    it('404 for an unknown client, 400 for a bad id or query', async () => {
      const unknown = await h.request.get('/admin/clients/9999/tokens').set(h.admin);
      expect([unknown.status, unknown.body.error.code]).to.deep.equal([404, 'not_found']);
      expect((await h.request.get('/admin/clients/abc/tokens').set(h.admin)).status).to.equal(400);
      expect((await h.request.get(`/admin/clients/${h.client.id}/tokens?limit=0`).set(h.admin)).status).to.equal(400);
      expect((await h.request.get(`/admin/clients/${h.client.id}/tokens`).set(h.auth)).status).to.equal(403);
    });
  });

  describe('POST /admin/tokens/:token_id/roll', () => {
    it('the new token works at once; the old one until exactly its expires_at, then 401 (cache or not)', async () => {
      const oldId = await firstTokenId();
      expect((await ping(h.token)).status).to.equal(200); // cached before the roll
      const res = await h.request.post(`/admin/tokens/${oldId}/roll`).set(h.admin).send({ expires_in_seconds: 90 });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const expiresAt = '2026-03-15T12:01:30.000Z';
      expect(res.body).to.deep.equal({
        token_id: res.body.token_id,
        token: res.body.token,
        replaces: { token_id: oldId, expires_at: expiresAt },
      });
      expect(res.body.token).to.match(/^dk_sandbox_[A-Za-z0-9_-]{43}$/);
      expect((await ping(res.body.token)).status).to.equal(200);
      expect((await ping(h.token)).status).to.equal(200);
      clock.set('2026-03-15T12:01:29.999Z');
      // Twice: the second answer comes from the token cache, which must know the expiry too.
      expect([(await ping(h.token)).status, (await ping(h.token)).status]).to.deep.equal([200, 200]);
      clock.set(expiresAt);
      expect([(await ping(h.token)).status, (await ping(h.token)).status]).to.deep.equal([401, 401]);
      expect((await ping(res.body.token)).status).to.equal(200);
      const listed = await tokensOf(h.client.id);
      expect(listed.tokens.find((t) => t['id'] === oldId)).to.deep.include({ expires_at: expiresAt, revoked_at: null });
      expect(listed.tokens.find((t) => t['id'] === res.body.token_id)).to.deep.include({ created_at: START, expires_at: null });
    });

    it('defaults to a day; 0 stops the old token at once', async () => {
      const oldId = await firstTokenId();
      const day = await h.request.post(`/admin/tokens/${oldId}/roll`).set(h.admin);
      expect([day.status, day.body.replaces?.expires_at]).to.deep.equal([201, '2026-03-16T12:00:00.000Z']);
      const now = await h.request.post(`/admin/tokens/${day.body.token_id}/roll`).set(h.admin).send({ expires_in_seconds: 0 });
      expect([now.status, now.body.replaces?.expires_at]).to.deep.equal([201, START]);
      expect((await ping(day.body.token)).status).to.equal(401);
      expect((await ping(now.body.token)).status).to.equal(200);
    });

    for (const [body, why] of [
      [{ expires_in_seconds: -1 }, 'negative'],
      [{ expires_in_seconds: 604_801 }, 'over a week'],
      [{ expires_in_seconds: 1.5 }, 'not an integer'],
      [{ expires_in_seconds: '60' }, 'a string'],
      [{ expires_in_seconds: null }, 'null'],
      [{ expires_in: 60 }, 'an unknown field'],
    ] as const) {
      it(`400 naming the field for ${why}, and nothing changes`, async () => {
        const oldId = await firstTokenId();
        const res = await h.request.post(`/admin/tokens/${oldId}/roll`).set(h.admin).send(body);
        expect([res.status, res.body.error.code]).to.deep.equal([400, 'validation_error']);
        expect(JSON.stringify(res.body.error.details)).to.include(Object.keys(body)[0]);
        expect((await tokensOf(h.client.id)).tokens).to.have.length(1);
        expect((await tokensOf(h.client.id)).tokens[0]).to.deep.include({ expires_at: null });
      });
    }

    it('404 for an unknown, revoked or expired token; 409 for a token already rolled; nothing issued', async () => {
      const oldId = await firstTokenId();
      expect((await h.request.post('/admin/tokens/9999/roll').set(h.admin).send({})).status).to.equal(404);
      const rolled = await h.request.post(`/admin/tokens/${oldId}/roll`).set(h.admin).send({ expires_in_seconds: 60 });
      const again = await h.request.post(`/admin/tokens/${oldId}/roll`).set(h.admin).send({});
      expect([again.status, again.body.error.code]).to.deep.equal([409, 'conflict']);
      clock.advance(60_000);
      expect((await h.request.post(`/admin/tokens/${oldId}/roll`).set(h.admin).send({})).status, 'expired').to.equal(404);
      await h.request.delete(`/admin/tokens/${rolled.body.token_id}`).set(h.admin).expect(204);
      expect((await h.request.post(`/admin/tokens/${rolled.body.token_id}/roll`).set(h.admin).send({})).status, 'revoked').to.equal(404);
      expect((await tokensOf(h.client.id)).tokens).to.have.length(2);
    });

    it('two concurrent rolls of one token: one 201, one 409', async () => {
      const oldId = await firstTokenId();
      const both = await Promise.all([0, 1].map(() => h.request.post(`/admin/tokens/${oldId}/roll`).set(h.admin).send({})));
      expect(both.map((r) => r.status).sort()).to.deep.equal([201, 409]);
      expect((await tokensOf(h.client.id)).tokens).to.have.length(2);
    });
  });

  describe('GET /admin/audit_events', () => {
    it('docs/operations.md lists every audit action core records', () => {
      const operations = readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
      const audit = operations.slice(operations.indexOf('**Audit log.**'));
      const listed = audit.slice(0, audit.indexOf('\n\n'));
      for (const action of Object.keys(AuditAction.keys)) expect(listed, action).to.contain(`\`${action}\``);
    });

    it('records every admin change with its request id and address, in order, filtered by action and paged', async () => {
      const created = await h.request.post('/admin/clients').set(h.admin).set('X-Request-Id', 'req-create').send({ name: 'Audited' });
      const clientId = created.body.client.id as number;
      const issued = await h.request.post(`/admin/clients/${clientId}/tokens`).set(h.admin).set('X-Request-Id', 'req-issue');
      const rolled = await h.request
        .post(`/admin/tokens/${issued.body.token_id}/roll`)
        .set(h.admin)
        .set('X-Request-Id', 'req-roll')
        .send({});
      await h.request.delete(`/admin/tokens/${rolled.body.token_id}`).set(h.admin).set('X-Request-Id', 'req-revoke').expect(204);
      // Revoking again changes nothing and records nothing.
      await h.request.delete(`/admin/tokens/${rolled.body.token_id}`).set(h.admin).expect(204);
      // Refused changes are not recorded.
      await h.request.post(`/admin/tokens/${issued.body.token_id}/roll`).set(h.admin).send({}).expect(409);

      const res = await h.request.get('/admin/audit_events?limit=100').set(h.admin);
      expect(res.status).to.equal(200);
      // The harness's own client was made through core with no request: ip and request_id null.
      const [first, second, ...mine] = res.body.audit_events as Array<Record<string, unknown>>;
      expect(first).to.deep.include({ action: 'client.created', target: { type: 'client', id: h.client.id }, request_id: null, ip: null });
      expect(second).to.deep.include({ action: 'token.issued', request_id: null, ip: null });
      const firstTokenId = (await tokensOf(clientId)).tokens[0]!['id'];
      expect(mine.map((e) => [e['action'], e['target'], e['request_id']])).to.deep.equal([
        ['client.created', { type: 'client', id: clientId }, 'req-create'],
        ['token.issued', { type: 'token', id: firstTokenId }, 'req-create'],
        ['token.issued', { type: 'token', id: issued.body.token_id }, 'req-issue'],
        ['token.rolled', { type: 'token', id: issued.body.token_id }, 'req-roll'],
        ['token.issued', { type: 'token', id: rolled.body.token_id }, 'req-roll'],
        ['token.revoked', { type: 'token', id: rolled.body.token_id }, 'req-revoke'],
      ]);
      for (const e of mine) {
        expect(Object.keys(e).sort()).to.deep.equal(['action', 'at', 'id', 'ip', 'request_id', 'target']);
        expect(e['at']).to.equal(START);
        expect(e['ip'])
          .to.be.a('string')
          .and.match(/127\.0\.0\.1/);
      }
      const ids = (res.body.audit_events as Array<{ id: number }>).map((e) => e.id);
      expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));

      const rolls = await h.request.get('/admin/audit_events?action=token.rolled').set(h.admin);
      expect(rolls.body.audit_events.map((e: { target: unknown }) => e.target)).to.deep.equal([
        { type: 'token', id: issued.body.token_id },
      ]);
      const page = await h.request.get(`/admin/audit_events?limit=2&starting_after=${ids[1]}`).set(h.admin);
      expect([page.body.audit_events.map((e: { id: number }) => e.id), page.body.has_more]).to.deep.equal([ids.slice(2, 4), true]);
    });

    it('keeps a record a year (by the clock), then answers it no more', async () => {
      const before = await h.request.get('/admin/audit_events').set(h.admin);
      expect(before.body.audit_events).to.have.length(2);
      clock.set('2027-03-15T11:59:59.999Z');
      expect((await h.request.get('/admin/audit_events').set(h.admin)).body.audit_events).to.have.length(2);
      clock.set('2027-03-15T12:00:00.000Z');
      expect((await h.request.get('/admin/audit_events').set(h.admin)).body.audit_events).to.deep.equal([]);
    });

    it('400 for an unknown action or a bad page; 403 for a client token', async () => {
      for (const query of ['?action=token.stolen', '?limit=101', '?starting_after=0', '?colour=red']) {
        const res = await h.request.get(`/admin/audit_events${query}`).set(h.admin);
        expect([res.status, res.body.error?.code], query).to.deep.equal([400, 'validation_error']);
      }
      expect((await h.request.get('/admin/audit_events').set(h.auth)).status).to.equal(403);
    });

    it('no token value ever appears in an audit record or a log line', async () => {
      const tokens = [h.token];
      const created = await h.request.post('/admin/clients').set(h.admin).send({ name: 'Secretive' });
      tokens.push(created.body.token);
      const issued = await h.request.post(`/admin/clients/${created.body.client.id}/tokens`).set(h.admin);
      tokens.push(issued.body.token);
      const rolled = await h.request.post(`/admin/tokens/${issued.body.token_id}/roll`).set(h.admin).send({ expires_in_seconds: 0 });
      tokens.push(rolled.body.token);
      // Requests that present tokens, good and bad, and ones that fail.
      await ping(rolled.body.token);
      await ping(issued.body.token);
      await h.request.delete(`/admin/tokens/${rolled.body.token_id}`).set(h.admin);
      await ping(rolled.body.token);
      for (const t of tokens) expect(t).to.match(/^dk_sandbox_/);
      const stored = await h.store.audit.list({ limit: 100 }, {}, clock.now())();
      const records = JSON.stringify(stored);
      expect(records).to.include('token.rolled');
      expect(h.log.lines.length, 'request lines were logged').to.be.greaterThan(5);
      for (const t of [...tokens]) {
        const secret = t.slice('dk_sandbox_'.length);
        expect(records, 'audit records').not.to.include(secret);
        expect(h.log.text, 'log lines').not.to.include(secret);
      }
    });
  });
});
