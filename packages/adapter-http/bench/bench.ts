/**
 * `npm run bench`: debtkit's HTTP API against three apps serving the same
 * route table and bodies (docs/performance.md), and the payoff plan microbenchmarks.
 *
 *   debtkit  the production server (`startServer`): memory store, sandbox demo,
 *            every feature on (auth, rate limit at a limit the load never
 *            reaches, Idempotency-Key handling, versioning, validation,
 *            metrics, a log line per request through the server's
 *            non-blocking logger to /dev/null)
 *   peer     the hand-written peer (peer-app.ts): Koa, @koa/router,
 *            @koa/bodyparser, koa-compress, helmet, a pino request logger,
 *            rate-limiter-flexible, a prom-client histogram, a bearer-token Map
 *   tight    (reported, not a target) the floor plus only the per-request
 *            work debtkit's answers require, as one middleware (tight-app.ts):
 *            request id, the ten headers, token Map, rate limiter, body,
 *            metrics, log line; what it costs over the floor is the required
 *            work, what debtkit costs over it is debtkit's own
 *   floor    bare Koa + @koa/router with the same route table, no middleware (bare-app.ts)
 *   limit    node:http answering the same bytes from a Map (limit-app.ts)
 *
 * How it measures:
 * - Each server runs in a child process (bench-server), autocannon runs here in
 *   the parent: on a 2-core machine the server and the load generator get a core
 *   each. The peer, tight, floor and limit answer debtkit's own bodies, captured first
 *   and checked equal. Only loopback (127.0.0.1) is used.
 * - Each route is loaded on the five servers in alternating rounds (debtkit,
 *   peer, tight, floor, limit, debtkit, …) with the same connections, warm-up and
 *   duration, so drifting load on the shared cores falls on all of them; the
 *   ratios are of the totals, and each round's ratios are printed too.
 * - Requests per second are measured at saturation. CPU per request (the
 *   server process, all threads) is measured again for the target routes with
 *   every server at one fixed offered load (60% of the peer's saturated rate,
 *   each warmed up at that load first): a saturated server answers more
 *   requests per event-loop turn and spends less on each, so CPU per request
 *   is compared at equal load.
 * - Every server process (the ref's too) runs with its young generation at one
 *   size, V8's own ceiling (`--min-semi-space-size` and `--max-semi-space-size`
 *   16 MB): the size a server under steady load grows it to. Left to V8, a
 *   server idle between its rounds (while the others are loaded) has it shrunk
 *   (V8 reduces an idle heap) and spends its next measured round growing it
 *   back, scavenging up to eight times as often; how far it had shrunk, and how
 *   much the allocation of each server's requests is charged for it, moved one
 *   server's CPU per request by 10–28% from run to run (docs/performance.md,
 *   round 5, session 9). BENCH_V8_DEFAULTS=1 measures with V8's defaults.
 *
 * Targets (docs/performance.md, "The targets"), for the credit score GET, the account GET
 * and the ping POST each: debtkit ≥ 0.9 × tight's req/s at ≤ 1.1 × its CPU per
 * request (at an equal offered load), and ≥ 1.1 × the peer's req/s; the floor is
 * reported, not a target (tight itself reaches only part of it); payoff plan median < 5
 * ms; payoff strategy comparison median < 10 ms; credit outlook of the 50-debt
 * plan median < 10 ms. A missed target is a result,
 * not an error: the exit status is 0 whenever the measurement itself worked.
 *
 * Settings (environment): BENCH_CONNECTIONS (50), BENCH_DURATION (6 s measured
 * per server and route, split into BENCH_ROUNDS (3) alternating rounds),
 * BENCH_WARMUP (1.5 s, before the first round), BENCH_ROUTES (every route; or a comma-separated list of
 * route names, e.g. `credit score,ping`, to load only those), BENCH_V8_DEFAULTS (1: the servers'
 * young generation left to V8, below).
 *
 * `--against <ref>` (against.ts): the ref (e.g. `round-3`) built once in a worktree outside
 * the tree, cached by commit; its own bench server runs as one more server in the
 * alternating rounds (its answers are not compared with today's), its own pure timings
 * run beside today's, and the targets add: CPU per request within 10% of the ref's at
 * the equal load, and the payoff plan, comparison and outlook no slower than the ref's.
 * `--runs <n>`: n whole runs one after another (the ref built once), then every target's
 * line again with its median over the runs and each run's value (the targets are each
 * the median of three runs: `npm run bench -- --against round-3 --runs 3`).
 * Run without a build: node --conditions=debtkit-source --import tsx packages/adapter-http/bench/bench.ts
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { API_ENDPOINTS, BUILTIN_ENDPOINTS } from '../src/http/routes/index.js';
import type { RoutePattern } from './bare-app.js';
import { benchRoutes, type BenchRoute, type CannedResponse } from './bench-routes.js';
import type { CpuQuery, CpuTime, ServeCanned, ServerReady, ServerRole } from './bench-server.js';
import { loadRoute, type LoadResult, type LoadSettings, type LoadTarget } from './load-run.js';
import { PAYOFF_TARGET_MS, timePayoffPlan } from './payoff-timing.js';
import { COMPARISON_TARGET_MS, timePayoffComparison } from './payoff-comparison-timing.js';
import { OUTLOOK_TARGET_MS, timeCreditOutlook } from './credit-outlook-timing.js';
import { alternatePureTimings, forkRefServer, prepareRef, type PreparedRef, type RefTimings } from './against.js';
import { timeStatementComparison, timeStatementOutlook, timeStatementPlan, type StatementTiming } from './statement-money-timing.js';

const TIGHT_THROUGHPUT_TARGET = 0.9;
const TIGHT_CPU_TARGET = 1.1;
const PEER_THROUGHPUT_TARGET = 1.1;
/** `--against`: CPU per request at most this × the ref's at the equal load (docs/performance.md, round 5: within 10% of the release before). */
const REF_CPU_TARGET = 1.1;
const TARGET_ROUTES = ['credit score', 'account', 'ping'];
/** The equal-load runs offer this share of the peer's saturated rate (the slowest): below every server's capacity even when the machine's other load takes some. */
const EQUAL_LOAD_SHARE = 0.6;
const SERVERS = ['debtkit', 'peer', 'tight', 'floor', 'limit'] as const;
type ServerName = (typeof SERVERS)[number];
const ROLE: Readonly<Record<ServerName, ServerRole>> = { debtkit: 'debtkit', peer: 'peer', tight: 'tight', floor: 'bare', limit: 'limit' };
/** The servers that check the demo client's bearer token. */
const AUTHENTICATING: ReadonlyArray<ServerName> = ['debtkit', 'peer', 'tight'];

