/**
 * `npm run bench:isolation` (docs/performance.md "Isolation", 4.9): how much a heavy
 * client can slow a light one down, within every limit debtkit sets.
 *
 * Each run starts a fresh `debtkit` server (production settings: memory store,
 * sandbox demo, the default rate limit, admission and webhook settings) in a
 * child process, then:
 *   1. alone: the light client (the sandbox demo) reads its user's credit score, evenly spaced,
 *      at BENCH_LIGHT_RATE (100) per second, and links an account once a second,
 *      whose `account.created` webhook a local receiver times;
 *   2. the heavy client (a second client, made through the admin API) creates
 *      the largest plans its limits allow: BENCH_HEAVY_PLANS (4) plans over
 *      BENCH_HEAVY_DEBTS (100) accounts whose minimums pay off in about
 *      BENCH_HEAVY_MONTHS (590) months, halving the accounts while the server
 *      refuses the plan as too large (a plan size limit) and stopping at a
 *      quota's 409; it registers BENCH_HEAVY_ENDPOINTS (16) webhook endpoints on
 *      a server that accepts connections and never answers;
 *   3. beside it: the light load again, while the heavy client (in a process of
 *      its own) keeps 32 requests in flight over plan list pages, `compare` and
 *      the credit outlook, paced at its rate limit, read in BENCH_HEAVY_VERSION
 *      (its pin, the latest version, when unset; 2024-07-01 embeds each plan's
 *      schedule, the worst case). BENCH_HEAVY_KIND chooses the heavy load instead:
 *      `reads` (the default, above); `advance`: sandbox advances of 12 months on
 *      minimum payments of its user (every account a loan), each writing about
 *      1,200 events; `replay`: window replays of the last 30 days to its endpoints
 *      in turn, each re-arming a delivery per event (the endpoints never answer,
 *      so deliveries stay armed until the armed-deliveries quota answers 409).
 *      Flood mode (BENCH_HEAVY_MODE=flood; docs/performance.md, round 5): the heavy client
 *      opens as many connections as the process admits (its in-progress limit,
 *      DEBTKIT_MAX_IN_PROGRESS's default) and sends back to back on each, unpaced,
 *      so that most of its requests are refused (429). The server's CPU during the
 *      phase, less its CPU over the same time alone, is divided by the heavy
 *      requests refused: the CPU per refused request (an upper bound: the heavy
 *      requests served are charged to it too).
 * Printed per run and as the median of BENCH_RUNS (3) runs: the light client's
 * p50/p99 alone and beside the heavy client, the p99 ratio, and the light
 * client's webhook delay (from its link's answer to the delivery's arrival;
 * median and worst). Targets: p99 ratio ≤ 3 (goal 2), webhook delay ≤ 2 s.
 * A missed target is a result: the exit status is 0 whenever the measurement
 * worked. BENCH_DURATION (20) seconds per phase, after BENCH_WARMUP (3) seconds
 * of light reads not recorded.
 *
 * Only loopback is used. Run without a build:
 *   node --conditions=debtkit-source --import tsx packages/adapter-http/bench/isolation.ts
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { loadavg, setPriority } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import { idOf, planPayoff, type Cents, type Id, type IsoDate } from '@debtkit/core';
import { loadConfig } from '../src/main/config.js';
import { startServer } from '../src/main/server.js';
import { createServerLogger } from '../src/main/log-destination.js';
import { defaultMaxInProgress } from '../src/http/admission-queue.js';

export const P99_RATIO_TARGET = 3;
export const P99_RATIO_GOAL = 2;
export const WEBHOOK_DELAY_TARGET_MS = 2000;
const ADMIN_TOKEN = 'isolation-bench-admin-token-0123456789';

export interface IsolationSettings {
  readonly runs: number;
  /** Seconds per measured phase (alone, beside). */
  readonly durationSeconds: number;
  /** Seconds of light reads before the first phase, not recorded. */
  readonly warmupSeconds: number;
  readonly lightRate: number;
  readonly heavyInFlight: number;
  /** Requests per second the heavy client is paced at: its rate limit. */
  readonly heavyRate: number;
  readonly heavyPlans: number;
  readonly heavyDebts: number;
  readonly heavyMonths: number;
  readonly heavyEndpoints: number;
  /** The API version the heavy client's load is read in (API-Version header); '' for its pin. */
  readonly heavyVersion: string;
  /** What the heavy client does (BENCH_HEAVY_KIND): reads of its plans, sandbox advances, or window replays. */
  readonly heavyKind: HeavyKind;
  /** BENCH_HEAVY_MODE=flood: as many connections as the process admits, back to back, unpaced. */
  readonly flood?: boolean;
}

