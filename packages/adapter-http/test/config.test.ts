/**
 * Configuration from environment variables (DESIGN 3): defaults, and one line
 * naming the variable for each bad value, never repeating a secret.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig, type Config } from '../src/main/config.js';

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
    expect(ok({})).to.deep.equal({ port: 3000, host: '127.0.0.1', environment: 'sandbox', store: 'memory', seed: true, logLevel: 'info' });
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
        DEBTKIT_BUREAU: 'sandbox',
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
      bureau: 'sandbox',
    });
  });

  it('takes a sandbox bootstrap token and PORT=0', () => {
    const config = ok({ DEBTKIT_BOOTSTRAP_TOKEN: SANDBOX_TOKEN, PORT: '0' });
    expect(config.bootstrapToken).to.equal(SANDBOX_TOKEN);
    expect(config.port).to.equal(0);
  });

  it('treats an empty value as unset', () => {
    expect(ok({ PORT: '', DEBTKIT_ENV: '' })).to.deep.include({ port: 3000, environment: 'sandbox' });
  });

  it('does not seed production by default', () => {
    expect(ok({ DEBTKIT_ENV: 'production' }).seed).to.equal(false);
  });

  const bad: ReadonlyArray<[Record<string, string>, string]> = [
    [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535 (got "abc")'],
    [{ PORT: '65536' }, 'PORT must be an integer from 0 to 65535 (got "65536")'],
    [{ PORT: '-1' }, 'PORT must be an integer from 0 to 65535 (got "-1")'],
    [{ HOST: 'two words' }, 'HOST must be a host name or IP address (got "two words")'],
    [{ DEBTKIT_ENV: 'prod' }, 'DEBTKIT_ENV must be sandbox or production (got "prod")'],
    [{ DEBTKIT_STORE: 'redis' }, 'DEBTKIT_STORE must be memory or mongo (got "redis")'],
    [{ DEBTKIT_STORE: 'mongo' }, 'MONGODB_URL is required when DEBTKIT_STORE is mongo'],
    [{ DEBTKIT_STORE: 'mongo', MONGODB_URL: 'postgres://u:pw@x' }, 'MONGODB_URL must be a mongodb:// or mongodb+srv:// URL'],
    [{ DEBTKIT_ADMIN_TOKEN: 'short' }, 'DEBTKIT_ADMIN_TOKEN must be at least 16 characters without spaces'],
    [{ DEBTKIT_BOOTSTRAP_TOKEN: 'dk_sandbox_tooshort' }, 'DEBTKIT_BOOTSTRAP_TOKEN must be dk_sandbox_ followed by 43 base64url characters'],
    [{ DEBTKIT_BOOTSTRAP_TOKEN: `dk_live_${'A'.repeat(43)}` }, 'DEBTKIT_BOOTSTRAP_TOKEN must be dk_sandbox_ followed by 43 base64url characters'],
    [{ DEBTKIT_ENV: 'production', DEBTKIT_BOOTSTRAP_TOKEN: SANDBOX_TOKEN }, 'DEBTKIT_BOOTSTRAP_TOKEN is only allowed in sandbox (DEBTKIT_ENV=sandbox)'],
    [{ DEBTKIT_ENV: 'production', DEBTKIT_SEED: 'true' }, 'DEBTKIT_SEED is only allowed in sandbox (DEBTKIT_ENV=sandbox)'],
    [{ DEBTKIT_SEED: 'maybe' }, 'DEBTKIT_SEED must be true or false (got "maybe")'],
    [{ DEBTKIT_BUREAU: 'equifax' }, 'DEBTKIT_BUREAU must be sandbox (the simulated bureau), or unset (got "equifax")'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
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
