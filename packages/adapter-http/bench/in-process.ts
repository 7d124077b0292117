/**
 * `npm run bench:in-process`: CPU per request through each app's request
 * listener, in this process, with sockets that go nowhere (no syscalls, no
 * network, no load generator). Steadier than the loopback benchmark on shared
 * cores, and it shows what the JavaScript costs on its own:
 *
 *   bare     the benchmark's bare Koa app (bare-app.ts), debtkit's route table
 *   peer     the hand-written peer (peer-app.ts), the same table and bodies
 *   tight    the bare app with only the per-request work debtkit's answers
 *            require, as one middleware in front of it (tight-app.ts): request
 *            id, the ten headers, a token Map, the rate limiter, the body,
 *            metrics and the log line
 *   debtkit  the production server's app (startServer: memory store, demo seed,
 *            the whole pipeline, log lines at info to /dev/null)
 *
 * For each of the three target routes (the credit score GET, the account GET,
 * `POST /api/ping`; `BENCH_ROUTES` picks some by name) every app answers the
 * route in batches of 50 concurrent requests; the apps take turns for
 * BENCH_ROUNDS (5) rounds and the least CPU per request of each is printed (the
 * rounds another process disturbed lose).
 */
import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import { Duplex } from 'node:stream';
import { API_ENDPOINTS, BUILTIN_ENDPOINTS } from '../src/http/routes/index.js';
import { createServerLogger } from '../src/main/log-destination.js';
import { startServer } from '../src/main/server.js';
import { createBareApp, type RoutePattern } from './bare-app.js';
import { benchConfig } from './bench-config.js';
import { benchRoutes, type BenchRoute, type CannedResponse } from './bench-routes.js';
import { createPeerApp } from './peer-app.js';
import { createTightApp } from './tight-app.js';

const BATCH = 50;
const REQUESTS = 40_000;
/** The routes docs/performance.md's targets name. */
const TARGETS = ['credit score', 'account', 'ping'];

/** Answer `route` once through `listener` on a socket that swallows what is written; resolves with the status once the response finished. */
const inject = (listener: RequestListener, route: BenchRoute, headers: Readonly<Record<string, string>>): Promise<number> =>
  new Promise((resolve) => {
    const socket = new Duplex({
      read() {},
      write(_chunk, _encoding, callback) {
        callback();
      },
    });
    const req = new IncomingMessage(socket as never);
    req.method = route.method;
    req.url = route.path;
    req.httpVersion = '1.1';
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    Object.assign(req.headers, headers);
    for (const [name, value] of Object.entries(route.headers)) req.headers[name.toLowerCase()] = value;
    if (route.body !== undefined) {
      req.headers['content-length'] = String(Buffer.byteLength(route.body));
      req.push(route.body);
    }
    req.push(null);
    req.complete = true;
    const res = new ServerResponse(req);
    res.assignSocket(socket as never);
    res.once('finish', () => resolve(res.statusCode));
    listener(req, res);
  });

/** CPU µs per request over `count` requests in batches. */
const measure = async (
  listener: RequestListener,
  route: BenchRoute,
  headers: Readonly<Record<string, string>>,
  count: number,
): Promise<number> => {
  const before = process.cpuUsage();
  for (let done = 0; done < count; done += BATCH) await Promise.all(Array.from({ length: BATCH }, () => inject(listener, route, headers)));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
};

interface App {
  readonly name: string;
  readonly listener: RequestListener;
  readonly headers: Record<string, string>;
}

const main = async (): Promise<void> => {
  const rounds = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? 5));
  const wanted = process.env['BENCH_ROUTES']?.split(',').map((name) => name.trim()) ?? TARGETS;
  const config = benchConfig();
  const log = createServerLogger({ level: config.logLevel, dest: '/dev/null' });
  const running = await startServer({ config, logger: log.logger });
  try {
    if (running.demo?.userId === undefined) throw new Error('the server was started without the demo seed');
    const { token, userId } = running.demo;
    const auth = { Authorization: `Bearer ${token}` };
    const accounts = await fetch(`${running.url}/api/users/${userId}/accounts?limit=1`, { headers: auth });
    const apiVersion = accounts.headers.get('api-version') ?? '';
    const accountId = ((await accounts.json()) as { accounts: Array<{ id: number }> }).accounts[0]?.id;
    if (accountId === undefined) throw new Error('the demo user has no account');
    const routes = benchRoutes({ userId, accountId }).filter((r) => wanted.includes(r.name));
    if (routes.length === 0)
      throw new Error(
        `BENCH_ROUTES names none of: ${benchRoutes({ userId, accountId })
          .map((r) => r.name)
          .join(', ')}`,
      );
    // debtkit's answers, captured, are what the bare app and the peer serve.
    const canned: CannedResponse[] = [];
    for (const route of routes) {
      const init = route.body === undefined ? {} : { method: route.method, body: route.body };
      const answer = await fetch(running.url + route.path, { ...init, headers: { ...auth, ...route.headers } });
      if (answer.status < 200 || answer.status > 299)
        throw new Error(`debtkit answered ${route.method} ${route.path} with ${answer.status}`);
      canned.push({
        method: route.method,
        pattern: route.pattern,
        status: answer.status,
        body: (await answer.json()) as unknown,
        gzip: route.gzip,
      });
    }
    const table: RoutePattern[] = [...BUILTIN_ENDPOINTS, ...API_ENDPOINTS].map((e) => ({ method: e.method, pattern: e.path }));
    // The first listener is the Koa app's (startServer adds one for its shutdown after it).
    const debtkit = running.server.listeners('request')[0] as RequestListener;
    const bearer = { host: 'localhost', authorization: `Bearer ${token}` };
    console.log(`in process (no sockets), least CPU per request of ${rounds} rounds of ${REQUESTS.toLocaleString('en-US')}:`);
    for (const [i, route] of routes.entries()) {
      const apps: App[] = [
        { name: 'bare', listener: createBareApp(canned, table).callback(), headers: { host: 'localhost' } },
        {
          name: 'peer',
          listener: createPeerApp(canned, table, { token, apiVersion, logDestination: '/dev/null' }).callback(),
          headers: bearer,
        },
        {
          name: 'tight',
          listener: createTightApp(canned, table, { token, apiVersion, logDestination: '/dev/null' }).callback(),
          headers: bearer,
        },
        { name: 'debtkit', listener: debtkit, headers: bearer },
      ];
      for (const app of apps) {
        const status = await inject(app.listener, route, app.headers);
        if (status !== canned[i]!.status) throw new Error(`${app.name} answered ${route.method} ${route.path} with ${status}`);
        await measure(app.listener, route, app.headers, 5_000);
      }
      const best = new Map<string, number>();
      for (let round = 0; round < rounds; round++) {
        for (const app of apps)
          best.set(app.name, Math.min(best.get(app.name) ?? Infinity, await measure(app.listener, route, app.headers, REQUESTS)));
      }
      const bare = best.get('bare')!;
      const peer = best.get('peer')!;
      console.log(`${route.method} ${route.path} (${route.name}):`);
      for (const app of apps) {
        const micros = best.get(app.name)!;
        console.log(
          `  ${app.name.padEnd(8)} ${micros.toFixed(1).padStart(6)} µs   ${(micros / bare).toFixed(2)}× bare   ${(micros / peer).toFixed(2)}× peer`,
        );
      }
    }
  } finally {
    await running.shutdown();
    await log.close();
  }
};

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
