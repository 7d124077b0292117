/**
 * The measured process of the instruction guard (docs/performance.md, "The
 * instruction guard"; round 5). `instruction-guard.ts` runs it under
 * `valgrind --tool=callgrind` with node's `--single-threaded`; it is never a
 * benchmark of its own (alone it only prints what it would measure).
 *
 * It starts debtkit's production server (startServer with the bench
 * configuration: memory store, demo seed, every feature on) and, for each
 * measured thing, runs a warm-up, then one window of a fixed number of
 * iterations, in this process, one after another:
 *
 *   a route         the request through the app's request listener on a socket
 *                   that goes nowhere (as `bench:in-process` does), awaited one
 *                   at a time
 *   a computation   core's `planPayoff`, `comparePayoffStrategies` or
 *                   `creditOutlook` on the bench's 50-debt input
 *
 * Collection is switched on around each window only: callgrind zeroes its
 * counters when the process enters `uv_os_getpriority` (`os.getPriority()`,
 * which nothing else here calls) and dumps them when it enters `uv_loadavg`
 * (`os.loadavg()`, likewise), so each dump holds one window and nothing of the
 * start, the warm-up or the shutdown. The windows' names are printed to stdout
 * in order (`window <name> <iterations>`), one line each.
 *
 * Wall-clock caches are frozen, and nothing in the process runs by the wall
 * clock during a window, since a window under valgrind lasts fifty times longer
 * and longer still on a loaded machine:
 * - `performance.now` and `Date.now` return one instant for the whole run: the
 *   1 s token cache never expires mid-run, the rate limit's windows and the seen
 *   tokens never roll, and the admission queue's and the metrics' durations are
 *   the same every time;
 * - the request lines are built by the production writer (a plain pino logger)
 *   and handed to a stream that drops them, where the server's destination
 *   would hand them over every 20 ms of wall clock;
 * - the webhook worker polls once a day instead of once a second.
 *
 *   node --single-threaded instructions.js [--root <dir>] [--scale <k>] [names…]
 *
 * `--root` measures another checkout's build (the `--against` ref's worktree):
 * its server, its configuration and its core, imported from its `dist`.
 * `--scale` multiplies every warm-up and window (a CPU profile wants more).
 */
import { execFileSync } from 'node:child_process';
import { getPriority, loadavg } from 'node:os';
import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import { join, resolve as resolvePath } from 'node:path';
import { Duplex } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

/** What one window measures and how many times. */
interface Measured {
  readonly name: string;
  readonly kind: 'route' | 'computation' | 'refusal';
  /** Iterations in the window (the budget is per iteration). */
  readonly iterations: number;
  readonly warmup: number;
}

/** The measured things, in the order they run; the guard's budgets are kept by these names. */
const MEASURED: ReadonlyArray<Measured> = [
  // 10,000 requests of warm-up: after 3,000, V8 was still compiling a route's path inside its window (the credit
  // score's window held about 160,000 instructions per request of compilation, and moved by 25% with unrelated changes).
  { name: 'credit score', kind: 'route', iterations: 200, warmup: 10_000 },
  { name: 'account', kind: 'route', iterations: 200, warmup: 10_000 },
  { name: 'ping', kind: 'route', iterations: 200, warmup: 10_000 },
  { name: 'payoff plan', kind: 'computation', iterations: 30, warmup: 60 },
  { name: 'payoff comparison', kind: 'computation', iterations: 10, warmup: 30 },
  { name: 'credit outlook', kind: 'computation', iterations: 12, warmup: 30 },
  // Then a keyed payment, after the windows that were there before it (issue 44 item 3).
  { name: 'keyed payment', kind: 'route', iterations: 200, warmup: 10_000 },
  // Last, on a second server whose client is over its rate limit: what a flood's refusals cost (issue 43 item 2).
  { name: 'refusal', kind: 'refusal', iterations: 200, warmup: 3000 },
];

interface Route {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Each request carries an `Idempotency-Key` of its own (a new key: the change runs, nothing is replayed). */
  readonly keyed?: true;
}

/** Keys drawn so far by keyed routes (one new key per request). */
let keys = 0;

