/**
 * `npm start` under an orchestrator (docs/operations.md): a SIGTERM to the process group's
 * leader (npm) reaches the server, which finishes the request in flight and
 * exits 0; so does Ctrl-C, which signals the whole group. Runs the root
 * package's real start script (its build step is a no-op after `npm test`'s build).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { generateToken } from '../src/http/token-issuer.js';

const here = fileURLToPath(import.meta.url);
const repoRoot = fileURLToPath(new URL(here.includes('/dist/test/') ? '../../../../' : '../../../', import.meta.url));

interface Started {
  readonly child: ChildProcess;
  readonly port: number;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when the output has a line matching `pattern`. */
  readonly waitFor: (pattern: RegExp) => Promise<void>;
}

const npmStart = (token: string): Promise<Started> =>
  new Promise((resolve, reject) => {
    // Its own process group, as under an orchestrator or a terminal: npm is the leader.
    const child = spawn('npm', ['start'], {
      cwd: repoRoot,
      detached: true,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DEBTKIT_BOOTSTRAP_TOKEN: token, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const waiters: Array<{ pattern: RegExp; done: () => void }> = [];
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      child.once('exit', (code, signal) => r({ code, signal })),
    );
    const onData = (chunk: string): void => {
      out += chunk;
      for (const w of waiters.splice(0)) (w.pattern.test(out) ? w.done : () => waiters.push(w))();
      const match = /^debtkit listening on http:\/\/127\.0\.0\.1:(\d+) /m.exec(out);
      if (match?.[1] !== undefined) {
        resolve({
          child,
          port: Number(match[1]),
          output: () => out,
          exited,
          waitFor: (pattern) => new Promise((done) => (pattern.test(out) ? done() : waiters.push({ pattern, done }))),
        });
      }
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.stderr!.setEncoding('utf8').on('data', onData);
    void exited.then((e) => reject(new Error(`npm start exited (${JSON.stringify(e)}) before listening:\n${out}`)));
  });

/** A request whose headers the server has parsed (it answered 100 Continue) and whose body is not sent yet. */
const requestInFlight = (port: number, token: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
      if (received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) resolve({ socket, received: () => received, closed });
    });
    socket.once('error', reject);
    socket.write(
      `POST /api/ping HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 21\r\nExpect: 100-continue\r\n\r\n',
    );
  });

/** `promise`, or a failure after `ms` (so the test's cleanup still runs when the server never reacts). */
const within = <A>(ms: number, what: string, promise: Promise<A>): Promise<A> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms).unref()),
  ]);

describe('npm start and signals', function () {
  this.timeout(60_000);

  for (const [what, send] of [
    ['SIGTERM to the group leader (npm)', (child: ChildProcess) => process.kill(child.pid!, 'SIGTERM')],
    ['SIGINT to the whole group (Ctrl-C)', (child: ChildProcess) => process.kill(-child.pid!, 'SIGINT')],
  ] as const) {
    it(`${what}: the request in flight finishes, then everything exits 0`, async () => {
      const token = generateToken('sandbox');
      const started = await npmStart(token);
      try {
        const inFlight = await requestInFlight(started.port, token);
        send(started.child);
        await within(15_000, 'the shutdown log line', started.waitFor(/"msg":"shutting down"/));

        inFlight.socket.end('{"payload":"goodbye"}');
        await within(15_000, 'the response', inFlight.closed);
        expect(inFlight.received()).to.match(/\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
        expect(inFlight.received()).to.match(/\r\n\r\n\{"payload":"goodbye"\}$/);
        expect(await within(15_000, 'the exit', started.exited), started.output()).to.deep.equal({ code: 0, signal: null });
      } finally {
        if (started.child.exitCode === null && started.child.signalCode === null) process.kill(-started.child.pid!, 'SIGKILL');
      }
    });
  }
});