/** Every route debtkit registers, in its registration order (built-in endpoints first, then the API's). */
const routeTable = (): RoutePattern[] => [...BUILTIN_ENDPOINTS, ...API_ENDPOINTS].map((e) => ({ method: e.method, pattern: e.path }));

const setting = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number (got ${JSON.stringify(raw)})`);
  return value;
};

/** A steady server's young generation: V8's own ceiling for it (MB per semi-space, x64). */
const SEMI_SPACE_MB = 16;

/** BENCH_V8_DEFAULTS=1: the servers' young generation left to V8. */
const V8_DEFAULTS = process.env['BENCH_V8_DEFAULTS'] === '1';

/** Node flags of every server process: the parent's (tsx under the sources), and the fixed young generation unless BENCH_V8_DEFAULTS=1. */
const serverExecArgv = (): string[] =>
  V8_DEFAULTS
    ? [...process.execArgv]
    : [...process.execArgv, `--min-semi-space-size=${SEMI_SPACE_MB}`, `--max-semi-space-size=${SEMI_SPACE_MB}`];

const youngGeneration = (): string =>
  V8_DEFAULTS ? "V8's default young generation" : `young generation fixed at ${SEMI_SPACE_MB} MB semi-spaces`;

/** The routes BENCH_ROUTES names (all when it is unset); an unknown name is an error, not a silently shorter run. */
const selectRoutes = (all: ReadonlyArray<BenchRoute>): ReadonlyArray<BenchRoute> => {
  const raw = process.env['BENCH_ROUTES'];
  if (raw === undefined || raw.trim() === '') return all;
  const names = raw.split(',').map((n) => n.trim());
  for (const name of names) {
    if (!all.some((r) => r.name === name))
      throw new Error(`BENCH_ROUTES: no route named "${name}" (known: ${all.map((r) => r.name).join(', ')})`);
  }
  return all.filter((r) => names.includes(r.name));
};

interface ServerChild {
  readonly child: ChildProcess;
  readonly ready: ServerReady;
}

/** Start bench-server in `role` (the same file type as this one: .js when built, .ts under tsx). */
const startChild = (role: ServerRole, first?: ServeCanned, forked?: ChildProcess): Promise<ServerChild> => {
  const script = fileURLToPath(new URL(`./bench-server${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
  const child = forked ?? fork(script, [role], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: serverExecArgv() });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, ready: message as ServerReady }));
    child.once('exit', (code) => reject(new Error(`the ${role} server exited with status ${code} before it was ready`)));
    if (first !== undefined) child.send(first);
  });
};

