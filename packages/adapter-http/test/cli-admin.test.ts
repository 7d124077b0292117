/**
 * `debtkit tokens roll` and `debtkit audit` as real processes on the mongo
 * store (the wire-protocol test server): the roll's new token works and the old
 * one stops at its expiry, on an API composed on the same database; the audit
 * log lists the CLI's changes with `request_id` and `ip` null. Bad arguments:
 * exit 1, one line, nothing changed.
 */
import { expect } from 'chai';
import request from 'supertest';
import { compose } from '../src/main/composition.js';
import { runCli, useCliOnWireServer } from './support/cli-process.js';

interface AuditEventJson {
  readonly id: number;
  readonly action: string;
  readonly target: { readonly type: string; readonly id: number };
  readonly request_id: string | null;
  readonly ip: string | null;
}

describe('debtkit tokens roll and debtkit audit (child processes, mongo store on the wire-protocol test server)', function () {
  this.timeout(60_000);
  const wire = useCliOnWireServer();
  let databases = 0;
  const newEnv = (): Record<string, string> => ({
    DEBTKIT_STORE: 'mongo',
    MONGODB_URL: `${wire().url}debtkit_cli_admin_${process.pid}_${++databases}`,
  });

  const ok = async (args: ReadonlyArray<string>, env: Record<string, string>): Promise<any> => {
    const out = await runCli(args, env);
    expect(out.stderr, args.join(' ')).to.equal('');
    expect(out.code, args.join(' ')).to.equal(0);
    return JSON.parse(out.stdout);
  };

  it('rolls a token: the new one works at once, the old one stops at expires_at; the audit log shows the changes with no request', async () => {
    const env = newEnv();
    const created = await ok(['clients', 'create', '--name', 'Acme'], env);
    const audit = (await ok(['audit'], env)) as { audit_events: AuditEventJson[]; has_more: boolean };
    const issued = audit.audit_events.find((e) => e.action === 'token.issued');
    expect(issued, 'the first token is in the audit log').to.not.equal(undefined);
    const oldId = issued!.target.id;

    const rolled = await ok(['tokens', 'roll', '--token-id', String(oldId), '--expires-in-seconds', '0'], env);
    expect(Object.keys(rolled)).to.deep.equal(['token_id', 'token', 'replaces']);
    expect(rolled.token).to.match(/^dk_sandbox_[A-Za-z0-9_-]{43}$/);
    expect(rolled.replaces.token_id).to.equal(oldId);
    expect(Date.parse(rolled.replaces.expires_at)).to.be.at.most(Date.now());

    const api = await compose({ config: { store: 'mongo', mongodbUrl: env['MONGODB_URL']! } });
    try {
      const ping = (token: string) =>
        request(api.app.callback()).post('/api/ping').set('Authorization', `Bearer ${token}`).send({ payload: 'x' });
      expect((await ping(rolled.token)).status, 'the new token').to.equal(200);
      expect((await ping(created.token)).status, 'the old token, expired').to.equal(401);
    } finally {
      await api.close();
    }

    const all = (await ok(['audit', '--limit', '10'], env)) as { audit_events: AuditEventJson[]; has_more: boolean };
    expect(all.audit_events.map((e) => [e.action, e.target.type])).to.deep.equal([
      ['client.created', 'client'],
      ['token.issued', 'token'],
      ['token.rolled', 'token'],
      ['token.issued', 'token'],
    ]);
    for (const e of all.audit_events) expect([e.request_id, e.ip]).to.deep.equal([null, null]);
    expect(all.audit_events[2]!.target.id).to.equal(oldId);
    expect(all.audit_events[3]!.target.id).to.equal(rolled.token_id);
    expect(JSON.stringify(all))
      .not.to.include(rolled.token.slice('dk_sandbox_'.length))
      .and.not.to.include(created.token.slice('dk_sandbox_'.length));

    const rolls = (await ok(['audit', '--action', 'token.rolled'], env)) as { audit_events: AuditEventJson[] };
    expect(rolls.audit_events.map((e) => e.target.id)).to.deep.equal([oldId]);
    const page = (await ok(['audit', '--limit', '1', '--starting-after', String(all.audit_events[1]!.id)], env)) as {
      audit_events: AuditEventJson[];
      has_more: boolean;
    };
    expect([page.audit_events.map((e) => e.id), page.has_more]).to.deep.equal([[all.audit_events[2]!.id], true]);

    // Rolling it again: the token has expired, so there is nothing to roll.
    const again = await runCli(['tokens', 'roll', '--token-id', String(oldId)], env);
    expect([again.code, again.stdout]).to.deep.equal([1, '']);
    expect(again.stderr).to.match(/^debtkit: tokens roll failed: Token not found/);
  });

  it('clients set-version moves the client to another known version, audited with no request; an unknown one changes nothing', async () => {
    const env = newEnv();
    const created = await ok(['clients', 'create', '--name', 'Acme'], env);
    expect(created.client.api_version).to.equal('2026-11-26');
    const unknown = await runCli(['clients', 'set-version', '--client-id', String(created.client.id), '--api-version', '2025-01-01'], env);
    expect([unknown.code, unknown.stdout]).to.deep.equal([1, '']);
    expect(unknown.stderr).to.match(
      /^debtkit: clients set-version failed: Unknown API version; --api-version must be a known API version: 2024-07-01, 2026-11-26\n$/,
    );
    const moved = await ok(['clients', 'set-version', '--client-id', String(created.client.id), '--api-version', '2024-07-01'], env);
    expect(moved).to.deep.equal({ ...created.client, api_version: '2024-07-01' });
    const audit = (await ok(['audit', '--action', 'client.version_changed'], env)) as { audit_events: AuditEventJson[] };
    expect(audit.audit_events.map((e) => [e.target.type, e.target.id, e.request_id, e.ip])).to.deep.equal([
      ['client', created.client.id, null, null],
    ]);
  });

  describe('bad arguments', () => {
    let env: Record<string, string>;
    before(async () => {
      env = newEnv();
      await ok(['clients', 'create', '--name', 'Acme'], env);
    });
    after(async () => {
      expect(((await ok(['audit'], env)) as { audit_events: unknown[] }).audit_events, 'nothing changed').to.have.length(2);
    });

    for (const [args, message] of [
      [['tokens', 'roll'], /--token-id/],
      [['tokens', 'roll', '--token-id', '1', '--expires-in-seconds', '604801'], /--expires-in-seconds must be/],
      [['tokens', 'roll', '--token-id', '1', '--colour', 'red'], /unknown argument "--colour"/],
      [['tokens', 'roll', '--token-id', '999'], /tokens roll failed: Token not found/],
      [['audit', '--action', 'token.stolen'], /--action/],
      [['audit', '--limit', '0'], /--limit/],
      [['clients', 'set-version', '--client-id', '1'], /clients set-version: --api-version/],
      [['clients', 'set-version', '--client-id', '999', '--api-version', '2024-07-01'], /clients set-version failed: Client not found/],
    ] as const) {
      it(`exit 1 with one line for ${args.join(' ')}`, async () => {
        const out = await runCli(args, env);
        expect([out.code, out.stdout]).to.deep.equal([1, '']);
        expect(out.stderr.trim().split('\n')).to.have.length(1);
        expect(out.stderr).to.match(message);
      });
    }
  });

  it('needs a persistent store: exit 1 on the memory store', async () => {
    for (const args of [['tokens', 'roll', '--token-id', '1'], ['audit']]) {
      const out = await runCli(args, { DEBTKIT_STORE: 'memory' });
      expect([out.code, out.stdout]).to.deep.equal([1, '']);
      expect(out.stderr).to.match(/needs a persistent store \(DEBTKIT_STORE=mongo\)/);
    }
  });
});
