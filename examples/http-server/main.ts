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
 * The example listens on 127.0.0.1 on a free port, calls the API with
 * `@debtkit/client` as a client application would (credit score, then the
 * linked loan accounts, page by page), prints what it got and shuts down.
 *
 * Run it: `npm run build && node examples/dist/http-server/main.js`.
 * The test suite runs it too (examples/test/http-server.test.ts).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import * as E from 'fp-ts/lib/Either.js';
import { type Clock, PORTS, newToken } from '@debtkit/core';
import { seedDemo } from '@debtkit/adapter-memory';
import { compose, resolve } from '@debtkit/adapter-http';
import { createClient, type Schemas } from '@debtkit/client';

export interface HttpServerResult {
  readonly url: string;
  readonly userId: number;
  readonly creditScore: Schemas<'2026-11-26'>['CreditScore'];
  readonly apiVersion: string | null;
  readonly accounts: ReadonlyArray<Schemas<'2026-11-26'>['Account']>;
}

const systemClock: Clock = { now: () => new Date() };

export const main = async (log: (line: string) => void = console.log, clock: Clock = systemClock): Promise<HttpServerResult> => {
  // Request lines at 'info' would interleave with the example's output.
  const { app, store, container, close } = await compose({
    config: { environment: 'sandbox', store: 'memory' },
    clock,
    logger: pino({ level: 'warn' }),
  });
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
    // The typed client of the version this code was written for: paths, parameters and answers are checked by the compiler.
    const client = createClient({ baseUrl: url, token, apiVersion: '2026-11-26' });

    const score = await client.GET('/api/users/{id}/credit_scores', { params: { path: { id: userId } } });
    if (score.error !== undefined) throw new Error(`GET credit_scores answered ${score.response.status}: ${score.error.error.code}`);
    const factors = (['payment_history', 'credit_utilization', 'derogatory_marks', 'credit_age', 'credit_mix', 'new_credit'] as const)
      .map((name) => `${name} ${score.data[name]?.amount} (${score.data[name]?.factor})`)
      .join(', ');
    const apiVersion = score.response.headers.get('api-version');
    log(`GET /api/users/${userId}/credit_scores (API-Version ${apiVersion}): score ${score.data.score} on ${score.data.date}`);
    log(`  ${factors}`);

    // Every loan account, page after page (`paginate` follows `has_more` with `starting_after`).
    const accounts: Array<Schemas<'2026-11-26'>['Account']> = [];
    for await (const account of client.paginate('/api/users/{id}/accounts', {
      params: { path: { id: userId }, query: { type: 'loan', limit: 2 } },
    }))
      accounts.push(account);
    log(`GET /api/users/${userId}/accounts?type=loan: ${accounts.length} accounts`);
    for (const a of accounts) {
      log(
        `  #${a.id} ${a.name}: balance ${a.balance} cents at ${a.effective_apr}% APR, paid off by ${a.expected_payoff_date ?? 'never'} at the minimum`,
      );
    }
    return { url, userId, creditScore: score.data, apiVersion, accounts };
  } finally {
    server.close();
    await close();
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
