/**
 * # Running the HTTP API from your own code
 *
 * `npm start` is one way to run debtkit; this is the other: compose the Koa
 * app yourself, here on the in-memory store with the sandbox demo seeded, and
 * mount it on any Node HTTP server (or drive `app.callback()` in tests).
 *
 *   compose({ config, clock, logger })  the same composition as the server: the store
 *                              the config names (memory), the sandbox bureau, core's use
 *                              cases and the Koa app (auth, versioning, errors, logging…)
 *   seedDemo({ …store, clock, tokenHasher }, { token })
 *                              the demo client, user 1, linked accounts and a score;
 *                              only the token's hash (the bound TokenHasher) is stored
 *
 * The example listens on 127.0.0.1 on a free port, calls the API with `fetch`
 * as a client application would (credit score, then the linked accounts),
 * prints what it got and shuts down.
 *
 * Run it: `npm run build && node examples/dist/http-server/main.js`.
 * The test suite runs it too (examples/test/http-server.test.ts).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { Account, type Clock, CreditScore, PORTS, decode, newToken } from '@debtkit/core';
import { seedDemo } from '@debtkit/adapter-memory';
import { compose, resolve } from '@debtkit/adapter-http';

export interface HttpServerResult {
  readonly url: string;
  readonly userId: number;
  readonly creditScore: CreditScore;
  readonly apiVersion: string | null;
  readonly accounts: ReadonlyArray<Account>;
}

const systemClock: Clock = { now: () => new Date() };

/** The shape of `GET /api/users/{id}/accounts`: a page of accounts (docs/decisions/api-conventions.md). */
const AccountPage = t.type({ accounts: t.array(Account), has_more: t.boolean }, 'AccountPage');

export const main = async (log: (line: string) => void = console.log, clock: Clock = systemClock): Promise<HttpServerResult> => {
  // Request lines at 'info' would interleave with the example's output.
  const { app, store, container, close } = await compose({ config: { environment: 'sandbox', store: 'memory' }, clock, logger: pino({ level: 'warn' }) });
  // The composition's own ports make the token and store its hash, as for every other client.
  const token = newToken(resolve(container, PORTS.SecretGenerator), 'sandbox');
  const seeded = await seedDemo({ ...store, clock, tokenHasher: resolve(container, PORTS.TokenHasher) }, { token })();
  if (E.isLeft(seeded)) throw new Error(`seeding the demo failed: ${seeded.left.message}`);
  const userId = seeded.right.user.id;


  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  log(`debtkit listening on ${url}`);
  try {
    // A client decodes what it receives with core's codecs instead of trusting it.
    const get = async <A>(path: string, codec: t.Type<A, unknown, unknown>): Promise<{ body: A; apiVersion: string | null }> => {
      const response = await fetch(url + path, { headers: { Authorization: `Bearer ${token}` } });
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
      const body = decode(codec, path)(await response.json());
      if (E.isLeft(body)) throw new Error(`GET ${path}: unexpected body: ${body.left.message}`);
      return { body: body.right, apiVersion: response.headers.get('api-version') };
    };

    const score = await get(`/api/users/${userId}/credit_scores`, CreditScore);
    const factors = (['payment_history', 'credit_utilization', 'derogatory_marks', 'credit_age', 'credit_mix', 'new_credit'] as const)
      .map((name) => `${name} ${score.body[name]?.amount} (${score.body[name]?.factor})`)
      .join(', ');
    log(`GET /api/users/${userId}/credit_scores (API-Version ${score.apiVersion}): score ${score.body.score} on ${score.body.date}`);
    log(`  ${factors}`);

    const accounts = await get(`/api/users/${userId}/accounts?type=loan`, AccountPage);
    log(`GET /api/users/${userId}/accounts?type=loan: ${accounts.body.accounts.length} accounts`);
    for (const a of accounts.body.accounts) {
      log(`  #${a.id} ${a.name}: balance ${a.balance} cents at ${a.effective_apr}% APR, paid off by ${a.expected_payoff_date ?? 'never'} at the minimum`);
    }
    return { url, userId, creditScore: score.body, apiVersion: score.apiVersion, accounts: accounts.body.accounts };
  } finally {
    server.close();
    await close();
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
