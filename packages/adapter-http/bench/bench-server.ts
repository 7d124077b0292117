/**
 * The server side of `npm run bench`, run in a child process so the server
 * and the load generator (autocannon, in the parent) each get a core of their
 * own instead of competing for one event loop.
 *
 *   bench-server debtkit   the production server (`startServer`, as `npm start`
 *                          runs it): memory store, sandbox demo seeded, request
 *                          logs at `info` through the CLI's non-blocking logger
 *                          written to /dev/null, so logging costs
 *                          what it costs in production, minus the terminal
 *   bench-server bare      the floor: bare Koa + @koa/router; waits for its canned responses
 *   bench-server peer      the hand-written peer (peer-app.ts); waits for its canned responses
 *   bench-server tight     the floor plus the required per-request work (tight-app.ts); waits for its canned responses
 *   bench-server limit     node:http answering the same bytes (limit-app.ts); waits for them
 *
 * Talks to the parent over IPC: one `ServerReady` message once listening, then
 * a `CpuTime` answer to each `CpuQuery` (the CPU time this process has used, so
 * the parent can report CPU per request, which competing load on the machine
 * disturbs far less than requests per second); it exits when the parent disconnects.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { benchConfig } from './bench-config.js';
import { startServer } from '../src/main/server.js';
import { createServerLogger } from '../src/main/log-destination.js';
import { createBareApp, type RoutePattern } from './bare-app.js';
import { createPeerApp } from './peer-app.js';
import { createTightApp } from './tight-app.js';
import { createLimitServer } from './limit-app.js';
import type { CannedResponse } from './bench-routes.js';

export type ServerRole = 'debtkit' | 'bare' | 'peer' | 'tight' | 'limit';

export interface ServerReady {
  readonly kind: 'ready';
  readonly url: string;
  /** debtkit only: the demo client's token and user. */
  readonly demo?: { readonly token: string; readonly userId: number };
}

export interface ServeCanned {
  readonly kind: 'serve';
  readonly responses: ReadonlyArray<CannedResponse>;
  /** debtkit's whole route table, registered on the bare app too. */
  readonly table: ReadonlyArray<RoutePattern>;
  /** The concrete path of each response, in the same order (the limit app answers by path). */
  readonly paths: ReadonlyArray<string>;
  /** The demo client's token (the peer checks it) and the API-Version debtkit answers. */
  readonly token: string;
  readonly apiVersion: string;
}

export interface CpuQuery {
  readonly kind: 'cpu';
}

export interface CpuTime {
  readonly kind: 'cpu';
  /** User plus system CPU time of this process (all its threads), in microseconds. */
  readonly micros: number;
}

const send = (message: ServerReady | CpuTime): void => {
  if (process.send === undefined) throw new Error('bench-server runs as a child of bench (it needs an IPC channel)');
  process.send(message);
};

const startDebtkit = async (): Promise<() => Promise<void>> => {
  const config = benchConfig();
  // The production logger (non-blocking destination), writing to /dev/null instead of stdout.
  const log = createServerLogger({ level: config.logLevel, dest: '/dev/null' });
  const running = await startServer({ config, logger: log.logger });
  if (running.demo?.userId === undefined) throw new Error('the benchmark server was started without the demo seed');
  send({ kind: 'ready', url: running.url, demo: { token: running.demo.token, userId: running.demo.userId } });
  return async () => {
    await running.shutdown();
    await log.close();
  };
};

const listen = (server: Server): Promise<AddressInfo> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address() as AddressInfo));
  });

const startCanned = async (role: 'bare' | 'peer' | 'tight' | 'limit'): Promise<() => Promise<void>> => {
  const request = await new Promise<ServeCanned>((resolve) => process.once('message', (m) => resolve(m as ServeCanned)));
  const options = { token: request.token, apiVersion: request.apiVersion, logDestination: '/dev/null' };
  const server =
    role === 'bare'
      ? createServer(createBareApp(request.responses, request.table).callback())
      : role === 'peer'
        ? createServer(createPeerApp(request.responses, request.table, options).callback())
        : role === 'tight'
          ? createServer(createTightApp(request.responses, request.table, options).callback())
          : createLimitServer(request.responses.map((response, i) => ({ response, path: request.paths[i]! })));
  const address = await listen(server);
  send({ kind: 'ready', url: `http://127.0.0.1:${address.port}` });
  return () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
};

const role = process.argv[2];
if (role !== 'debtkit' && role !== 'bare' && role !== 'peer' && role !== 'tight' && role !== 'limit') {
  process.stderr.write('usage: bench-server debtkit|bare|peer|tight|limit (started by bench)\n');
  process.exit(2);
}
const stop = await (role === 'debtkit' ? startDebtkit() : startCanned(role));
process.on('message', (message: CpuQuery) => {
  if (message.kind !== 'cpu') return;
  const { user, system } = process.cpuUsage();
  send({ kind: 'cpu', micros: user + system });
});
process.once('disconnect', () => {
  stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
