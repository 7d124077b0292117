/**
 * Key rotation across processes (docs/operations.md, round 4): two `debtkit serve`
 * processes (the built CLI) on one mongo database (the wire-protocol test
 * server), both with the old token cached. It is rolled through one with a
 * 2 s overlap: the new token works at once on both; the old one keeps working
 * on both until its `expires_at`, and from that instant on answers 401 on both
 * (the token cache keeps each token's expiry: exact, not "within 1 s"). Real
 * processes share no injected clock, so the test reads the wall clock the
 * processes read: each answer is judged by whether it was given before or after `expires_at`.
 */
import { expect } from 'chai';
import { generateToken } from '../src/http/token-issuer.js';
import { startCli, useCliOnWireServer, type CliProcess } from './support/cli-process.js';

const ADMIN_TOKEN = 'admin-token-for-the-roll-test';

describe('token roll across two processes on one mongo (child processes, wire-protocol test server)', function () {
  this.timeout(60_000);
  const wire = useCliOnWireServer();
  const running: CliProcess[] = [];

  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
  });

  it('the new token works at once on both; the old one on both until its expires_at, then 401 on both', async () => {
    const env = {
      DEBTKIT_STORE: 'mongo',
      MONGODB_URL: `${wire().url}/debtkit_token_roll_${process.pid}`,
      DEBTKIT_BOOTSTRAP_TOKEN: generateToken('sandbox'),
      DEBTKIT_ADMIN_TOKEN: ADMIN_TOKEN,
    };
    const [a, b] = await Promise.all([startCli(env), startCli(env)]);
    running.push(a!, b!);
    const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    const oldToken = env.DEBTKIT_BOOTSTRAP_TOKEN;

    /** Status of a request with `token` through `cli`, and whether it was answered before `before` (ms since the epoch). */
    const usersVia = async (cli: CliProcess, token: string): Promise<{ status: number; sent: number; answered: number }> => {
      const sent = Date.now();
      const res = await fetch(`${cli.url}/api/users`, { headers: { Authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      return { status: res.status, sent, answered: Date.now() };
    };

    // Both processes know the old token (and have it cached).
    expect((await usersVia(a!, oldToken)).status).to.equal(200);
    expect((await usersVia(b!, oldToken)).status).to.equal(200);

    const clients = (await (await fetch(`${a!.url}/admin/clients`, { headers: admin })).json()) as { clients: Array<{ id: number }> };
    const listed = (await (await fetch(`${a!.url}/admin/clients/${clients.clients[0]!.id}/tokens`, { headers: admin })).json()) as {
      tokens: Array<{ id: number }>;
    };
    const res = await fetch(`${a!.url}/admin/tokens/${listed.tokens[0]!.id}/roll`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ expires_in_seconds: 2 }),
    });
    expect(res.status).to.equal(201);
    const rolled = (await res.json()) as { token: string; replaces: { expires_at: string } };
    const expiresAt = Date.parse(rolled.replaces.expires_at);

    expect((await usersVia(a!, rolled.token)).status, 'the new token on the rolling process').to.equal(200);
    expect((await usersVia(b!, rolled.token)).status, 'the new token on the other process').to.equal(200);

    // Until expires_at: every answer given before it is 200; every request sent after it is 401; on both processes.
    let before = 0;
    let after = 0;
    while (after < 6) {
      for (const cli of [a!, b!]) {
        const answer = await usersVia(cli, oldToken);
        if (answer.answered < expiresAt) {
          expect(answer.status, `answered ${expiresAt - answer.answered} ms before expires_at`).to.equal(200);
          before += 1;
        } else if (answer.sent >= expiresAt) {
          expect(
            answer.status,
            `sent ${answer.sent - expiresAt} ms after expires_at, by ${cli === a ? 'the rolling process' : 'the other process'}`,
          ).to.equal(401);
          after += 1;
        }
      }
      // Paced, not a busy loop; the assertions above hold whatever the pace.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(before, 'requests answered before expires_at').to.be.greaterThan(4);
    expect((await usersVia(a!, rolled.token)).status).to.equal(200);
    expect((await usersVia(b!, rolled.token)).status).to.equal(200);
  });
});