const loadTarget = ({ child, ready }: ServerChild, headers: Readonly<Record<string, string>>): LoadTarget => ({
  baseUrl: ready.url,
  headers,
  cpuMicros: () =>
    new Promise((resolve) => {
      child.once('message', (message) => resolve((message as CpuTime).micros));
      child.send({ kind: 'cpu' } satisfies CpuQuery);
    }),
});

const stopChild = ({ child }: ServerChild): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.disconnect();
  });

interface Captured {
  readonly status: number;
  readonly body: unknown;
  readonly contentEncoding: string | null;
  readonly bytes: number;
}

/** One request, the body decoded (fetch undoes gzip) and the encoding the server chose. */
const capture = async (baseUrl: string, route: BenchRoute, extraHeaders: Readonly<Record<string, string>>): Promise<Captured> => {
  const response = await fetch(baseUrl + route.path, {
    method: route.method,
    headers: { ...route.headers, ...extraHeaders },
    ...(route.body === undefined ? {} : { body: route.body }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: JSON.parse(text) as unknown,
    contentEncoding: response.headers.get('content-encoding'),
    bytes: Buffer.byteLength(text),
  };
};

const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pad = (s: string, width: number): string => s.padStart(width);

const COLUMNS = ['req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'non-2xx', 'errors', 'requests'];
const WIDTHS = [10, 9, 9, 12, 9, 8, 11];
const line = (label: string, cells: ReadonlyArray<string>): string =>
  `  ${label.padEnd(8)}${cells.map((c, i) => pad(c, WIDTHS[i] ?? 10)).join('')}`;
const row = (label: string, r: LoadResult): string =>
  line(label, [
    fmt(r.requestsPerSecond),
    fmt(r.p50Ms),
    fmt(r.p99Ms),
    fmt(r.cpuMicrosPerRequest),
    fmt(r.non2xx),
    fmt(r.errors),
    fmt(r.total),
  ]);

const ratio = (a: number, b: number): number => (b === 0 ? Number.POSITIVE_INFINITY : a / b);

const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');

/** One target's measure in one run: its line without the value, the value, and whether a value meets it. */
interface Score {
  readonly label: string;
  readonly value: number;
  readonly meets: (value: number) => boolean;
  readonly show: (value: number) => string;
}

/** Print a target's line (PASS/FAIL, what, the value and its note) and keep it for the median of the runs. */
const scored = (
  scores: Score[],
  label: string,
  value: number,
  meets: (v: number) => boolean,
  show: (v: number) => string,
  note = '',
): void => {
  scores.push({ label, value, meets, show });
  console.log(`  ${verdict(meets(value))}  ${label}: ${show(value)}${note}`);
};
const times = (v: number): string => `${v.toFixed(2)}×`;
const millis = (v: number): string => `${v.toFixed(3)} ms`;

const middle = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Sum runs of one server into one result: totals and CPU added up, rates and latencies averaged over the runs. */
const combine = (runs: ReadonlyArray<LoadResult>): LoadResult => {
  const total = runs.reduce((n, r) => n + r.total, 0);
  const mean = (f: (r: LoadResult) => number): number => runs.reduce((n, r) => n + f(r), 0) / runs.length;
  return {
    requestsPerSecond: mean((r) => r.requestsPerSecond),
    p50Ms: mean((r) => r.p50Ms),
    p99Ms: mean((r) => r.p99Ms),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    total,
    cpuMicrosPerRequest: total === 0 ? Number.NaN : runs.reduce((n, r) => n + r.cpuMicrosPerRequest * r.total, 0) / total,
  };
};

type PerServer<A> = Record<ServerName, A>;

/**
 * Load `route` on every server in alternating rounds (debtkit, peer, tight, floor,
 * limit, debtkit, …), each server warmed up once first. The machine's other
 * load drifts over a run (shared cores); alternating spreads the drift over
 * all of them instead of charging it to whichever ran during it.
 */
const alternate = async (
  targets: PerServer<LoadTarget>,
  route: BenchRoute,
  settings: LoadSettings,
  rounds: number,
  ref?: RefServer,
): Promise<{ results: PerServer<LoadResult>; rounds: Array<PerServer<LoadResult>>; ref?: LoadResult }> => {
  const each: LoadSettings = { ...settings, durationSeconds: settings.durationSeconds / rounds };
  const runs: Array<PerServer<LoadResult>> = [];
  const refRuns: LoadResult[] = [];
  for (let i = 0; i < rounds; i++) {
    const warm = i === 0 ? each : { ...each, warmupSeconds: 0 };
    const round: Partial<PerServer<LoadResult>> = {};
    for (const name of SERVERS) round[name] = await loadRoute(targets[name], route, warm);
    // The ref is one more server of the round, loaded with its own ids in the same route.
    if (ref !== undefined) refRuns.push(await loadRoute(ref.target, ref.routeOf(route), warm));
    runs.push(round as PerServer<LoadResult>);
  }
  const results = Object.fromEntries(SERVERS.map((name) => [name, combine(runs.map((r) => r[name]))])) as PerServer<LoadResult>;
  return { results, rounds: runs, ...(ref === undefined ? {} : { ref: combine(refRuns) }) };
};

/** The `--against` ref's server in the rounds: its target, and today's routes addressed to its own demo ids. */
interface RefServer {
  readonly label: string;
  readonly child: ServerChild;
  readonly target: LoadTarget;
  readonly routeOf: (route: BenchRoute) => BenchRoute;
}

/** `--against <ref>` from the command line (npm run bench -- --against round-3). */
const againstArgument = (): string | undefined => {
  const args = process.argv.slice(2);
  const at = args.indexOf('--against');
  if (at === -1) return undefined;
  const ref = args[at + 1];
  if (ref === undefined || ref.startsWith('--')) throw new Error('--against takes a ref: a tag, branch or commit (e.g. round-3)');
  return ref;
};

/** The demo ids a debtkit bench server answers for (its first account of its demo user). */
const demoIdsOf = async (child: ServerChild): Promise<{ token: string; userId: number; accountId: number; apiVersion: string }> => {
  const demo = child.ready.demo;
  if (demo === undefined) throw new Error('a debtkit server did not report its demo token');
  const accounts = await fetch(`${child.ready.url}/api/users/${demo.userId}/accounts?limit=1`, {
    headers: { Authorization: `Bearer ${demo.token}` },
  });
  const apiVersion = accounts.headers.get('api-version') ?? '';
  const first = ((await accounts.json()) as { accounts?: Array<{ id: number }> }).accounts?.[0];
  if (first === undefined) throw new Error(`could not list the demo user's accounts (status ${accounts.status})`);
  return { token: demo.token, userId: demo.userId, accountId: first.id, apiVersion };
};

/** Start the ref's bench server and address today's routes to its demo ids. */
const startRef = async (prepared: PreparedRef, label: string): Promise<RefServer> => {
  const child = await startChild('debtkit', undefined, forkRefServer(prepared, serverExecArgv()));
  const ids = await demoIdsOf(child);
  const theirs = benchRoutes({ userId: ids.userId, accountId: ids.accountId });
  const routeOf = (route: BenchRoute): BenchRoute => theirs.find((r) => r.name === route.name) ?? route;
  for (const route of theirs) {
    const got = await capture(child.ready.url, route, { Authorization: `Bearer ${ids.token}` });
    if (got.status < 200 || got.status > 299) throw new Error(`${label} answered ${route.method} ${route.path} with ${got.status}`);
  }
  return { label, child, target: loadTarget(child, { Authorization: `Bearer ${ids.token}` }), routeOf };
};

interface RouteOutcome {
  readonly route: BenchRoute;
  /** Each as fast as it answers. */
  readonly saturated: PerServer<LoadResult>;
  readonly saturatedRounds: Array<PerServer<LoadResult>>;
  /** The target routes: every server at the same offered load, for CPU per request. */
  readonly equalLoad?: {
    readonly rate: number;
    readonly results: PerServer<LoadResult>;
    readonly rounds: Array<PerServer<LoadResult>>;
    readonly ref?: LoadResult;
  };
}

/** One whole run (every route, the pure timings): the target lines it printed, for the median of `--runs`. */
const runOnce = async (prepared: PreparedRef | undefined, against: string | undefined): Promise<Score[]> => {
  const scores: Score[] = [];
  const settings: LoadSettings = {
    connections: Math.max(1, Math.round(setting('BENCH_CONNECTIONS', 50))),
    warmupSeconds: setting('BENCH_WARMUP', 1.5),
    durationSeconds: setting('BENCH_DURATION', 6),
  };
  const rounds = Math.max(1, Math.round(setting('BENCH_ROUNDS', 3)));
  const refLabel = against ?? 'ref';
  console.log(
    `each route: ${settings.connections} connections, ${settings.warmupSeconds} s warm-up (discarded), then ${rounds} rounds of ${fmt(settings.durationSeconds / rounds, 1)} s on each server, alternating; servers in child processes (${youngGeneration()}), autocannon in this one`,
  );

  // Payoff first, while no server is running to compete for the CPU.
  const payoff = timePayoffPlan();
  console.log(
    `\npayoff plan (planPayoff): ${payoff.debts} debts, budget ${fmt(payoff.monthlyPayment)} cents/month, ${payoff.months} months`,
  );
  console.log(`  median ${payoff.medianMs.toFixed(3)} ms, p95 ${payoff.p95Ms.toFixed(3)} ms over ${payoff.runs} runs`);
  const comparison = timePayoffComparison();
  const monthsOf = comparison.months.map(([strategy, months]) => `${strategy} ${months ?? '>600'}`).join(', ');
  console.log(`\npayoff comparison (comparePayoffStrategies): ${comparison.debts} debts, months: ${monthsOf}`);
  console.log(`  median ${comparison.medianMs.toFixed(3)} ms, p95 ${comparison.p95Ms.toFixed(3)} ms over ${comparison.runs} runs`);
  const outlook = timeCreditOutlook();
  console.log(
    `\ncredit outlook (creditOutlook): ${outlook.debts} debts of ${outlook.accounts} accounts, ${outlook.months} months, ${outlook.milestones} milestones`,
  );
  console.log(`  median ${outlook.medianMs.toFixed(3)} ms, p95 ${outlook.p95Ms.toFixed(3)} ms over ${outlook.runs} runs`);
  let refTimings: RefTimings | undefined;
  let todayTimings: RefTimings | undefined;
  if (prepared !== undefined) {
    const pure = alternatePureTimings(prepared, 3);
    refTimings = pure.ref;
    todayTimings = pure.today;
    const show = (t: RefTimings): string =>
      `payoff plan ${t.payoffMedianMs.toFixed(3)} ms, comparison ${t.comparisonMedianMs.toFixed(3)} ms, outlook ${t.outlookMedianMs.toFixed(3)} ms`;
    console.log(`\npure timings, alternating today and ${refLabel} 3 times, each in a process of its own, least median of each:`);
    console.log(`  today: ${show(todayTimings)}`);
    console.log(`  ${refLabel}: ${show(refTimings)}`);
  }
  // The realistic input of docs/decisions/payoff-and-outlook.md (statement-grade money): segmented cards, formulas, daily methods, escrow.
  const statement: Array<readonly [StatementTiming, number]> = [
    [timeStatementPlan(), PAYOFF_TARGET_MS],
    [timeStatementComparison(), COMPARISON_TARGET_MS],
    [timeStatementOutlook(), OUTLOOK_TARGET_MS],
  ];
  for (const [timing] of statement) {
    const monthsOfRun = timing.months.map(([strategy, months]) => `${strategy} ${months ?? '>600'}`).join(', ');
    console.log(
      `\nstatement-grade ${timing.what}: 50 debts (20 segmented cards, 30 daily-simple loans), months: ${monthsOfRun}, ${timing.warnings} warnings`,
    );
    console.log(`  median ${timing.medianMs.toFixed(3)} ms, p95 ${timing.p95Ms.toFixed(3)} ms over ${timing.runs} runs`);
  }

  const debtkit = await startChild('debtkit');
  const others: ServerChild[] = [];
  let ref: RefServer | undefined;
  try {
    if (prepared !== undefined) {
      ref = await startRef(prepared, refLabel);
      others.push(ref.child);
    }
    const demo = debtkit.ready.demo;
    if (demo === undefined) throw new Error('the debtkit server did not report its demo token');
    const auth = { Authorization: `Bearer ${demo.token}` };

    const accounts = await fetch(`${debtkit.ready.url}/api/users/${demo.userId}/accounts?limit=1`, { headers: auth });
    const apiVersion = accounts.headers.get('api-version') ?? '';
    const firstAccount = ((await accounts.json()) as { accounts?: Array<{ id: number }> }).accounts?.[0];
    if (firstAccount === undefined) throw new Error(`could not list the demo user's accounts (status ${accounts.status})`);
    const routes = selectRoutes(benchRoutes({ userId: demo.userId, accountId: firstAccount.id }));

    const captured = new Map<string, Captured>();
    for (const route of routes) {
      const got = await capture(debtkit.ready.url, route, auth);
      if (got.status < 200 || got.status > 299)
        throw new Error(`debtkit answered ${route.method} ${route.path} with ${got.status}: ${JSON.stringify(got.body)}`);
      captured.set(route.name, got);
    }
    const canned: CannedResponse[] = routes.map((route) => {
      const got = captured.get(route.name)!;
      return { method: route.method, pattern: route.pattern, status: got.status, body: got.body, gzip: route.gzip };
    });
    const table = routeTable();
    for (const route of routes) {
      if (!table.some((r) => r.method === route.method && r.pattern === route.pattern)) {
        throw new Error(`${route.method} ${route.pattern} is not in debtkit's route table`);
      }
    }
    const serve: ServeCanned = { kind: 'serve', responses: canned, table, paths: routes.map((r) => r.path), token: demo.token, apiVersion };
    const started: Partial<PerServer<ServerChild>> = { debtkit };
    for (const name of ['peer', 'tight', 'floor', 'limit'] as const) {
      const child = await startChild(ROLE[name], serve);
      others.push(child);
      started[name] = child;
    }
    const servers = started as PerServer<ServerChild>;
    const targets = Object.fromEntries(
      SERVERS.map((name) => [name, loadTarget(servers[name], AUTHENTICATING.includes(name) ? auth : {})]),
    ) as PerServer<LoadTarget>;

    // The comparison is only fair if all answer the same thing: check it rather than assume it.
    for (const route of routes) {
      const mine = captured.get(route.name)!;
      for (const name of ['peer', 'tight', 'floor', 'limit'] as const) {
        const theirs = await capture(servers[name].ready.url, route, targets[name].headers);
        if (
          theirs.status !== mine.status ||
          !isDeepStrictEqual(theirs.body, mine.body) ||
          theirs.contentEncoding !== mine.contentEncoding
        ) {
          throw new Error(`the ${name} app's answer to ${route.method} ${route.path} differs from debtkit's`);
        }
      }
    }
    console.log(
      `\npeer:  Koa 3, @koa/router (debtkit's ${table.length} routes), @koa/bodyparser, koa-compress, helmet, pino request logger, rate-limiter-flexible,`,
    );
    console.log("       prom-client histogram, bearer-token Map; debtkit's bodies as constants, serialised per request");
    console.log(
      "tight: the floor plus only the work debtkit's answers require, as one middleware: request id, the ten headers, token Map,",
    );
    console.log('       rate limiter, JSON body, metrics, log line (reported, not a target)');
    console.log(
      `floor: Koa 3 + @koa/router with debtkit's ${table.length} routes, no middleware, the same bodies (koa-compress on the gzip route only)`,
    );
    console.log('limit: node:http answering the same bytes from a Map');

    const outcomes: RouteOutcome[] = [];
    for (const route of routes) {
      const got = captured.get(route.name)!;
      const encoding = got.contentEncoding === null ? 'identity' : got.contentEncoding;
      console.log(`\n${route.method} ${route.path} (${route.name}; ${fmt(got.bytes)} B JSON, sent ${encoding})`);
      const saturated = await alternate(targets, route, settings, rounds, ref);
      console.log(line('', COLUMNS));
      for (const name of SERVERS) console.log(row(name, saturated.results[name]));
      if (saturated.ref !== undefined) console.log(row(refLabel, saturated.ref));
      const mine = saturated.results.debtkit;
      const vs = (name: ServerName): string =>
        `${name} ${ratio(mine.requestsPerSecond, saturated.results[name].requestsPerSecond).toFixed(2)}× req/s, ${ratio(mine.cpuMicrosPerRequest, saturated.results[name].cpuMicrosPerRequest).toFixed(2)}× CPU/req`;
      console.log(`  debtkit ÷ ${vs('peer')}; ÷ ${vs('tight')}; ÷ ${vs('floor')}; ÷ ${vs('limit')}`);
      const { tight, floor } = saturated.results;
      console.log(`  tight ÷ floor ${ratio(tight.requestsPerSecond, floor.requestsPerSecond).toFixed(2)}× req/s: the required work alone`);
      if (saturated.rounds.length > 1) {
        const over = (a: LoadResult, b: LoadResult): string => `${ratio(a.requestsPerSecond, b.requestsPerSecond).toFixed(2)}×`;
        const each = saturated.rounds
          .map((r) => `${over(r.debtkit, r.peer)}/${over(r.debtkit, r.floor)}/${over(r.tight, r.floor)}`)
          .join(', ');
        console.log(`  each round (debtkit ÷ peer / debtkit ÷ floor / tight ÷ floor, req/s): ${each}`);
      }
      let equalLoad: RouteOutcome['equalLoad'];
      if (TARGET_ROUTES.includes(route.name)) {
        const rate = Math.max(100, Math.floor((saturated.results.peer.requestsPerSecond * EQUAL_LOAD_SHARE) / 100) * 100);
        const fixed = await alternate(targets, route, { ...settings, overallRate: rate }, rounds, ref);
        equalLoad = { rate, results: fixed.results, rounds: fixed.rounds, ...(fixed.ref === undefined ? {} : { ref: fixed.ref }) };
        if (fixed.ref !== undefined) {
          console.log(
            `  at an equal offered load of ${fmt(rate)} req/s: ${refLabel} ${fmt(fixed.ref.cpuMicrosPerRequest)} CPU µs/req; debtkit ÷ ${refLabel} ${ratio(fixed.results.debtkit.cpuMicrosPerRequest, fixed.ref.cpuMicrosPerRequest).toFixed(2)}×`,
          );
        }
        const cpu = SERVERS.map((name) => `${name} ${fmt(fixed.results[name].cpuMicrosPerRequest)}`).join(', ');
        const ofPeer = (name: ServerName): string =>
          ratio(fixed.results[name].cpuMicrosPerRequest, fixed.results.peer.cpuMicrosPerRequest).toFixed(2);
        console.log(
          `  at an equal offered load of ${fmt(rate)} req/s: CPU µs/req ${cpu}; debtkit ÷ peer ${ofPeer('debtkit')}×, tight ÷ peer ${ofPeer('tight')}×`,
        );
        console.log(`  (served ${SERVERS.map((name) => fmt(fixed.results[name].requestsPerSecond)).join(' / ')} req/s)`);
        if (fixed.rounds.length > 1) {
          const each = fixed.rounds
            .map((r) =>
              [r.debtkit, r.tight].map((a) => `${ratio(a.cpuMicrosPerRequest, r.peer.cpuMicrosPerRequest).toFixed(2)}×`).join('/'),
            )
            .join(', ');
          console.log(`  each round (CPU per request ÷ peer, debtkit/tight): ${each}`);
        }
      }
      outcomes.push({
        route,
        saturated: saturated.results,
        saturatedRounds: saturated.rounds,
        ...(equalLoad === undefined ? {} : { equalLoad }),
      });
    }

    const failures = (r: LoadResult): number => r.non2xx + r.errors;
    const clean = outcomes.every((o) =>
      SERVERS.every((name) => failures(o.saturated[name]) + (o.equalLoad === undefined ? 0 : failures(o.equalLoad.results[name])) === 0),
    );
    console.log('\ntargets (docs/performance.md)');
    for (const name of TARGET_ROUTES) {
      const target = outcomes.find((o) => o.route.name === name);
      if (target === undefined) continue;
      const { debtkit: mine, peer, tight, floor } = target.saturated;
      const overTight = ratio(mine.requestsPerSecond, tight.requestsPerSecond);
      const overPeer = ratio(mine.requestsPerSecond, peer.requestsPerSecond);
      const equal = target.equalLoad;
      const cpu =
        equal === undefined
          ? ratio(mine.cpuMicrosPerRequest, tight.cpuMicrosPerRequest)
          : ratio(equal.results.debtkit.cpuMicrosPerRequest, equal.results.tight.cpuMicrosPerRequest);
      const where = equal === undefined ? ' (saturated)' : ` at ${fmt(equal.rate)} req/s each`;
      scored(scores, `${name} req/s ≥ ${TIGHT_THROUGHPUT_TARGET} × tight`, overTight, (v) => v >= TIGHT_THROUGHPUT_TARGET, times);
      scored(scores, `${name} CPU/request ≤ ${TIGHT_CPU_TARGET} × tight`, cpu, (v) => v <= TIGHT_CPU_TARGET, times, where);
      scored(scores, `${name} req/s ≥ ${PEER_THROUGHPUT_TARGET} × peer`, overPeer, (v) => v >= PEER_THROUGHPUT_TARGET, times);
      if (equal?.ref !== undefined) {
        const overRef = ratio(equal.results.debtkit.cpuMicrosPerRequest, equal.ref.cpuMicrosPerRequest);
        scored(scores, `${name} CPU/request ≤ ${REF_CPU_TARGET} × ${refLabel}'s`, overRef, (v) => v <= REF_CPU_TARGET, times, where);
      }
      console.log(
        `        (reported: debtkit ${ratio(mine.requestsPerSecond, floor.requestsPerSecond).toFixed(2)}× the floor's req/s; tight, the required work alone, ${ratio(tight.requestsPerSecond, floor.requestsPerSecond).toFixed(2)}×)`,
      );
    }
    scored(scores, `payoff plan median < ${PAYOFF_TARGET_MS} ms`, payoff.medianMs, (v) => v < PAYOFF_TARGET_MS, millis);
    scored(
      scores,
      `payoff comparison (4 strategies) median < ${COMPARISON_TARGET_MS} ms`,
      comparison.medianMs,
      (v) => v < COMPARISON_TARGET_MS,
      millis,
    );
    scored(
      scores,
      `credit outlook (50 debts, ${outlook.months} months) median < ${OUTLOOK_TARGET_MS} ms`,
      outlook.medianMs,
      (v) => v < OUTLOOK_TARGET_MS,
      millis,
    );
    if (refTimings !== undefined && todayTimings !== undefined) {
      // Scored as today ÷ the ref (≤ 1: no slower), so the median of the runs is of the ratio of each run's alternated pair.
      const noSlower = (what: string, today: number, theirs: number): void =>
        scored(
          scores,
          `${what} median no slower than ${refLabel}'s (alternated)`,
          ratio(today, theirs),
          (v) => v <= 1,
          times,
          ` (${today.toFixed(3)} ms vs ${theirs.toFixed(3)} ms)`,
        );
      noSlower('payoff plan', todayTimings.payoffMedianMs, refTimings.payoffMedianMs);
      noSlower('payoff comparison', todayTimings.comparisonMedianMs, refTimings.comparisonMedianMs);
      noSlower('credit outlook', todayTimings.outlookMedianMs, refTimings.outlookMedianMs);
    }
    for (const [timing, target] of statement)
      scored(scores, `statement-grade ${timing.what} median < ${target} ms`, timing.medianMs, (v) => v < target, millis);
    if (!clean) console.log('  note: some requests failed or answered non-2xx (see the tables); their numbers are not comparable');
  } finally {
    await Promise.all([stopChild(debtkit), ...others.map(stopChild)]);
  }
  return scores;
};

/** `--runs <n>` from the command line (default 1): whole runs one after another, then each target's median. */
const runsArgument = (): number => {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  if (at === -1) return 1;
  const n = Number(args[at + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error('--runs takes a whole number of runs, at least 1 (e.g. --runs 3)');
  return n;
};

const main = async (): Promise<void> => {
  const runs = runsArgument();
  const against = againstArgument();
  console.log(`debtkit benchmark: node ${process.version}, ${availableParallelism()} cores${runs > 1 ? `, ${runs} runs` : ''}`);
  let prepared: PreparedRef | undefined;
  if (against !== undefined) {
    prepared = prepareRef(against);
    const how = prepared.cached
      ? `cached in ${prepared.dir} (its npm ci and build took ${prepared.buildSeconds} s)`
      : `built in ${prepared.dir}: npm ci and build took ${prepared.buildSeconds} s`;
    console.log(`against ${against} (${prepared.commit.slice(0, 7)}): ${how}`);
  }
  const all: Score[][] = [];
  for (let i = 0; i < runs; i++) {
    if (runs > 1) console.log(`\n======== run ${i + 1} of ${runs}`);
    all.push(await runOnce(prepared, against));
  }
  if (runs === 1) return;
  // The targets are judged on the median of the runs (docs/performance.md): each line's value, median over the runs.
  console.log(`\ntargets, the median of ${runs} runs (each run's values in brackets)`);
  for (const first of all[0] ?? []) {
    const values = all.map((scores) => scores.find((s) => s.label === first.label)?.value).filter((v): v is number => v !== undefined);
    const m = middle(values);
    console.log(`  ${verdict(first.meets(m))}  ${first.label}: ${first.show(m)} [${values.map(first.show).join(', ')}]`);
  }
};

main().then(
  () => process.exit(0),
  (err: unknown) => {
    // A benchmark that could not run is an error (unlike a missed target).
    console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
