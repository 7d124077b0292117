/**
 * Configuration from environment variables (docs/operations.md): defaults, and one line
 * naming the variable for each bad value, never repeating a secret.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, type Config } from '../src/main/config.js';
import { defaultMaxInProgress } from '../src/http/admission-queue.js';

const SANDBOX_TOKEN = `dk_sandbox_${'A'.repeat(43)}`;

const ok = (env: Record<string, string>): Config => {
  const result = loadConfig(env);
  if (E.isLeft(result)) throw new Error(`expected a configuration, got: ${result.left}`);
  return result.right;
};

const error = (env: Record<string, string>): string => {
  const result = loadConfig(env);
  if (E.isRight(result)) throw new Error(`expected an error, got ${JSON.stringify(result.right)}`);
  return result.left;
};

describe('loadConfig', () => {
  it('defaults to a seeded sandbox on 127.0.0.1:3000 with the memory store', () => {
    expect(ok({})).to.deep.equal({
      port: 3000,
      host: '127.0.0.1',
      environment: 'sandbox',
      store: 'memory',
      seed: true,
      logLevel: 'info',
      maxConnections: 10000,
      rateLimit: 100,
      authFailureLimit: 30,
      idempotencyClaimTimeoutSeconds: 60,
      writeConflictDeadlineMs: 10_000,
      maxInProgress: defaultMaxInProgress(),
      clientConcurrency: 16,
      queueWaitMs: 10000,
      refusalHoldMs: 1000,
      docs: true,
      renderCacheBytes: 64 * 1024 * 1024,
    });
  });

  it('reads every variable', () => {
    expect(
      ok({
        PORT: '8080',
        HOST: '0.0.0.0',
        DEBTKIT_ENV: 'production',
        DEBTKIT_STORE: 'mongo',
        MONGODB_URL: 'mongodb://db:27017/debtkit',
        DEBTKIT_ADMIN_TOKEN: 'operator-secret-123456',
        DEBTKIT_SEED: 'false',
        LOG_LEVEL: 'warn',
        DEBTKIT_MAX_CONNECTIONS: '500',
        DEBTKIT_RATE_LIMIT: '0',
        DEBTKIT_AUTH_FAILURE_LIMIT: '5',
        DEBTKIT_IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS: '5',
        DEBTKIT_BUREAU: 'sandbox',
        DEBTKIT_WRITE_CONFLICT_DEADLINE_MS: '2500',
        DEBTKIT_MAX_IN_PROGRESS: '40',
        DEBTKIT_CLIENT_CONCURRENCY: '4',
        DEBTKIT_QUEUE_WAIT_MS: '0',
        DEBTKIT_REFUSAL_HOLD_MS: '250',
        DEBTKIT_DOCS: 'true',
        DEBTKIT_RENDER_CACHE_MB: '8',
      }),
    ).to.deep.equal({
      port: 8080,
      host: '0.0.0.0',
      environment: 'production',
      store: 'mongo',
      mongodbUrl: 'mongodb://db:27017/debtkit',
      adminToken: 'operator-secret-123456',
      seed: false,
      logLevel: 'warn',
      maxConnections: 500,
      rateLimit: 0,
      authFailureLimit: 5,
      idempotencyClaimTimeoutSeconds: 5,
      bureau: 'sandbox',
      writeConflictDeadlineMs: 2500,
      maxInProgress: 40,
      clientConcurrency: 4,
      queueWaitMs: 0,
      refusalHoldMs: 250,
      docs: true,
      renderCacheBytes: 8 * 1024 * 1024,
    });
  });

  it('serves the interactive docs (docs/sandbox-over-time.md) by default in sandbox only; DEBTKIT_DOCS decides, and a bad value is named', () => {
    expect(ok({}).docs).to.equal(true);
    expect(ok({ DEBTKIT_ENV: 'production', DEBTKIT_SEED: 'false' }).docs).to.equal(false);
    expect(ok({ DEBTKIT_DOCS: 'false' }).docs).to.equal(false);
    expect(ok({ DEBTKIT_DOCS: '0' }).docs).to.equal(false);
    expect(ok({ DEBTKIT_ENV: 'production', DEBTKIT_SEED: 'false', DEBTKIT_DOCS: '1' }).docs).to.equal(true);
    expect(error({ DEBTKIT_DOCS: 'yes' })).to.equal('DEBTKIT_DOCS must be true or false (got "yes")');
  });

  it('refuses admission limits (docs/decisions/tenancy.md) that are not positive whole numbers, naming the variable', () => {
    expect(error({ DEBTKIT_MAX_IN_PROGRESS: '0' })).to.equal(
      'DEBTKIT_MAX_IN_PROGRESS must be a positive whole number of requests (got "0")',
    );
    expect(error({ DEBTKIT_CLIENT_CONCURRENCY: 'many' })).to.equal(
      'DEBTKIT_CLIENT_CONCURRENCY must be a positive whole number of requests (got "many")',
    );
    expect(error({ DEBTKIT_QUEUE_WAIT_MS: '600001' })).to.equal(
      'DEBTKIT_QUEUE_WAIT_MS must be a whole number of milliseconds from 0 to 600000 (got "600001")',
    );
    expect(error({ DEBTKIT_REFUSAL_HOLD_MS: '10001' })).to.equal(
      'DEBTKIT_REFUSAL_HOLD_MS must be a whole number of milliseconds from 0 to 10000 (got "10001")',
    );
    expect(error({ DEBTKIT_QUEUE_WAIT_MS: '1.5' })).to.equal(
      'DEBTKIT_QUEUE_WAIT_MS must be a whole number of milliseconds from 0 to 600000 (got "1.5")',
    );
  });

  it('takes a sandbox bootstrap token and PORT=0', () => {
    const config = ok({ DEBTKIT_BOOTSTRAP_TOKEN: SANDBOX_TOKEN, PORT: '0' });
    expect(config.bootstrapToken).to.equal(SANDBOX_TOKEN);
    expect(config.port).to.equal(0);
  });

  it('refuses connection and rate limits that are not whole numbers', () => {
    expect(error({ DEBTKIT_MAX_CONNECTIONS: '0' })).to.equal('DEBTKIT_MAX_CONNECTIONS must be a positive integer (got "0")');
    expect(error({ DEBTKIT_RATE_LIMIT: '-1' })).to.match(/^DEBTKIT_RATE_LIMIT must be a whole number of requests per second/);
    expect(error({ DEBTKIT_AUTH_FAILURE_LIMIT: '1.5' })).to.match(
      /^DEBTKIT_AUTH_FAILURE_LIMIT must be a whole number of failures per minute/,
    );
  });

  it('takes a public URL for the OpenAPI servers, and refuses one with a path slash, query or another scheme', () => {
    expect(ok({ DEBTKIT_PUBLIC_URL: 'https://api.example.org/debtkit' }).publicUrl).to.equal('https://api.example.org/debtkit');
    for (const bad of ['https://api.example.org/', 'ftp://api.example.org', 'https://api.example.org?x=1', 'api.example.org']) {
      expect(error({ DEBTKIT_PUBLIC_URL: bad })).to.match(/^DEBTKIT_PUBLIC_URL must be an http:\/\/ or https:\/\/ URL/);
    }
  });

  it('reads the trusted proxies: IPv4 and IPv6 addresses and CIDRs, spaces around the commas allowed; unset, none', () => {
    expect(ok({ DEBTKIT_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.9 ,fd00::/8,::1' }).trustedProxies).to.deep.equal([
      '10.0.0.0/8',
      '127.0.0.9',
      'fd00::/8',
      '::1',
    ]);
    expect(ok({})).not.to.have.property('trustedProxies');
  });

  it('treats an empty value as unset', () => {
    expect(ok({ PORT: '', DEBTKIT_ENV: '' })).to.deep.include({ port: 3000, environment: 'sandbox' });
  });

  it('reads the idempotency claim timeout, from 1 s to a day (default 60 s)', () => {
    expect(ok({ DEBTKIT_IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS: '1' }).idempotencyClaimTimeoutSeconds).to.equal(1);
    expect(ok({ DEBTKIT_IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS: '86400' }).idempotencyClaimTimeoutSeconds).to.equal(86_400);
  });

  it('reads the write conflict deadline, from 1 ms to 10 minutes (default 10 s)', () => {
    expect(ok({}).writeConflictDeadlineMs).to.equal(10_000);
    expect(ok({ DEBTKIT_WRITE_CONFLICT_DEADLINE_MS: '1' }).writeConflictDeadlineMs).to.equal(1);
    expect(ok({ DEBTKIT_WRITE_CONFLICT_DEADLINE_MS: '600000' }).writeConflictDeadlineMs).to.equal(600_000);
  });

  it('reads the webhook retry delays', () => {
    expect(ok({ DEBTKIT_WEBHOOK_RETRY_SECONDS: '5, 300,0' }).webhookRetrySeconds).to.deep.equal([5, 300, 0]);
    expect(ok({}).webhookRetrySeconds).to.equal(undefined);
  });

  it('reads the quotas, each defaulted when another is set (docs/decisions/tenancy.md), and leaves them to core when none is', () => {
    expect(ok({ DEBTKIT_QUOTA_ACCOUNTS_PER_USER: '3' }).quotas).to.deep.equal({
      accountsPerUser: 3,
      paymentPlansPerUser: 50,
      webhookEndpointsPerClient: 16,
      armedDeliveriesPerClient: 20_000,
    });
    expect(ok({ DEBTKIT_QUOTA_PLANS_PER_USER: '7', DEBTKIT_QUOTA_WEBHOOK_ENDPOINTS_PER_CLIENT: '2' }).quotas).to.deep.equal({
      accountsPerUser: 200,
      paymentPlansPerUser: 7,
      webhookEndpointsPerClient: 2,
      armedDeliveriesPerClient: 20_000,
    });
    expect(ok({ DEBTKIT_QUOTA_ARMED_DELIVERIES_PER_CLIENT: '500' }).quotas).to.deep.include({
      armedDeliveriesPerClient: 500,
      webhookEndpointsPerClient: 16,
    });
    expect(ok({}).quotas).to.equal(undefined);
  });

  it('does not seed production by default', () => {
    expect(ok({ DEBTKIT_ENV: 'production' }).seed).to.equal(false);
  });

  const bad: ReadonlyArray<[Record<string, string>, string]> = [
    [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535 (got "abc")'],
    ...['5,,300', 'soon', '1.5', '-5', '604801', Array(21).fill('1').join(',')].map((v): [Record<string, string>, string] => [
      { DEBTKIT_WEBHOOK_RETRY_SECONDS: v },
      `DEBTKIT_WEBHOOK_RETRY_SECONDS must be 1 to 20 comma-separated whole numbers of seconds (each at most 604800) (got ${JSON.stringify(v.slice(0, 60))})`,
    ]),
    [{ PORT: '65536' }, 'PORT must be an integer from 0 to 65535 (got "65536")'],
    [{ PORT: '-1' }, 'PORT must be an integer from 0 to 65535 (got "-1")'],
    [{ HOST: 'two words' }, 'HOST must be a host name or IP address (got "two words")'],
    [{ DEBTKIT_ENV: 'prod' }, 'DEBTKIT_ENV must be sandbox or production (got "prod")'],
    [{ DEBTKIT_STORE: 'redis' }, 'DEBTKIT_STORE must be memory or mongo (got "redis")'],
    [{ DEBTKIT_STORE: 'mongo' }, 'MONGODB_URL is required when DEBTKIT_STORE is mongo'],
    [{ DEBTKIT_STORE: 'mongo', MONGODB_URL: 'postgres://u:pw@x' }, 'MONGODB_URL must be a mongodb:// or mongodb+srv:// URL'],
    [{ DEBTKIT_ADMIN_TOKEN: 'short' }, 'DEBTKIT_ADMIN_TOKEN must be at least 16 characters without spaces'],
    [{ DEBTKIT_BOOTSTRAP_TOKEN: 'dk_sandbox_tooshort' }, 'DEBTKIT_BOOTSTRAP_TOKEN must be dk_sandbox_ followed by 43 base64url characters'],
    [
      { DEBTKIT_BOOTSTRAP_TOKEN: `dk_live_${'A'.repeat(43)}` },
      'DEBTKIT_BOOTSTRAP_TOKEN must be dk_sandbox_ followed by 43 base64url characters',
    ],
    [
      { DEBTKIT_ENV: 'production', DEBTKIT_BOOTSTRAP_TOKEN: SANDBOX_TOKEN },
      'DEBTKIT_BOOTSTRAP_TOKEN is only allowed in sandbox (DEBTKIT_ENV=sandbox)',
    ],
    [{ DEBTKIT_ENV: 'production', DEBTKIT_SEED: 'true' }, 'DEBTKIT_SEED is only allowed in sandbox (DEBTKIT_ENV=sandbox)'],
    [{ DEBTKIT_SEED: 'maybe' }, 'DEBTKIT_SEED must be true or false (got "maybe")'],
    [{ DEBTKIT_BUREAU: 'equifax' }, 'DEBTKIT_BUREAU must be sandbox (the simulated bureau), or unset (got "equifax")'],
    ...['0', '86401', '1.5', '-1', 'soon', '60s'].map((v): [Record<string, string>, string] => [
      { DEBTKIT_IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS: v },
      `DEBTKIT_IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 86400 (got ${JSON.stringify(v)})`,
    ]),
    ...['0', '600001', '1.5', '-1', 'soon', '10s'].map((v): [Record<string, string>, string] => [
      { DEBTKIT_WRITE_CONFLICT_DEADLINE_MS: v },
      `DEBTKIT_WRITE_CONFLICT_DEADLINE_MS must be a whole number of milliseconds from 1 to 600000 (got ${JSON.stringify(v)})`,
    ]),
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
    ...['0', '-1', '1.5', 'many', '1e3'].flatMap((v): Array<[Record<string, string>, string]> => [
      [
        { DEBTKIT_QUOTA_ACCOUNTS_PER_USER: v },
        `DEBTKIT_QUOTA_ACCOUNTS_PER_USER must be a positive whole number of accounts (got ${JSON.stringify(v)})`,
      ],
      [
        { DEBTKIT_QUOTA_PLANS_PER_USER: v },
        `DEBTKIT_QUOTA_PLANS_PER_USER must be a positive whole number of payment plans (got ${JSON.stringify(v)})`,
      ],
      [
        { DEBTKIT_QUOTA_WEBHOOK_ENDPOINTS_PER_CLIENT: v },
        `DEBTKIT_QUOTA_WEBHOOK_ENDPOINTS_PER_CLIENT must be a positive whole number of webhook endpoints (got ${JSON.stringify(v)})`,
      ],
      [
        { DEBTKIT_QUOTA_ARMED_DELIVERIES_PER_CLIENT: v },
        `DEBTKIT_QUOTA_ARMED_DELIVERIES_PER_CLIENT must be a positive whole number of webhook deliveries (got ${JSON.stringify(v)})`,
      ],
    ]),
    ...[
      'loopback',
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0.1,',
      '300.1.1.1',
      '10.0.0.0/8 10.1.0.0/16',
      'example.com',
      '0.0.0.0/0',
      '::/0',
    ].map((v): [Record<string, string>, string] => [
      { DEBTKIT_TRUSTED_PROXIES: v },
      `DEBTKIT_TRUSTED_PROXIES must be comma-separated IP addresses or CIDRs (IPv4 or IPv6), e.g. 10.0.0.0/8,fd00::/8 (got ${JSON.stringify(v)})`,
    ]),
  ];
  for (const [env, message] of bad) {
    it(`refuses ${JSON.stringify(env)}`, () => {
      expect(error(env)).to.equal(message);
    });
  }

  it('never repeats a secret value in its message', () => {
    const secret = 'mongodb-password-xyz';
    expect(error({ DEBTKIT_STORE: 'mongo', MONGODB_URL: `http://u:${secret}@h` })).to.not.contain(secret);
    expect(error({ DEBTKIT_ADMIN_TOKEN: 'opensesame 1234567890' })).to.not.contain('opensesame');
  });

  it('reports one variable when several are wrong', () => {
    expect(error({ PORT: 'x', LOG_LEVEL: 'y' }).split('\n')).to.have.length(1);
  });
});
