/**
 * Issue 31 item 6 (docs/decisions/proxies.md): debtkit as production runs it, behind a real
 * proxy. nginx (Debian's `nginx-light`) terminates TLS with a certificate this
 * test makes, in front of two `debtkit serve` processes (production, the built
 * CLI) on one wire-protocol test server. nginx runs the repository's own
 * configuration, `examples/nginx/debtkit.conf.template` (the one docs/operations.md shows), filled
 * in as envsubst would, and reaches debtkit from its own address (`proxy_bind`
 * 127.0.0.9), the only one debtkit trusts. Every test client connects over
 * HTTPS from a 127.0.0.x address of its own.
 *
 * The children's `Date` is frozen (support/frozen-clock.ts), so no rate-limit
 * window ends during the test: counts are exact, not timing-dependent.
 *
 * Without nginx (or openssl, for the certificate) the suite fails under
 * CI=true, and is skipped with the reason otherwise. `.ci/run` installs both.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, constants as fs, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { generateToken } from '../src/http/token-issuer.js';
import { DEFAULT_CONNECTION_RULES } from '../src/main/connection-rules.js';
import { startCli, useCliOnWireServer, type CliProcess } from './support/cli-process.js';

const here = fileURLToPath(import.meta.url);
const repositoryRoot = fileURLToPath(new URL(here.includes('/dist/test/') ? '../../../../' : '../../../', import.meta.url));
/** The one nginx configuration: docs/operations.md (Behind a proxy) uses this file too. */
export const NGINX_TEMPLATE = join(repositoryRoot, 'examples/nginx/debtkit.conf.template');
const FROZEN_CLOCK = fileURLToPath(new URL('./support/frozen-clock.js', import.meta.url));

const PROXY_BIND = '127.0.0.9';
const ADMIN_TOKEN = 'nginx-test-admin-token-0123456789';
const AUTH_FAILURE_LIMIT = 10;
const RATE_LIMIT = 20;

/** An executable on the PATH, or in the sbin directories a non-root PATH may lack. */
const executable = (name: string): string | undefined => {
  const dirs = [...(process.env['PATH'] ?? '').split(':'), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, name), fs.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
};

