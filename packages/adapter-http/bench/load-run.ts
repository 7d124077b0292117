/** One route under load with autocannon: a warm-up run that is thrown away, then the measured run. */
import autocannon from 'autocannon';
import type { BenchRoute } from './bench-routes.js';

export interface LoadSettings {
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  /** A fixed offered load (requests per second over all connections); absent: as fast as the server answers. */
  readonly overallRate?: number;
}

export interface LoadTarget {
  readonly baseUrl: string;
  /** Headers added to the route's own (the bearer token). */
  readonly headers: Readonly<Record<string, string>>;
  /** The server process's CPU time so far, in microseconds. */
  readonly cpuMicros: () => Promise<number>;
}

export interface LoadResult {
  /** Mean of the per-second request counts. */
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly total: number;
  /** Server CPU time per completed request, in microseconds. */
  readonly cpuMicrosPerRequest: number;
}

export const loadRoute = async (target: LoadTarget, route: BenchRoute, settings: LoadSettings): Promise<LoadResult> => {
  const options = {
    url: target.baseUrl + route.path,
    method: route.method,
    headers: { ...route.headers, ...target.headers },
    ...(route.body === undefined ? {} : { body: route.body }),
    connections: settings.connections,
    ...(settings.overallRate === undefined ? {} : { overallRate: settings.overallRate }),
  };
  // The warm-up lets V8 optimise the hot paths before anything is recorded.
  if (settings.warmupSeconds > 0) await autocannon({ ...options, duration: settings.warmupSeconds });
  const cpuBefore = await target.cpuMicros();
  const result = await autocannon({ ...options, duration: settings.durationSeconds });
  const cpuAfter = await target.cpuMicros();
  return {
    requestsPerSecond: result.requests.mean,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
    cpuMicrosPerRequest: result.requests.total === 0 ? Number.NaN : (cpuAfter - cpuBefore) / result.requests.total,
  };
};
