/**
 * docs/decisions/api-conventions.md on a real listening server: connections that do not behave are
 * closed on time, the connection cap holds, and well-behaved requests keep
 * being answered meanwhile. Deadlines are shortened through `connectionRules`;
 * the only waiting is for the sockets' own close events.
 */
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig } from '../src/main/config.js';
import { startServer, type RunningServer } from '../src/main/server.js';
import { DEFAULT_CONNECTION_RULES, type ConnectionRules } from '../src/main/connection-rules.js';
import { generateToken } from '../src/http/token-issuer.js';

const RULES: ConnectionRules = {
  headersTimeoutMs: 300,
  requestTimeoutMs: 700,
  keepAliveTimeoutMs: 200,
  checkIntervalMs: 50,
  maxConnections: 3,
};
/** How late a close may come on a busy test machine, beyond the deadline and the check interval. */
const SLACK_MS = 1500;

interface Watched {
  readonly socket: Socket;
  /** Milliseconds from connect to close, and what the server wrote before closing. */
  readonly closed: Promise<{ readonly afterMs: number; readonly received: string }>;
}

const open = (port: number, send?: string): Promise<Watched> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const started = Date.now();
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    const closed = new Promise<{ afterMs: number; received: string }>((r) =>
      socket.once('close', () => r({ afterMs: Date.now() - started, received })),
    );
    socket.once('connect', () => {
      if (send !== undefined) socket.write(send);
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });

/** A plain request on its own connection (no agent pooling). */
const get = (port: number, path: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', path, agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end();
  });

describe('connection rules (docs/decisions/api-conventions.md)', () => {
  const token = generateToken('sandbox');
  let running: RunningServer;
  let port: number;

  beforeEach(async () => {
    const config = loadConfig({ PORT: '0', DEBTKIT_BOOTSTRAP_TOKEN: token });
    if (E.isLeft(config)) throw new Error(config.left);
    running = await startServer({ config: config.right, logger: pino({ level: 'silent' }), connectionRules: RULES });
    port = Number(new URL(running.url).port);
  });

  afterEach(() => running.shutdown());

  it('defaults to the deadlines of docs/decisions/api-conventions.md, a silent socket closed within 10 s', () => {
    const d = DEFAULT_CONNECTION_RULES;
    expect(d.headersTimeoutMs + d.checkIntervalMs).to.be.at.most(10_000);
    expect(d).to.include({ requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 10_000 });
  });

  it('closes a socket that sends nothing after the header deadline, answering others meanwhile', async () => {
    const silent = await open(port);
    expect(await get(port, '/healthz')).to.equal(200);
    const { afterMs } = await silent.closed;
    expect(afterMs).to.be.within(RULES.headersTimeoutMs - 50, RULES.headersTimeoutMs + RULES.checkIntervalMs + SLACK_MS);
  });

  it('closes a connection whose headers never finish, with 408', async () => {
    const slow = await open(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const { afterMs, received } = await slow.closed;
    expect(received).to.match(/^HTTP\/1\.1 408 /);
    expect(afterMs).to.be.at.most(RULES.headersTimeoutMs + RULES.checkIntervalMs + SLACK_MS);
  });

  it('closes a request whose body never finishes after the request deadline, with 408', async () => {
    const head = `POST /api/ping HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const slow = await open(port, `${head}{"payload":`);
    expect(await get(port, '/healthz')).to.equal(200);
    const { afterMs, received } = await slow.closed;
    expect(received).to.match(/^HTTP\/1\.1 408 /);
    expect(afterMs).to.be.within(RULES.requestTimeoutMs - 50, RULES.requestTimeoutMs + RULES.checkIntervalMs + SLACK_MS);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const idle = await open(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const { afterMs, received } = await idle.closed;
    expect(received).to.match(/^HTTP\/1\.1 200 /);
    expect(received).to.match(/\r\nKeep-Alive: timeout=\d+\r\n/);
    // Node closes one second after the timeout it announces, so the client closes first.
    expect(afterMs).to.be.within(RULES.keepAliveTimeoutMs, RULES.keepAliveTimeoutMs + 1000 + SLACK_MS);
  });

  it('drops connections over the cap at once, and accepts again when one closes', async () => {
    const held = [await open(port), await open(port), await open(port)];
    const extra = await open(port);
    const dropped = await extra.closed;
    expect(dropped.received).to.equal('');
    expect(dropped.afterMs).to.be.below(RULES.headersTimeoutMs);

    held[0]!.socket.destroy();
    await held[0]!.closed;
    expect(await get(port, '/healthz')).to.equal(200);
    for (const h of held) h.socket.destroy();
  });
});