export type HeavyKind = 'reads' | 'advance' | 'replay';
const HEAVY_KINDS: ReadonlyArray<HeavyKind> = ['reads', 'advance', 'replay'];

const heavyKindSetting = (): HeavyKind => {
  const raw = process.env['BENCH_HEAVY_KIND'] ?? 'reads';
  const kind = HEAVY_KINDS.find((k) => k === raw);
  if (kind === undefined) throw new Error(`BENCH_HEAVY_KIND must be one of ${HEAVY_KINDS.join(', ')} (got ${JSON.stringify(raw)})`);
  return kind;
};

const setting = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got ${JSON.stringify(raw)})`);
  return n;
};

export const isolationSettings = (): IsolationSettings => ({
  runs: Math.round(setting('BENCH_RUNS', 3)),
  durationSeconds: setting('BENCH_DURATION', 20),
  warmupSeconds: setting('BENCH_WARMUP', 3),
  lightRate: setting('BENCH_LIGHT_RATE', 100),
  heavyInFlight: Math.round(setting('BENCH_HEAVY_IN_FLIGHT', 32)),
  heavyRate: setting('BENCH_HEAVY_RATE', 100),
  heavyPlans: Math.round(setting('BENCH_HEAVY_PLANS', 4)),
  heavyDebts: Math.round(setting('BENCH_HEAVY_DEBTS', 100)),
  heavyMonths: Math.round(setting('BENCH_HEAVY_MONTHS', 590)),
  heavyEndpoints: Math.round(setting('BENCH_HEAVY_ENDPOINTS', 16)),
  heavyVersion: process.env['BENCH_HEAVY_VERSION'] ?? '',
  heavyKind: heavyKindSetting(),
  flood: floodMode(),
});

/** BENCH_HEAVY_MODE: `paced` (the default) or `flood`; anything else is an error, not a silently different run. */
const floodMode = (): boolean => {
  const mode = process.env['BENCH_HEAVY_MODE'] ?? '';
  if (mode !== '' && mode !== 'paced' && mode !== 'flood')
    throw new Error(`BENCH_HEAVY_MODE must be paced or flood (got ${JSON.stringify(mode)})`);
  return mode === 'flood';
};

/** The heavy client's connections and pace in the run's mode. */
const heavyLoadOf = (settings: IsolationSettings): { readonly inFlight: number; readonly rate: number } =>
  settings.flood === true
    ? { inFlight: defaultMaxInProgress(), rate: Number.POSITIVE_INFINITY }
    : { inFlight: settings.heavyInFlight, rate: settings.heavyRate };

// ---------------------------------------------------------------- messages

interface ServerReady {
  readonly kind: 'ready';
  readonly url: string;
  readonly token: string;
  readonly userId: number;
}
interface HeavyStart {
  readonly kind: 'start';
  readonly url: string;
  readonly token: string;
  readonly userId: number;
  readonly planIds: ReadonlyArray<number>;
  readonly accountIds: ReadonlyArray<number>;
  readonly monthlyPayment: number;
  readonly inFlight: number;
  readonly rate: number;
  readonly apiVersion: string;
  readonly heavyKind: HeavyKind;
  readonly endpointIds: ReadonlyArray<number>;
}
interface HeavyStop {
  readonly kind: 'stop';
}
export interface HeavyReport {
  readonly kind: 'report';
  readonly requests: number;
  readonly byStatus: Readonly<Record<string, number>>;
  readonly bytes: number;
  readonly errors: number;
  /** The heavy client's own CPU over its load (user + system), microseconds: what the load generator took of the shared cores. */
  readonly cpuMicros: number;
  /** Seconds its load ran. */
  readonly seconds: number;
}

const send = (message: unknown): void => {
  if (process.send === undefined) throw new Error('this role runs as a child of bench:isolation (it needs an IPC channel)');
  process.send(message);
};

// ---------------------------------------------------------------- server role

const serveRole = async (): Promise<void> => {
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DEBTKIT_ENV: 'sandbox',
    DEBTKIT_STORE: 'memory',
    DEBTKIT_SEED: 'true',
    LOG_LEVEL: 'info',
    DEBTKIT_ADMIN_TOKEN: ADMIN_TOKEN,
    // The server's render cache (docs/decisions/tenancy.md): DEBTKIT_RENDER_CACHE_MB=0 measures without it.
    DEBTKIT_RENDER_CACHE_MB: process.env['DEBTKIT_RENDER_CACHE_MB'],
    // The hold on a blocked client's refusals (docs/decisions/rate-limits.md): DEBTKIT_REFUSAL_HOLD_MS=0 measures without it.
    DEBTKIT_REFUSAL_HOLD_MS: process.env['DEBTKIT_REFUSAL_HOLD_MS'],
  });
  if (E.isLeft(config)) throw new Error(`isolation server configuration: ${config.left}`);
  const log = createServerLogger({ level: config.right.logLevel, dest: '/dev/null' });
  const running = await startServer({ config: config.right, logger: log.logger });
  if (running.demo?.userId === undefined) throw new Error('the isolation server was started without the demo seed');
  send({ kind: 'ready', url: running.url, token: running.demo.token, userId: running.demo.userId } satisfies ServerReady);
  process.on('message', (m: { kind?: string }) => {
    if (m.kind !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    send({ kind: 'cpu', micros: user + system });
  });
  process.once('disconnect', () => {
    void running.shutdown().finally(() => process.exit(0));
  });
};

/** What one request over `agent` came to: its status, or `error` when it failed, and the bytes of its body as received (never decoded). */
/**
 * The load generators' idle keep-alive sockets are closed after this, before the
 * server's keep-alive timeout (5 s) closes them: a request sent on a socket the
 * server is closing fails with ECONNRESET, a race of the client's, not a server
 * answer.
 */
const IDLE_SOCKET_MS = 4_000;

const exchange = (
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ readonly status: string; readonly bytes: number }> =>
  new Promise((resolve) => {
    let bytes = 0;
    /** A failed exchange's status: `error` and the socket's error code, so a report says which. */
    const failed = (err: NodeJS.ErrnoException): void => resolve({ status: `error ${err.code ?? err.message}`, bytes });
    const req = httpRequest(url, { agent, method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      res.on('data', (chunk: Buffer) => void (bytes += chunk.byteLength));
      res.on('end', () => resolve({ status: String(res.statusCode), bytes }));
      res.on('error', failed);
    });
    req.on('error', failed);
    req.end(body);
  });

// ---------------------------------------------------------------- heavy role

/** Paces takers to `rate` per second (one at a time, evenly spaced). */
const pacer = (rate: number) => {
  // An infinite rate (flood mode): back to back.
  const gap = Number.isFinite(rate) ? 1000 / rate : 0;
  let next = performance.now();
  return async (): Promise<void> => {
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + gap;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  };
};

const heavyRole = async (): Promise<void> => {
  // One listener for both messages, attached before the parent is told this process is ready.
  let stopping = false;
  let started: (m: HeavyStart) => void = () => undefined;
  const startMessage = new Promise<HeavyStart>((resolve) => (started = resolve));
  process.on('message', (m: HeavyStart | HeavyStop) => {
    if (m.kind === 'start') started(m);
    else stopping = true;
  });
  send({ kind: 'ready' });
  const start = await startMessage;
  // Compressed answers, as a browser or an HTTP library asks for them, counted as they come and never decoded:
  // the load generator shares the server's cores, and decoding 25 MB/s of it would be its own load, not the server's.
  const headers: Record<string, string> = {
    Authorization: `Bearer ${start.token}`,
    'Accept-Encoding': 'gzip, deflate, br',
    ...(start.apiVersion === '' ? {} : { 'API-Version': start.apiVersion }),
  };
  const agent = new Agent({ keepAlive: true, maxSockets: start.inFlight, timeout: IDLE_SOCKET_MS });
  const base = `${start.url}/api/users/${start.userId}/payment_plans`;
  const byStatus: Record<string, number> = {};
  let requests = 0;
  let bytes = 0;
  let errors = 0;
  const take = pacer(start.rate);
  const kinds = ['list', 'compare', 'outlook'] as const;
  let turn = 0;
  const ask = async (url: string, body?: string): Promise<void> => {
    const done = await exchange(
      agent,
      url,
      body === undefined ? headers : { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body,
    );
    bytes += done.bytes;
    // An error is counted apart, and by its code among the statuses, so a report says which.
    if (done.status.startsWith('error')) errors += 1;
    byStatus[done.status] = (byStatus[done.status] ?? 0) + 1;
  };
  const one = async (): Promise<void> => {
    if (start.heavyKind === 'advance') {
      await ask(`${start.url}/api/users/${start.userId}/sandbox/advance`, JSON.stringify({ months: 12, payments: 'minimum' }));
      requests += 1;
      return;
    }
    if (start.heavyKind === 'replay') {
      const endpoint = start.endpointIds[turn++ % start.endpointIds.length];
      const now = Date.now();
      const window = { since: new Date(now - 29 * 86_400_000).toISOString(), until: new Date(now + 60_000).toISOString() };
      await ask(`${start.url}/api/webhook_endpoints/${endpoint}/replay`, JSON.stringify(window));
      requests += 1;
      return;
    }
    const kind = kinds[turn++ % kinds.length]!;
    const plan = start.planIds[turn % start.planIds.length];
    await (kind === 'list'
      ? ask(base)
      : kind === 'outlook'
        ? ask(`${base}/${plan}/credit_outlook`)
        : ask(`${base}/compare`, JSON.stringify({ monthly_payment: start.monthlyPayment, account_ids: start.accountIds })));
    requests += 1;
  };
  const loop = async (): Promise<void> => {
    while (!stopping) {
      await take();
      if (stopping) break;
      await one();
    }
  };
  const cpuAtStart = process.cpuUsage();
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: start.inFlight }, loop));
  const cpu = process.cpuUsage(cpuAtStart);
  const seconds = (performance.now() - startedAt) / 1000;
  agent.destroy();
  await new Promise<void>((resolve) =>
    process.send?.(
      { kind: 'report', requests, byStatus, bytes, errors, cpuMicros: cpu.user + cpu.system, seconds } satisfies HeavyReport,
      () => resolve(),
    ),
  );
};

// ---------------------------------------------------------------- parent

const here = fileURLToPath(import.meta.url);
const childArgs = extname(here) === '.ts' ? ['--conditions=debtkit-source', '--import', 'tsx'] : [];

/** BENCH_SERVER_CPU_PROFILE=<dir>: each run's server writes its CPU profile there (read it with bench/cpu-profile-share.ts). */
const serverProfileArgs = (): string[] => {
  const dir = process.env['BENCH_SERVER_CPU_PROFILE'] ?? '';
  return dir === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=500'];
};

const child = (role: 'serve' | 'heavy'): ChildProcess =>
  fork(here, [role], {
    execArgv: role === 'serve' ? [...childArgs, ...serverProfileArgs()] : childArgs,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

const nextMessage = <A>(c: ChildProcess): Promise<A> =>
  new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`child exited (${code}) before answering`));
    c.once('exit', onExit);
    c.once('message', (m) => {
      c.off('exit', onExit);
      resolve(m as A);
    });
  });

const stopChild = (c: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (c.exitCode !== null) return resolve();
    const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
    c.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    c.disconnect();
  });

const listen = (server: Server): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

/** Accepts connections and never answers: the heavy client's webhook endpoints. */
const blackHole = async (): Promise<{ readonly url: string; close(): Promise<void> }> => {
  const sockets = new Set<Socket>();
  const server = createServer(() => undefined);
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
};

/** The light client's receiver: the arrival time of each `account.created` delivery, by account id. */
const receiver = async () => {
  const arrivals = new Map<number, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type?: string; data?: { object?: { id?: number } } };
        const id = event.data?.object?.id;
        if (event.type === 'account.created' && typeof id === 'number' && !arrivals.has(id)) arrivals.set(id, at);
      } catch {
        // not an event: ignored
      }
      res.writeHead(204).end();
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

interface Api {
  (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

const apiOf =
  (url: string, token: string): Api =>
  async (method, path, body, headers = {}) => {
    const res = await fetch(url + path, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(method === 'POST' && path.startsWith('/api') ? { 'Idempotency-Key': randomUUID() } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };

/** Retries on 429 (the heavy client's own rate limit while it sets up), after Retry-After. */
const patient =
  (api: Api): Api =>
  async (...args) => {
    for (;;) {
      const res = await api(...args);
      if (res.status !== 429) return res;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };

export interface LightResult {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  readonly non2xx: number;
  /** The reads' answers by status (e.g. `{ "200": 1990, "429": 10 }`): what the non-2xx were. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Webhook delays of the light client's events, milliseconds, sorted. */
  readonly webhookDelaysMs: ReadonlyArray<number>;
  /** Events whose delivery had not arrived when the phase ended (+ 2 s of grace). */
  readonly webhooksMissing: number;
}

/** The `q` quantile of the sorted latencies (nearest rank). */
const percentile = (sorted: ReadonlyArray<number>, q: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

/**
 * GETs of `url` at `rate` per second for `seconds`, evenly spaced (one every 1/rate s),
 * each timed from when it was due, not from when it was sent: a server that stalls
 * is charged for the requests that waited behind the stall (no coordinated omission).
 * Evenly spaced, a client at 100 reads a second stays within a 100/s rate limit; a
 * load generator that sends each second's requests at once (autocannon's
 * `overallRate`) gets 429s from its own bursts.
 */
const pacedReads = async (
  url: string,
  token: string,
  rate: number,
  seconds: number,
): Promise<{ latenciesMs: number[]; statuses: Record<string, number> }> => {
  const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: IDLE_SOCKET_MS });
  const latenciesMs: number[] = [];
  const statuses: Record<string, number> = {};
  const count = (status: string): void => void (statuses[status] = (statuses[status] ?? 0) + 1);
  const headers = { Authorization: `Bearer ${token}` };
  const one = async (due: number): Promise<void> => {
    const { status } = await exchange(agent, url, headers);
    if (!status.startsWith('error')) latenciesMs.push(performance.now() - due);
    count(status);
  };
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const sent: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.push(one(due));
  }
  await Promise.all(sent);
  agent.destroy();
  latenciesMs.sort((a, b) => a - b);
  return { latenciesMs, statuses };
};

/** The light client's load for `seconds`: reads at `rate`/s, and one account linked per second whose webhook is timed. */
const lightLoad = async (
  url: string,
  token: string,
  userId: number,
  rate: number,
  seconds: number,
  hook: Awaited<ReturnType<typeof receiver>>,
): Promise<LightResult> => {
  const api = apiOf(url, token);
  const answered = new Map<number, number>();
  let creating = true;
  const creates = (async () => {
    let n = 0;
    while (creating) {
      const started = performance.now();
      const res = await api('POST', `/api/users/${userId}/accounts`, {
        name: `Card ${n++}`,
        type: 'loan',
        subtype: 'credit_card_loan',
        balance: 10_000,
      });
      if (res.status === 201 && typeof res.body?.id === 'number') answered.set(res.body.id, performance.now());
      const left = 1000 - (performance.now() - started);
      if (left > 0 && creating) await new Promise((resolve) => setTimeout(resolve, left));
    }
  })();
  const reads = await pacedReads(`${url}/api/users/${userId}/credit_scores`, token, rate, seconds);
  creating = false;
  await creates;
  // Deliveries still under way get a grace period beyond the target, so a late one counts as late, not lost.
  const deadline = performance.now() + WEBHOOK_DELAY_TARGET_MS + 1000;
  while (performance.now() < deadline && [...answered.keys()].some((id) => !hook.arrivals.has(id))) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const delays: number[] = [];
  let missing = 0;
  for (const [id, at] of answered) {
    const arrived = hook.arrivals.get(id);
    if (arrived === undefined) missing += 1;
    else delays.push(Math.max(0, arrived - at));
  }
  return {
    p50Ms: percentile(reads.latenciesMs, 0.5),
    p99Ms: percentile(reads.latenciesMs, 0.99),
    requests: reads.latenciesMs.length,
    non2xx: Object.entries(reads.statuses).reduce((n, [code, count]) => (code.startsWith('2') ? n : n + count), 0),
    statuses: reads.statuses,
    webhookDelaysMs: delays.sort((a, b) => a - b),
    webhooksMissing: missing,
  };
};

/** Minimums that pay a debt off in about `months` months on its own (minimum_only), found with core's own projection. */
const minimumFor = (balance: number, apr: number, months: number): number => {
  let low = Math.ceil((balance * apr) / 1200) + 1;
  let high = balance;
  const monthsAt = (minimum: number): number => {
    const r = planPayoff({
      strategy: 'minimum_only',
      monthlyPayment: minimum as Cents,
      debts: [{ id: idOf('account', 1), balance: balance as Cents, apr, minimumPayment: minimum as Cents }],
      today: new Date().toISOString().slice(0, 10) as IsoDate,
    });
    return E.isRight(r) ? r.right.months : Number.POSITIVE_INFINITY;
  };
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (monthsAt(mid) <= months) high = mid;
    else low = mid + 1;
  }
  return high;
};

export interface HeavySetup {
  readonly token: string;
  readonly userId: number;
  readonly accountIds: ReadonlyArray<number>;
  readonly planIds: ReadonlyArray<number>;
  readonly monthlyPayment: number;
  /** Accounts in each plan (after any halving the server's plan size limit asked for). */
  readonly debtsPerPlan: number;
  /** Bytes of one plan as the API answers it. */
  readonly planBytes: number;
  readonly months: number;
  readonly endpoints: number;
  readonly endpointIds: ReadonlyArray<number>;
  readonly notes: ReadonlyArray<string>;
}

/** The heavy client and the largest plans its limits allow. */
const setUpHeavy = async (url: string, settings: IsolationSettings, hole: string): Promise<HeavySetup> => {
  const notes: string[] = [];
  const admin = apiOf(url, ADMIN_TOKEN);
  const made = await admin('POST', '/admin/clients', { name: 'Heavy app' });
  if (made.status !== 201) throw new Error(`creating the heavy client: ${made.status} ${JSON.stringify(made.body)}`);
  const token = made.body.token as string;
  const api = patient(apiOf(url, token));
  const user = await api('POST', '/api/users', { last_name: 'Heavy' });
  if (user.status !== 201) throw new Error(`creating the heavy user: ${user.status}`);
  const userId = user.body.id as number;
  const balance = 1_000_000;
  // A low APR, so the minimum that pays off in ~590 months is well above the interest (a steep edge otherwise: cents decide).
  const apr = 5;
  const minimum = minimumFor(balance, apr, settings.heavyMonths);
  const accountIds: number[] = [];
  for (let i = 0; i < settings.heavyDebts; i++) {
    const res = await api('POST', `/api/users/${userId}/accounts`, {
      name: `Loan ${i + 1}`,
      type: 'loan',
      subtype: 'personal_loan',
      balance: balance + i * 100,
      institution_apr: apr,
      institution_minimum_payment: minimum + i,
    });
    if (res.status === 409) {
      notes.push(`account quota reached at ${accountIds.length} accounts (${res.body?.error?.message ?? ''})`);
      break;
    }
    if (res.status !== 201) throw new Error(`linking a heavy account: ${res.status} ${JSON.stringify(res.body)}`);
    accountIds.push(res.body.id as number);
  }
  let debts = accountIds.length;
  const planIds: number[] = [];
  let planBytes = 0;
  let months = 0;
  let monthlyPayment = 0;
  while (planIds.length < settings.heavyPlans && debts > 0) {
    const chosen = accountIds.slice(0, debts);
    monthlyPayment = chosen.reduce((sum, _, i) => sum + minimum + i, 0);
    const res = await api('POST', `/api/users/${userId}/payment_plans`, {
      strategy: 'minimum_only',
      monthly_payment: monthlyPayment,
      account_ids: chosen,
    });
    if (res.status === 201) {
      planIds.push(res.body.id as number);
      // The bytes of the plan as the heavy client reads it (its version may embed the schedule).
      const read = await api(
        'GET',
        `/api/users/${userId}/payment_plans/${res.body.id}`,
        undefined,
        settings.heavyVersion === '' ? {} : { 'API-Version': settings.heavyVersion },
      );
      planBytes = JSON.stringify(read.body).length;
      months = res.body.months as number;
      continue;
    }
    if (res.status === 409) {
      notes.push(`plan quota reached at ${planIds.length} plans (${res.body?.error?.message ?? ''})`);
      break;
    }
    if (res.status === 400 && planIds.length === 0) {
      // Over the plan size limit: the largest allowed is smaller.
      const next = Math.floor(debts * 0.8);
      notes.push(`a plan of ${debts} accounts was refused (${res.body?.error?.message ?? ''}); trying ${next}`);
      debts = next;
      continue;
    }
    throw new Error(`creating a heavy plan: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  if (planIds.length === 0) throw new Error('the heavy client could not create any plan');
  let endpoints = 0;
  const endpointIds: number[] = [];
  for (let i = 0; i < settings.heavyEndpoints; i++) {
    const res = await api('POST', '/api/webhook_endpoints', { url: `${hole}?n=${i}` });
    if (res.status === 201) endpointIds.push(res.body.id as number);
    if (res.status === 409) {
      notes.push(`webhook endpoint quota reached at ${endpoints} (${res.body?.error?.message ?? ''})`);
      break;
    }
    if (res.status !== 201) throw new Error(`registering a heavy endpoint: ${res.status} ${JSON.stringify(res.body)}`);
    endpoints += 1;
  }
  return {
    token,
    userId,
    accountIds: accountIds.slice(0, debts),
    planIds,
    monthlyPayment,
    debtsPerPlan: debts,
    planBytes,
    months,
    endpoints,
    endpointIds,
    notes,
  };
};

