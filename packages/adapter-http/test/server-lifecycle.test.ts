/**
 * Graceful shutdown (docs/operations.md): stop accepting, let the request in flight
 * finish, then stop. In-process, on a free port.
 */
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import { loadConfig } from '../src/main/config.js';
import { startServer, startupLines } from '../src/main/server.js';
import { generateToken } from '../src/http/token-issuer.js';
import * as E from 'fp-ts/lib/Either.js';
import { deferred } from './support/http-harness.js';

const configFor = (env: Record<string, string>) => {
  const config = loadConfig({ PORT: '0', ...env });
  if (E.isLeft(config)) throw new Error(config.left);
  return config.right;
};

const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

/**
 * A server whose keep-alive and grace period both outlast the test's timeout (a test of the
 * shutdown ends in time only if the server itself closes the connections), and the first
 * request's arrival.
 */
const startOutlastingTheTest = async () => {
  const token = generateToken('sandbox');
  const running = await startServer({
    config: configFor({ DEBTKIT_BOOTSTRAP_TOKEN: token }),
    logger: pino({ level: 'silent' }),
    connectionRules: { keepAliveTimeoutMs: 60_000 },
    graceMs: 60_000,
  });
  const arrived = deferred();
  running.server.once('request', () => arrived.resolve());
  return { token, running, port: Number(new URL(running.url).port), arrived };
};

describe('server lifecycle', () => {
  it('prints the listen line with the configured host and the bound port, then the demo token it chose', async () => {
    const config = configFor({});
    const running = await startServer({ config, logger: pino({ level: 'silent' }) });
    try {
      const port = new URL(running.url).port;
      const token = running.demo!.token;
      expect(token).to.match(/^dk_sandbox_/);
      expect(startupLines(config, running)).to.deep.equal([
        `debtkit listening on http://127.0.0.1:${port} (sandbox, memory store)`,
        `demo token: ${token}`,
        `try: curl -s -H "Authorization: Bearer ${token}" http://127.0.0.1:${port}/api/users/1/credit_scores`,
      ]);
    } finally {
      await running.shutdown();
    }
  });

  it('prints only a hint of an operator-set DEBTKIT_BOOTSTRAP_TOKEN, never the token', async () => {
    const token = generateToken('sandbox');
    const config = configFor({ DEBTKIT_BOOTSTRAP_TOKEN: token });
    const running = await startServer({ config, logger: pino({ level: 'silent' }) });
    try {
      const port = new URL(running.url).port;
      const lines = startupLines(config, running);
      expect(lines).to.deep.equal([
        `debtkit listening on http://127.0.0.1:${port} (sandbox, memory store)`,
        `demo token: the one in DEBTKIT_BOOTSTRAP_TOKEN (ending …${token.slice(-4)})`,
        `try: curl -s -H "Authorization: Bearer $DEBTKIT_BOOTSTRAP_TOKEN" http://127.0.0.1:${port}/api/users/1/credit_scores`,
      ]);
      expect(lines.join('\n')).not.to.contain(token.slice(0, -4));
    } finally {
      await running.shutdown();
    }
  });

  it('prints no token when not seeding', async () => {
    const config = configFor({ DEBTKIT_SEED: 'false' });
    const running = await startServer({ config, logger: pino({ level: 'silent' }) });
    await running.shutdown();
    expect(startupLines(config, running)).to.have.length(1);
  });

  it('finishes the request in flight, refuses new connections, then stops', async () => {
    // The client's agent keeps its connections without a deadline: the test ends in time only if the
    // server closes the connection once the response in flight has finished.
    const { token, running, port, arrived } = await startOutlastingTheTest();

    // A request whose body is only half sent: in flight until the test sends the rest.
    const response = deferred<IncomingMessage>();
    const req = httpRequest({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/api/ping',
      agent: new Agent({ keepAlive: true }),
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
    });
    req.on('response', (res) => response.resolve(res));
    req.write('{"payload":');
    await arrived.promise;

    let stopped = false;
    const stopping = running.shutdown().then(() => (stopped = true));
    expect(await refused(port)).to.equal(true);
    expect(stopped).to.equal(false);

    req.end('"last words"}');
    const res = await response.promise;
    let body = '';
    for await (const chunk of res) body += String(chunk);
    expect(res.statusCode).to.equal(200);
    expect(JSON.parse(body)).to.deep.equal({ payload: 'last words' });

    await stopping;
    expect(stopped).to.equal(true);
  });

  it('answers a request that arrives on a kept connection during the shutdown with Connection: close, then closes it', async () => {
    const { token, running, port, arrived } = await startOutlastingTheTest();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const head = (path: string, extra: string): string => `${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n${extra}\r\n`;
    // The first request is in flight (its body half sent) when the shutdown starts...
    socket.write(head('POST /api/ping', 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n') + 'b\r\n{"payload":\r\n');
    await arrived.promise;
    const stopping = running.shutdown();
    // ...and the second comes on the same connection after it (pipelined): it is read during the shutdown.
    socket.write('d\r\n"last words"}\r\n0\r\n\r\n' + head('GET /healthz', ''));
    await ended;
    await stopping;
    const answers = received.split('HTTP/1.1 ').slice(1);
    expect(answers.map((a) => a.slice(0, 3))).to.deep.equal(['200', '200']);
    expect(answers[0]!.toLowerCase()).not.to.contain('\r\nconnection: close\r\n');
    expect(answers[1]!.toLowerCase()).to.contain('\r\nconnection: close\r\n');
  });

  it('cuts a request that outlives the grace period', async () => {
    const token = generateToken('sandbox');
    const running = await startServer({
      config: configFor({ DEBTKIT_BOOTSTRAP_TOKEN: token }),
      logger: pino({ level: 'silent' }),
      graceMs: 50,
    });
    const port = Number(new URL(running.url).port);
    const arrived = deferred();
    running.server.once('request', () => arrived.resolve());
    const closed = deferred<string>();
    const req = httpRequest({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/api/ping',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
    });
    req.on('error', (err: NodeJS.ErrnoException) => closed.resolve(err.code ?? 'error'));
    req.write('{"payload":');
    await arrived.promise;
    await running.shutdown();
    expect(await closed.promise).to.equal('ECONNRESET');
  });
});
