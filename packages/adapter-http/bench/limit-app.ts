/**
 * The limit of docs/performance.md: node:http alone, answering each benchmarked route
 * with the bytes debtkit sends for it (its JSON text, gzip-compressed for the
 * route requested with gzip), found by method and path in a Map. No routing
 * patterns, no middleware, no per-request serialisation: what one Node process
 * can answer at all on this machine.
 */
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { CannedResponse } from './bench-routes.js';

export interface LimitRoute {
  readonly response: CannedResponse;
  /** The concrete path requested. */
  readonly path: string;
}

export const createLimitServer = (routes: ReadonlyArray<LimitRoute>): Server => {
  const answers = new Map<string, { status: number; headers: Record<string, string>; bytes: Buffer }>();
  for (const { response, path } of routes) {
    const text = Buffer.from(JSON.stringify(response.body));
    const bytes = response.gzip ? gzipSync(text) : text;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(bytes.length),
      ...(response.gzip ? { 'Content-Encoding': 'gzip' } : {}),
    };
    answers.set(`${response.method} ${path}`, { status: response.status, headers, bytes });
  }
  return createServer((req, res) => {
    const answer = answers.get(`${req.method} ${req.url}`);
    // Request bodies are drained, not read.
    req.resume();
    if (answer === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, answer.headers).end(answer.bytes);
  });
};