/** Answer `route` once through `listener` on a socket that swallows what is written; resolves with the status and the body once finished. */
const inject = (
  listener: RequestListener,
  route: Route,
  headers: Readonly<Record<string, string>>,
): Promise<{ status: number; body: string }> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    // A loopback peer, as over a socket: the client's address is computed from it.
    Object.defineProperty(socket, 'remoteAddress', { value: '127.0.0.1' });
    const req = new IncomingMessage(socket as never);
    req.method = route.method;
    req.url = route.path;
    req.httpVersion = '1.1';
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    Object.assign(req.headers, headers);
    for (const [name, value] of Object.entries(route.headers)) req.headers[name.toLowerCase()] = value;
    if (route.keyed === true) req.headers['idempotency-key'] = `guard-${(keys += 1)}`;
    if (route.body !== undefined) {
      req.headers['content-length'] = String(Buffer.byteLength(route.body));
      req.push(route.body);
    }
    req.push(null);
    req.complete = true;
    const res = new ServerResponse(req);
    res.assignSocket(socket as never);
    res.once('finish', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      chunks.length = 0;
      resolve({ status: res.statusCode, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    listener(req, res);
  });

const importFrom = (root: string, path: string): Promise<any> => import(pathToFileURL(join(root, path)).href);

const main = async (): Promise<void> => {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const here = resolvePath(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
  const root = rootAt === -1 ? here : resolvePath(args[rootAt + 1] ?? '.');
  const scaleAt = args.indexOf('--scale');
  const scale = scaleAt === -1 ? 1 : Number(args[scaleAt + 1]);
  if (!(scale > 0)) throw new Error('--scale takes a positive number');
  const names = args.filter((a, i) => !a.startsWith('--') && (rootAt === -1 || i !== rootAt + 1) && (scaleAt === -1 || i !== scaleAt + 1));
  const chosen = (names.length === 0 ? MEASURED : MEASURED.filter((m) => names.includes(m.name))).map((m) => ({
    ...m,
    iterations: Math.round(m.iterations * scale),
    warmup: Math.round(m.warmup * scale),
  }));
  if (names.length > 0 && chosen.length !== names.length) {
    throw new Error(`unknown name among ${JSON.stringify(names)} (known: ${MEASURED.map((m) => m.name).join(', ')})`);
  }

  // Frozen before anything reads it: the token cache, admission and metrics see one instant.
  const frozen = performance.now();
  performance.now = () => frozen;
  const frozenDate = Date.now();
  Date.now = () => frozenDate;

  const http = 'packages/adapter-http/dist';
  const { startServer } = await importFrom(root, `${http}/src/main/server.js`);
  const { default: pino } = await importFrom(root, 'node_modules/pino/pino.js');
  const { benchConfig } = await importFrom(root, `${http}/bench/bench-config.js`);
  const { benchRoutes } = await importFrom(root, `${http}/bench/bench-routes.js`);
  const { benchmarkInput } = await importFrom(root, `${http}/bench/payoff-timing.js`);
  const { outlookBenchmarkInput } = await importFrom(root, `${http}/bench/credit-outlook-timing.js`);
  const core = await importFrom(root, 'packages/core/dist/src/index.js');

  const config = benchConfig();
  const { loadConfig } = await importFrom(root, `${http}/src/main/config.js`);
  /** A second server, as the bench's, whose demo client may send 1 request a second. */
  const refusingServer = async (): Promise<{ listener: RequestListener; token: string; userId: number; shutdown(): Promise<void> }> => {
    const env = { HOST: '127.0.0.1', PORT: '0', DEBTKIT_ENV: 'sandbox', DEBTKIT_STORE: 'memory', DEBTKIT_SEED: 'true', LOG_LEVEL: 'info' };
    // Refusals answered at once (DEBTKIT_REFUSAL_HOLD_MS=0): requests sent one at a time would each wait out the hold,
    // a second of wall clock, and the window counts what a refusal costs, not its wait (a held refusal adds one promise).
    const limitedConfig = loadConfig({ ...env, DEBTKIT_RATE_LIMIT: '1', DEBTKIT_CLIENT_CONCURRENCY: '256', DEBTKIT_REFUSAL_HOLD_MS: '0' });
    if (limitedConfig._tag !== 'Right') throw new Error(`refusal: configuration: ${JSON.stringify(limitedConfig.left)}`);
    const server = await startServer({ config: limitedConfig.right, logger, webhooks: { pollMs: 86_400_000 } });
    const demo = server.demo as { token: string; userId: number };
    return { listener: server.server.listeners('request')[0] as RequestListener, ...demo, shutdown: () => server.shutdown() };
  };
  const logger = pino({ level: config.logLevel }, { write: (): void => undefined });
  const running = await startServer({ config, logger, webhooks: { pollMs: 86_400_000 } });
  try {
    const { token, userId } = running.demo as { token: string; userId: number };
    const listener = running.server.listeners('request')[0] as RequestListener;
    const headers = { host: 'localhost', authorization: `Bearer ${token}` };
    const list = await inject(
      listener,
      { name: 'accounts', method: 'GET', path: `/api/users/${userId}/accounts?limit=1`, headers: {} },
      headers,
    );
    const accountId = (JSON.parse(list.body) as { accounts: Array<{ id: number }> }).accounts[0]?.id;
    if (accountId === undefined) throw new Error(`could not list the demo user's accounts (status ${list.status})`);
    // The keyed payment (docs/decisions/transaction-owner.md): a payment of 1 cent under a plan over the demo accounts, a new key each time.
    const created = await inject(
      listener,
      {
        name: 'plan',
        method: 'POST',
        path: `/api/users/${userId}/payment_plans`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ strategy: 'avalanche', monthly_payment: 500_000 }),
      },
      headers,
    );
    const planId = (JSON.parse(created.body) as { id?: number }).id;
    if (planId === undefined) throw new Error(`could not create a payment plan (status ${created.status}): ${created.body}`);
    const keyedPayment: Route = {
      name: 'keyed payment',
      method: 'POST',
      path: `/api/users/${userId}/payment_plans/${planId}/payments`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account_id: accountId, amount: 1 }),
      keyed: true,
    };
    const routes = [...(benchRoutes({ userId, accountId }) as ReadonlyArray<Route>), keyedPayment];

    const plan = benchmarkInput();
    const { strategy: _avalanche, ...budget } = plan;
    const comparison = {
      ...budget,
      customOrder: [...plan.debts].sort((a: any, b: any) => a.apr - b.apr || a.id - b.id).map((d: any) => d.id),
    };
    const outlook = outlookBenchmarkInput();
    const computations: Record<string, () => unknown> = {
      'payoff plan': () => core.planPayoff(plan),
      'payoff comparison': () => core.comparePayoffStrategies(comparison),
      'credit outlook': () => core.creditOutlook(outlook),
    };

    // Under the guard, callgrind starts with instrumentation off (`--instr-atstart=no`: the start
    // and the warm-ups run several times faster) and this process switches it on around each
    // window, waiting for callgrind_control (vgdb wakes a process blocked in a wait with ptrace).
    const underGuard = process.env['DEBTKIT_INSTRUCTION_GUARD'] === '1';
    const instrumentation = (on: boolean): void => {
      if (underGuard)
        execFileSync('callgrind_control', [`--instr=${on ? 'on' : 'off'}`, String(process.pid)], { stdio: 'ignore', timeout: 120_000 });
    };
    const open = (): void => {
      instrumentation(true);
      getPriority();
    };
    const close = (): void => {
      loadavg();
      instrumentation(false);
    };

    for (const m of chosen) {
      if (m.kind === 'refusal') {
        // The credit score read by a client over its rate limit (1 a second, frozen time: its window never ends),
        // through a second server started for it: every answer is the 429 a flooding client gets.
        const limited = await refusingServer();
        try {
          const route = routes.find((r) => r.name === 'credit score')!;
          const over = { ...headers, authorization: `Bearer ${limited.token}` };
          const path = route.path.replace(`/users/${userId}/`, `/users/${limited.userId}/`);
          const refused = { ...route, path };
          for (let i = 0; i < 20 && (await inject(limited.listener, refused, over)).status !== 429; i++);
          for (let i = 0; i < m.warmup; i++) await inject(limited.listener, refused, over);
          let others = 0;
          open();
          for (let i = 0; i < m.iterations; i++) if ((await inject(limited.listener, refused, over)).status !== 429) others += 1;
          close();
          if (others > 0) throw new Error(`refusal: ${others} of ${m.iterations} requests in the window were not refused`);
        } finally {
          await limited.shutdown();
        }
      } else if (m.kind === 'route') {
        const route = routes.find((r) => r.name === m.name);
        if (route === undefined) throw new Error(`the bench has no route named ${m.name}`);
        const first = await inject(listener, route, headers);
        if (first.status < 200 || first.status > 299) throw new Error(`${m.name} answered ${first.status}: ${first.body}`);
        for (let i = 0; i < m.warmup; i++) await inject(listener, route, headers);
        open();
        for (let i = 0; i < m.iterations; i++) await inject(listener, route, headers);
        close();
      } else {
        const compute = computations[m.name]!;
        const first = compute() as { _tag?: string };
        if (first._tag !== 'Right') throw new Error(`${m.name}: the bench input is refused`);
        for (let i = 0; i < m.warmup; i++) compute();
        open();
        for (let i = 0; i < m.iterations; i++) compute();
        close();
      }
      process.stdout.write(`window ${m.name.replace(/ /g, '_')} ${m.iterations}\n`);
    }
  } finally {
    await running.shutdown();
  }
};

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`instructions failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
