/**
 * What an embedding service gets from `compose()` without asking (issue 24):
 * a logger on stderr at `warn` (documented in the package README), whose level
 * `config.logLevel` changes, and `publicUrl` in the served document.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import supertest from 'supertest';
import { compose, composeContainer } from '../src/main/composition.js';

const compositionModule = fileURLToPath(new URL('../src/main/composition.js', import.meta.url));

/** Runs `compose(options)` in a child process; answers what it wrote on stderr. */
const stderrOfCompose = (options: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const script = `const { compose } = await import(${JSON.stringify(compositionModule)}); const c = await compose(${options}); await c.close();`;
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { env: { ...process.env, NODE_OPTIONS: '' } },
      (error, _stdout, stderr) => (error === null ? resolve(stderr) : reject(new Error(`${error.message}\n${stderr}`))),
    );
  });

describe('embedding: compose() defaults', function () {
  this.timeout(20_000);

  it('logs pino JSON on stderr at warn by default: a production start on the sandbox bureau says so', async () => {
    const stderr = await stderrOfCompose("{ config: { environment: 'production', bureau: 'sandbox' } }");
    const lines = stderr
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(lines.map((l) => [l.level, l.msg.slice(0, 22)])).to.deep.equal([[40, 'DEBTKIT_BUREAU=sandbox']]);
  });

  it('at the level config.logLevel names', async () => {
    expect(await stderrOfCompose("{ config: { environment: 'production', bureau: 'sandbox', logLevel: 'error' } }")).to.equal('');
    const { logger, close } = await composeContainer({ config: { logLevel: 'debug' } });
    expect(logger.level).to.equal('debug');
    await close();
    const defaulted = await composeContainer();
    expect(defaulted.logger.level).to.equal('warn');
    await defaulted.close();
  });

  it('publicUrl is the server the served OpenAPI document names', async () => {
    const { app, close } = await compose({ config: { publicUrl: 'https://api.example.com/debts' } });
    const res = await supertest(app.callback()).get('/openapi.json');
    expect(res.body.servers.map((s: { url: string }) => s.url)).to.deep.equal(['https://api.example.com/debts']);
    await close();
  });
});