/** The template with its `${DEBTKIT_...}` placeholders filled in (what `envsubst` with their names does); nginx's own `$variables` are left alone. */
export const fillTemplate = (template: string, values: Readonly<Record<string, string>>): string => {
  const filled = template.replace(/\$\{(DEBTKIT_[A-Z0-9_]+)\}/g, (whole, name: string) => values[name] ?? whole);
  const left = /\$\{DEBTKIT_[A-Z0-9_]+\}/.exec(filled);
  if (left !== null) throw new Error(`the nginx template has a placeholder this test does not fill: ${left[0]}`);
  return filled;
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

interface Sent {
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

/** A client of its own address, over HTTPS to nginx (keep-alive, as an SDK would). */
interface HttpsClient {
  send(method: string, path: string, sent?: Sent): Promise<Answer>;
  close(): void;
}

describe('behind nginx: TLS, two debtkit processes, trusted proxy (docs/decisions/proxies.md)', function () {
  this.timeout(60_000);
  const wire = useCliOnWireServer();
  let nginx: ChildProcess | undefined;
  let nginxLog = '';
  let dir: string | undefined;
  let port = 0;
  let certificate = '';
  const processes: CliProcess[] = [];
  const clients: HttpsClient[] = [];

  const client = (localAddress: string): HttpsClient => {
    const agent = new Agent({ keepAlive: true, localAddress, ca: certificate, servername: 'localhost' });
    const made: HttpsClient = {
      send: (method, path, sent = {}) =>
        new Promise((resolve, reject) => {
          const body = sent.body === undefined ? undefined : JSON.stringify(sent.body);
          const req = httpsRequest(
            {
              host: '127.0.0.1',
              port,
              method,
              path,
              agent,
              headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...sent.headers },
            },
            (res) => {
              let text = '';
              res.setEncoding('utf8').on('data', (c: string) => (text += c));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
            },
          );
          req.on('error', reject);
          req.end(body);
        }),
      close: () => agent.destroy(),
    };
    clients.push(made);
    return made;
  };

  /** A log line of either process, by request id (the lines travel through pipes: waited for, bounded). */
  const logLine = async (requestId: string): Promise<{ process: number; line: Record<string, unknown> }> => {
    for (let waited = 0; waited < 5000; waited += 20) {
      for (const [index, p] of processes.entries()) {
        const text = p
          .stdout()
          .split('\n')
          .find((l) => l.includes(`"request_id":"${requestId}"`) && l.includes('"msg":"request'));
        if (text !== undefined) return { process: index, line: JSON.parse(text) as Record<string, unknown> };
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no log line for request ${requestId}`);
  };

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  let operator: HttpsClient;
  const newClient = async (name: string): Promise<{ id: number; token: string }> => {
    const res = await operator.send('POST', '/admin/clients', { headers: bearer(ADMIN_TOKEN), body: { name } });
    expect(res.status, res.text).to.equal(201);
    const created = JSON.parse(res.text) as { client: { id: number }; token: string };
    return { id: created.client.id, token: created.token };
  };

  before(async function () {
    const nginxPath = executable('nginx');
    const openssl = executable('openssl');
    const missing = nginxPath === undefined ? 'nginx' : openssl === undefined ? 'openssl' : undefined;
    if (missing !== undefined) {
      const reason = `${missing} is not installed (Debian: apt-get install nginx-light openssl; .ci/run does it)`;
      if (process.env['CI'] === 'true') throw new Error(`behind nginx: ${reason}; CI must run this test`);
      console.log(`    (skipped: ${reason})`);
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'debtkit-nginx-'));
    // nginx's workers (nobody, when the test runs as root) must reach the temp directories under it.
    chmodSync(dir, 0o755);
    for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, 'tmp', sub), { recursive: true });
    chmodSync(join(dir, 'tmp'), 0o755);
    const made = spawnSync(
      openssl!,
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`openssl could not make the certificate: ${made.stderr}`);
    certificate = readFileSync(join(dir, 'cert.pem'), 'utf8');

    port = await freePort();
    const env = {
      DEBTKIT_ENV: 'production',
      DEBTKIT_BUREAU: 'sandbox',
      DEBTKIT_STORE: 'mongo',
      MONGODB_URL: `${wire().url.replace(/\/?$/, '')}/debtkit_nginx_${process.pid}`,
      DEBTKIT_ADMIN_TOKEN: ADMIN_TOKEN,
      DEBTKIT_TRUSTED_PROXIES: PROXY_BIND,
      DEBTKIT_PUBLIC_URL: `https://localhost:${port}`,
      DEBTKIT_AUTH_FAILURE_LIMIT: String(AUTH_FAILURE_LIMIT),
      DEBTKIT_RATE_LIMIT: String(RATE_LIMIT),
      LOG_LEVEL: 'info',
      DEBTKIT_TEST_FROZEN_NOW: String(Date.now()),
    };
    const started = await Promise.allSettled([0, 1].map(() => startCli(env, { nodeArgs: ['--import', FROZEN_CLOCK] })));
    for (const s of started) if (s.status === 'fulfilled') processes.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;

    const upstream = (p: CliProcess) => new URL(p.url).host;
    const site = fillTemplate(readFileSync(NGINX_TEMPLATE, 'utf8'), {
      DEBTKIT_UPSTREAM_1: upstream(processes[0]!),
      DEBTKIT_UPSTREAM_2: upstream(processes[1]!),
      DEBTKIT_LISTEN: `127.0.0.1:${port}`,
      DEBTKIT_SERVER_NAME: 'localhost',
      DEBTKIT_TLS_CERTIFICATE: join(dir, 'cert.pem'),
      DEBTKIT_TLS_CERTIFICATE_KEY: join(dir, 'key.pem'),
      DEBTKIT_PROXY_BIND: PROXY_BIND,
    });
    writeFileSync(join(dir, 'debtkit.conf'), site);
    // The test's own main configuration: nginx in the foreground, everything under `dir`, the site included as conf.d would.
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${join(dir, 'nginx.pid')};`,
        'error_log stderr notice;',
        'events { worker_connections 512; }',
        'http {',
        '    access_log off;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (k) => `    ${k}_temp_path ${join(dir!, 'tmp', k === 'client_body' ? 'body' : k)};`,
        ),
        `    include ${join(dir, 'debtkit.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    const started2 = spawn(nginxPath!, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] });
    nginx = started2;
    await new Promise<void>((resolve, reject) => {
      started2.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        nginxLog += chunk;
        if (/start worker process/.test(nginxLog)) resolve();
      });
      started2.once('exit', (code) => reject(new Error(`nginx exited (${code}) before starting its workers:\n${nginxLog}`)));
    });
    operator = client('127.0.0.2');
  });

  after(async () => {
    for (const c of clients.splice(0)) c.close();
    if (nginx !== undefined && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx!.once('exit', r));
      nginx.kill('SIGTERM');
      await exited;
    }
    await Promise.all(processes.splice(0).map((p) => (p.child.exitCode === null ? p.stop() : p.exited)));
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('serves over TLS through nginx, production answers carry HSTS, and each process logs the forwarded client address and scheme', async () => {
    const integrator = await newClient('Integrator');
    const me = client('127.0.0.3');
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const id = `nginx-log-${i}`;
      ids.push(id);
      const res = await me.send('GET', '/api/users', { headers: { ...bearer(integrator.token), 'X-Request-Id': id } });
      expect(res.status, res.text).to.equal(200);
      expect(res.headers['strict-transport-security']).to.equal('max-age=31536000; includeSubDomains');
      expect(res.headers['x-request-id']).to.equal(id);
    }
    const lines = await Promise.all(ids.map(logLine));
    // Round robin: one request each.
    expect(lines.map((l) => l.process).sort()).to.deep.equal([0, 1]);
    for (const { line } of lines) expect(line).to.include({ ip: '127.0.0.3', scheme: 'https', client_id: integrator.id, status: 200 });
  });

  it("a client's forged X-Forwarded-For is not believed, through nginx or straight to debtkit", async () => {
    const forger = client('127.0.0.4');
    const res = await forger.send('GET', '/healthz', {
      headers: { 'X-Forwarded-For': '198.51.100.77', 'X-Forwarded-Proto': 'http', 'X-Request-Id': 'forged-via-nginx' },
    });
    expect(res.status).to.equal(200);
    expect((await logLine('forged-via-nginx')).line).to.include({ ip: '127.0.0.4', scheme: 'https' });

    // Straight to a debtkit process, from an address it does not trust: the headers are ignored.
    const direct = new URL(processes[0]!.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: direct.hostname,
          port: direct.port,
          path: '/healthz',
          localAddress: '127.0.0.4',
          headers: { 'X-Forwarded-For': '198.51.100.77', 'X-Forwarded-Proto': 'https', 'X-Request-Id': 'forged-direct' },
          agent: false,
        },
        (r) => {
          r.resume();
          r.on('end', () => resolve(r.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).to.equal(200);
    expect((await logLine('forged-direct')).line).to.include({ ip: '127.0.0.4', scheme: 'http' });
  });

  it("nginx's upstream keep-alive is shorter than debtkit's idle close", () => {
    const template = readFileSync(NGINX_TEMPLATE, 'utf8');
    const upstream = /^upstream debtkit \{([\s\S]*?)^\}/m.exec(template)?.[1] ?? '';
    const timeout = /^\s*keepalive_timeout (\d+)s;/m.exec(upstream)?.[1];
    expect(timeout, 'keepalive_timeout in the upstream block').to.be.a('string');
    expect(Number(timeout) * 1000).to.be.below(DEFAULT_CONNECTION_RULES.keepAliveTimeoutMs);
  });

  it('a failed-authentication flood from one address leaves every other address, and every token already working from it, served', async () => {
    const integrator = await newClient('Behind the NAT');
    const nat = client('127.0.0.5');
    // Working from the NAT address on both processes before the flood.
    const warm: string[] = [];
    for (let i = 0; i < 4; i++) {
      const id = `nat-warm-${i}`;
      warm.push(id);
      expect((await nat.send('GET', '/api/users', { headers: { ...bearer(integrator.token), 'X-Request-Id': id } })).status).to.equal(200);
    }
    expect(new Set((await Promise.all(warm.map(logLine))).map((l) => l.process)).size).to.equal(2);

    // The flood, from the same address, all at once: the limit is exact across both processes (one counter in MongoDB).
    const flood = await Promise.all(
      Array.from({ length: 2 * AUTH_FAILURE_LIMIT }, () => nat.send('GET', '/api/users', { headers: bearer(generateToken('production')) })),
    );
    const counted: Record<number, number> = {};
    for (const r of flood) counted[r.status] = (counted[r.status] ?? 0) + 1;
    expect(counted).to.deep.equal({ 401: AUTH_FAILURE_LIMIT, 429: AUTH_FAILURE_LIMIT });
    // Forging another address does not help the attacker.
    expect(
      (await nat.send('GET', '/api/users', { headers: { ...bearer(generateToken('production')), 'X-Forwarded-For': '127.0.0.6' } })).status,
    ).to.equal(429);

    // The token already working there is served, by either process; the operator too.
    for (let i = 0; i < 4; i++) expect((await nat.send('GET', '/api/users', { headers: bearer(integrator.token) })).status).to.equal(200);
    expect((await nat.send('GET', '/admin/clients', { headers: bearer(ADMIN_TOKEN) })).status).to.equal(200);
    expect((await nat.send('GET', '/metrics', { headers: bearer(ADMIN_TOKEN) })).status).to.equal(200);

    // What stays refused there: a token no process has seen work yet. From any other address it works.
    const fresh = await newClient('New integrator');
    for (let i = 0; i < 2; i++) expect((await nat.send('GET', '/api/users', { headers: bearer(fresh.token) })).status).to.equal(429);
    const elsewhere = client('127.0.0.6');
    for (let i = 0; i < 2; i++) expect((await elsewhere.send('GET', '/api/users', { headers: bearer(fresh.token) })).status).to.equal(200);
  });

  it('the per-client rate limit holds across both processes', async () => {
    const busy = await newClient('Busy');
    const me = client('127.0.0.7');
    const statuses: number[] = [];
    // A budget of RATE_LIMIT a second plus a burst of as many, counted once for both processes.
    const total = 2 * RATE_LIMIT + 10;
    for (let batch = 0; batch < total / 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => me.send('POST', '/api/ping', { headers: bearer(busy.token), body: { payload: 'p' } })),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s === 200)).to.have.length(2 * RATE_LIMIT);
    expect(statuses.filter((s) => s === 429)).to.have.length(total - 2 * RATE_LIMIT);
  });

  it('an Idempotency-Key holds across both processes', async () => {
    const keyed = await newClient('Keyed');
    const me = client('127.0.0.3');
    const answers = [];
    for (let i = 0; i < 2; i++) {
      answers.push(
        await me.send('POST', '/api/users', {
          headers: { ...bearer(keyed.token), 'Idempotency-Key': 'nginx-key-1', 'X-Request-Id': `keyed-${i}` },
          body: { last_name: 'Once' },
        }),
      );
    }
    expect(answers.map((a) => a.status)).to.deep.equal([201, 201]);
    expect(answers[1]!.headers['idempotent-replayed']).to.equal('true');
    expect(answers[1]!.text).to.equal(answers[0]!.text);
    const [first, second] = await Promise.all([logLine('keyed-0'), logLine('keyed-1')]);
    expect(first.process).not.to.equal(second.process);
    const list = await me.send('GET', '/api/users', { headers: bearer(keyed.token) });
    expect((JSON.parse(list.text) as { users: unknown[] }).users).to.have.length(1);
  });

  it('SIGTERM to one process while nginx keeps sending: every answer is 2xx, 502 or 503, and every keyed POST retried after a 502 or 503 commits exactly once', async () => {
    const WRITERS = 3;
    const KEYS = 12;
    const writers = await Promise.all(Array.from({ length: WRITERS }, (_, w) => newClient(`Writer ${w}`)));
    const reader = await newClient('Reader');
    const seen: number[] = [];
    let done = 0;
    let stopping: Promise<number | null> | undefined;
    const write = async (w: number): Promise<void> => {
      const me = client(`127.0.1.${w + 1}`);
      for (let k = 0; k < KEYS; k++) {
        for (let attempt = 0; ; attempt++) {
          const res = await me.send('POST', '/api/users', {
            headers: { ...bearer(writers[w]!.token), 'Idempotency-Key': `sigterm-${w}-${k}` },
            body: { last_name: `Writer${w}-${k}` },
          });
          seen.push(res.status);
          if (res.status !== 502 && res.status !== 503) break;
          expect(attempt, 'retries of one key').to.be.below(20);
        }
        // A third of the way through, the first process is told to stop.
        if (++done === Math.floor((WRITERS * KEYS) / 3)) stopping = processes[0]!.stop();
      }
    };
    let writing = true;
    const read = async (): Promise<void> => {
      const me = client('127.0.1.9');
      for (let i = 0; writing && i < 2 * RATE_LIMIT - 5; i++)
        seen.push((await me.send('GET', '/api/users?limit=1', { headers: bearer(reader.token) })).status);
    };
    const reading = read();
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => write(w)));
    writing = false;
    await reading;

    expect(stopping, 'the first process was stopped mid-way').not.to.equal(undefined);
    expect(await stopping).to.equal(0);
    const unexpected = seen.filter((s) => !(s >= 200 && s < 300) && s !== 502 && s !== 503);
    expect(unexpected, `statuses: ${JSON.stringify(seen)}`).to.deep.equal([]);

    // Exactly once: each writer has one user per key.
    const checker = client('127.0.1.10');
    for (const [w, writer] of writers.entries()) {
      const list = await checker.send('GET', '/api/users?limit=100', { headers: bearer(writer.token) });
      expect(list.status, list.text).to.equal(200);
      const names = (JSON.parse(list.text) as { users: Array<{ last_name: string }> }).users.map((u) => u.last_name).sort();
      expect(names).to.deep.equal(Array.from({ length: KEYS }, (_, k) => `Writer${w}-${k}`).sort());
    }
  });
});