export interface RunResult {
  readonly alone: LightResult;
  readonly beside: LightResult;
  readonly heavy: HeavySetup;
  readonly heavyLoad: HeavyReport;
  /** The server's CPU (all threads), microseconds, over the light phase alone and the phase beside the heavy client. */
  readonly cpuMicros: { readonly alone: number; readonly beside: number };
  /** The machine's one-minute load average at the end of each phase: other work on the shared cores. */
  readonly loadAverage: { readonly alone: number; readonly beside: number };
}

/** The server's CPU (user + system, all threads) so far, microseconds. */
const cpuOf = async (server: ChildProcess): Promise<number> => {
  const answer = nextMessage<{ kind: 'cpu'; micros: number }>(server);
  server.send({ kind: 'cpu' });
  return (await answer).micros;
};

const ratio = (r: RunResult): number => r.beside.p99Ms / r.alone.p99Ms;
const worst = (l: LightResult): number =>
  l.webhooksMissing > 0 ? Number.POSITIVE_INFINITY : (l.webhookDelaysMs[l.webhookDelaysMs.length - 1] ?? Number.NaN);
const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmtMicros = (n: number): string => `${Math.round(n)} µs`;
const ms = (n: number): string => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 1 : 0)} ms` : 'never');

/** One run: a fresh server, the light client alone, then beside the heavy client. */
export const isolationRun = async (settings: IsolationSettings, log: (line: string) => void = () => undefined): Promise<RunResult> => {
  const server = child('serve');
  const hole = await blackHole();
  const hook = await receiver();
  let heavy: ChildProcess | undefined;
  try {
    const ready = await nextMessage<ServerReady>(server);
    const light = apiOf(ready.url, ready.token);
    const registered = await light('POST', '/api/webhook_endpoints', { url: hook.url, events: ['account.created'] });
    if (registered.status !== 201)
      throw new Error(`registering the light endpoint: ${registered.status} ${JSON.stringify(registered.body)}`);
    // Warm-up (not recorded): the server's hot paths optimised, its pools started.
    await pacedReads(`${ready.url}/api/users/${ready.userId}/credit_scores`, ready.token, settings.lightRate, settings.warmupSeconds);
    log('  light client alone…');
    const cpu0 = await cpuOf(server);
    const alone = await lightLoad(ready.url, ready.token, ready.userId, settings.lightRate, settings.durationSeconds, hook);
    const cpu1 = await cpuOf(server);
    const loadAlone = loadavg()[0] ?? Number.NaN;
    log('  heavy client set-up…');
    const setup = await setUpHeavy(ready.url, settings, hole.url);
    heavy = child('heavy');
    // The load generator at the lowest CPU priority: a flooding client runs on a machine of its own, and on
    // these 2 cores an unpaced generator would otherwise take CPU from the server and from the light client
    // (its own CPU is printed with each run). It still takes every cycle they leave.
    if (heavy.pid !== undefined) setPriority(heavy.pid, 19);
    await nextMessage<{ kind: 'ready' }>(heavy);
    const report = nextMessage<HeavyReport>(heavy);
    heavy.send({
      kind: 'start',
      url: ready.url,
      token: setup.token,
      userId: setup.userId,
      planIds: setup.planIds,
      accountIds: setup.accountIds,
      monthlyPayment: setup.monthlyPayment,
      ...heavyLoadOf(settings),
      apiVersion: settings.heavyVersion,
      heavyKind: settings.heavyKind,
      endpointIds: setup.endpointIds,
    } satisfies HeavyStart);
    log('  light client beside the heavy one…');
    const cpu2 = await cpuOf(server);
    const beside = await lightLoad(ready.url, ready.token, ready.userId, settings.lightRate, settings.durationSeconds, hook);
    const cpu3 = await cpuOf(server);
    const loadBeside = loadavg()[0] ?? Number.NaN;
    heavy.send({ kind: 'stop' } satisfies HeavyStop);
    const heavyLoad = await report;
    return {
      alone,
      beside,
      heavy: setup,
      heavyLoad,
      cpuMicros: { alone: cpu1 - cpu0, beside: cpu3 - cpu2 },
      loadAverage: { alone: loadAlone, beside: loadBeside },
    };
  } finally {
    if (heavy !== undefined) await stopChild(heavy);
    await stopChild(server);
    await Promise.all([hole.close(), hook.close()]);
  }
};

const describeLight = (l: LightResult): string =>
  `p50 ${ms(l.p50Ms)}, p99 ${ms(l.p99Ms)} (${l.requests} reads, ${l.non2xx} not 2xx${l.non2xx > 0 ? `: ${JSON.stringify(l.statuses)}` : ''}); webhook delay median ${ms(median(l.webhookDelaysMs))}, worst ${ms(worst(l))}` +
  (l.webhooksMissing > 0 ? ` (${l.webhooksMissing} not delivered)` : '');

export const runIsolationBench = async (settings: IsolationSettings = isolationSettings()): Promise<ReadonlyArray<RunResult>> => {
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  print(
    `bench:isolation: ${settings.runs} runs; each ${settings.durationSeconds} s alone then ${settings.durationSeconds} s beside the heavy client; ` +
      `light reads at ${settings.lightRate}/s; heavy: up to ${settings.heavyPlans} plans of up to ${settings.heavyDebts} accounts × ~${settings.heavyMonths} months, ` +
      (settings.flood === true
        ? `flood: ${heavyLoadOf(settings).inFlight} connections back to back (BENCH_HEAVY_MODE=flood), `
        : `${settings.heavyInFlight} in flight paced at ${settings.heavyRate}/s, `) +
      `${settings.heavyEndpoints} endpoints that never answer, ` +
      `read in API version ${settings.heavyVersion || 'its pin'} (BENCH_HEAVY_VERSION); heavy load: ${settings.heavyKind} (BENCH_HEAVY_KIND); ` +
      `render cache ${process.env['DEBTKIT_RENDER_CACHE_MB'] || 'default'} MiB (DEBTKIT_RENDER_CACHE_MB); ` +
      `refusal hold ${process.env['DEBTKIT_REFUSAL_HOLD_MS'] || 'default'} ms (DEBTKIT_REFUSAL_HOLD_MS)`,
  );
  const runs: RunResult[] = [];
  for (let i = 0; i < settings.runs; i++) {
    print(`run ${i + 1}:`);
    const r = await isolationRun(settings, print);
    runs.push(r);
    const h = r.heavy;
    print(
      `  heavy client: ${h.planIds.length} plans of ${h.debtsPerPlan} accounts × ${h.months} months (${(h.planBytes / 1e6).toFixed(2)} MB each), ${h.endpoints} endpoints`,
    );
    for (const note of h.notes) print(`    ${note}`);
    const statuses = Object.entries(r.heavyLoad.byStatus)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    print(
      `  heavy load: ${r.heavyLoad.requests} requests (${statuses}; ${r.heavyLoad.errors} errors), ${(r.heavyLoad.bytes / 1e6).toFixed(0)} MB received; ` +
        `its load generator took ${(r.heavyLoad.cpuMicros / 1e6).toFixed(2)} s of CPU in ${r.heavyLoad.seconds.toFixed(1)} s (${Math.round((100 * r.heavyLoad.cpuMicros) / 1e6 / r.heavyLoad.seconds)}% of a core)`,
    );
    const refused = r.heavyLoad.byStatus['429'] ?? 0;
    const heavyCpu = r.cpuMicros.beside - r.cpuMicros.alone;
    print(
      `  server CPU: ${(r.cpuMicros.alone / 1e6).toFixed(2)} s alone, ${(r.cpuMicros.beside / 1e6).toFixed(2)} s beside; ` +
        (refused > 0
          ? `${fmtMicros(heavyCpu / refused)} per refused request (${refused} refused; the heavy client's served requests charged to it too)`
          : 'no heavy request refused'),
    );
    print(
      `  machine load average (1 min) at the end of each phase: ${r.loadAverage.alone.toFixed(1)} alone, ${r.loadAverage.beside.toFixed(1)} beside`,
    );
    print(`  light alone:  ${describeLight(r.alone)}`);
    print(`  light beside: ${describeLight(r.beside)}`);
    print(`  p99 ratio ${ratio(r).toFixed(2)}`);
  }
  const p99Ratio = median(runs.map(ratio));
  const delay = median(runs.map((r) => worst(r.beside)));
  print(`median of ${runs.length} runs:`);
  print(`  light p50 alone ${ms(median(runs.map((r) => r.alone.p50Ms)))}, beside ${ms(median(runs.map((r) => r.beside.p50Ms)))}`);
  print(`  light p99 alone ${ms(median(runs.map((r) => r.alone.p99Ms)))}, beside ${ms(median(runs.map((r) => r.beside.p99Ms)))}`);
  print(
    `  p99 ratio ${p99Ratio.toFixed(2)} (target ≤ ${P99_RATIO_TARGET}, goal ${P99_RATIO_GOAL}): ${p99Ratio <= P99_RATIO_GOAL ? 'goal met' : p99Ratio <= P99_RATIO_TARGET ? 'target met' : 'MISSED'}`,
  );
  print(
    `  light webhook delay, worst per run: ${ms(delay)} (target ≤ ${WEBHOOK_DELAY_TARGET_MS} ms): ${delay <= WEBHOOK_DELAY_TARGET_MS ? 'met' : 'MISSED'}`,
  );
  return runs;
};

const role = process.argv[2];
if (role === 'serve') {
  serveRole().catch((err: unknown) => {
    process.stderr.write(`isolation server: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
} else if (role === 'heavy') {
  heavyRole().then(
    // The report flushed, the channel closed: the process ends once its sockets do (the parent kills it after 10 s).
    () => process.disconnect?.(),
    (err: unknown) => {
      process.stderr.write(`isolation heavy client: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
} else if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  runIsolationBench().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`bench:isolation failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
