/**
 * # The dashboard, with one command
 *
 * `npm run dashboard` builds the page with Vite and serves it on 127.0.0.1
 * (PORT, default 5173), in front of debtkit: the page's own calls under `/api/`
 * (its reads, and creating a missing plan) are passed to debtkit with the
 * sandbox token added, other API calls are refused, everything else is the built page.
 * So the page and the API share one origin (debtkit has no CORS), and the
 * token never reaches the browser.
 *
 * Which debtkit: DEBTKIT_URL and DEBTKIT_TOKEN when set (say, an `npm start`
 * running beside it: its demo data and the token it prints); otherwise it starts
 * the same server as `npm start` in this process (sandbox, memory store, demo
 * data). Open the printed address; `?user=<id>` shows another user.
 *
 * Tested in Chromium by examples/test/dashboard.test.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import pino from 'pino';
import type { Clock } from '@debtkit/core';
import { loadConfig, startServer, type RunningServer } from '@debtkit/adapter-http';

/** examples/dashboard, from this file's place in examples/dist/dashboard (or its source beside it). */
const HERE = fileURLToPath(new URL('.', import.meta.url));
export const DASHBOARD_ROOT = HERE.includes(`${sep}dist${sep}`) ? resolve(HERE, '../../dashboard') : HERE;
/** Where the built page goes: beside the compiled examples, never into the sources. */
export const PAGE_DIR = resolve(DASHBOARD_ROOT, '../dist/dashboard/page');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/**
 * What the page may ask of debtkit through this server, and nothing more: the server
 * holds a client token, so it passes only the reads the page makes and the one
 * change it may make (creating a missing plan). Anything else is 403 here.
 */
const PAGE_CALLS: ReadonlyArray<readonly [string, RegExp]> = [
  ['GET', /^\/api\/users\/\d+(\/accounts|\/payment_plans(\/\d+(\/schedule|\/credit_outlook)?)?)?$/],
  ['POST', /^\/api\/users\/\d+\/payment_plans$/],
];

export const pageMayCall = (method: string, url: string): boolean => {
  const path = new URL(url, 'http://localhost').pathname;
  return PAGE_CALLS.some(([m, pattern]) => m === method && pattern.test(path));
};

/** Request headers not passed on: hop-by-hop ones, the browser's own authorization, and what fetch recomputes. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'authorization',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'cookie',
  'origin',
  'referer',
]);
/** Answer headers not passed back: fetch has already decoded the body, so its length and encoding are ours to set. */
const NOT_RETURNED = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * Builds the page with Vite into `outDir` (about a second). Vite's build sets
 * `process.env.NODE_ENV = 'production'` in the calling process; it is put back,
 * or everything the process runs afterwards inherits it (an `npm install` then
 * leaves out devDependencies: the packaging test, run after this one in a
 * mocha worker, did).
 */
export const buildDashboard = async (outDir: string = PAGE_DIR): Promise<void> => {
  const { build } = await import('vite');
  const nodeEnv = process.env['NODE_ENV'];
  try {
    await build({ root: DASHBOARD_ROOT, configFile: false, logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true } });
  } finally {
    if (nodeEnv === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = nodeEnv;
  }
};

export interface DashboardOptions {
  /** debtkit's address, e.g. http://127.0.0.1:3000. */
  readonly apiUrl: string;
  /** The client token the server adds to every `/api/` request. */
  readonly token: string;
  readonly pageDir?: string;
  readonly host?: string;
  readonly port?: number;
}

export interface DashboardServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage): Promise<Buffer | undefined> => {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const proxy = async (request: IncomingMessage, response: ServerResponse, options: DashboardOptions): Promise<void> => {
  if (!pageMayCall(request.method ?? 'GET', request.url ?? '/')) {
    const body = JSON.stringify({ error: { code: 'forbidden', message: 'the dashboard passes on only the calls its page makes' } });
    response.writeHead(403, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }).end(body);
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  headers.set('authorization', `Bearer ${options.token}`);
  const body = await readBody(request);
  const answer = await fetch(new URL(request.url ?? '/', options.apiUrl), {
    method: request.method ?? 'GET',
    headers,
    redirect: 'manual',
    ...(body === undefined ? {} : { body: new Uint8Array(body) }),
  });
  const bytes = Buffer.from(await answer.arrayBuffer());
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!NOT_RETURNED.has(name)) out[name] = value;
  });
  response.writeHead(answer.status, { ...out, 'content-length': String(bytes.length) });
  response.end(bytes);
};

const serveFile = async (request: IncomingMessage, response: ServerResponse, pageDir: string): Promise<void> => {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  const file = normalize(join(pageDir, path === '/' ? 'index.html' : decodeURIComponent(path)));
  if (!file.startsWith(pageDir + sep) || (request.method !== 'GET' && request.method !== 'HEAD')) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  response.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': String(bytes.length),
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    // Scripts and data from this origin only; Chartist sizes its labels with style attributes.
    'content-security-policy':
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
  });
  response.end(request.method === 'HEAD' ? undefined : bytes);
};

/** Serves the built page and passes `/api/` to debtkit with the token. */
export const serveDashboard = async (options: DashboardOptions): Promise<DashboardServer> => {
  const pageDir = resolve(options.pageDir ?? PAGE_DIR);
  const server = createServer((request, response) => {
    const handled = (request.url ?? '').startsWith('/api/') ? proxy(request, response, options) : serveFile(request, response, pageDir);
    handled.catch(() => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'bad_gateway', message: 'debtkit did not answer' } }));
    });
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const url = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    server,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
};

/** `npm start`'s server, in this process: sandbox, memory store, demo data. */
export const startDemoDebtkit = async (clock?: Clock): Promise<RunningServer & { readonly token: string }> => {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DEBTKIT_ENV: 'sandbox', DEBTKIT_STORE: 'memory', LOG_LEVEL: 'warn' });
  if (E.isLeft(config)) throw new Error(config.left);
  const running = await startServer({ config: config.right, logger: pino({ level: 'warn' }), ...(clock === undefined ? {} : { clock }) });
  if (running.demo === undefined) throw new Error('the sandbox server seeded no demo client');
  return Object.assign(running, { token: running.demo.token });
};

const main = async (): Promise<void> => {
  const given = process.env['DEBTKIT_URL'];
  const debtkit = given === undefined ? await startDemoDebtkit() : undefined;
  const apiUrl = given ?? debtkit!.url;
  const token = process.env['DEBTKIT_TOKEN'] ?? debtkit?.token;
  if (token === undefined) throw new Error('DEBTKIT_URL is set: set DEBTKIT_TOKEN to its client token too');
  await buildDashboard();
  const dashboard = await serveDashboard({ apiUrl, token, port: Number(process.env['PORT'] ?? 5173) });
  console.log(
    `debtkit dashboard on ${dashboard.url} (the API: ${apiUrl}${debtkit === undefined ? '' : ', started here with the demo data'}); Ctrl-C stops it`,
  );
  const stop = async (): Promise<void> => {
    await dashboard.close();
    await debtkit?.shutdown();
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(`dashboard: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  });
}
