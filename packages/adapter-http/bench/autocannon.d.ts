/**
 * The part of autocannon's library API the benchmark uses (the package ships
 * no types). Latencies are in milliseconds, request rates per second.
 */
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      readonly url: string;
      readonly method?: string;
      readonly headers?: Readonly<Record<string, string>>;
      readonly body?: string;
      readonly connections?: number;
      /** Seconds. */
      readonly duration?: number;
      readonly pipelining?: number;
      /** Requests per second across all connections (default: as fast as the server answers). */
      readonly overallRate?: number;
      /** Seconds before a request counts as a timeout. */
      readonly timeout?: number;
    }

    interface Histogram {
      readonly average: number;
      readonly mean: number;
      readonly stddev: number;
      readonly min: number;
      readonly max: number;
      readonly p50: number;
      readonly p90: number;
      readonly p99: number;
    }

    interface Result {
      readonly requests: Histogram & { readonly total: number; readonly sent: number };
      readonly latency: Histogram;
      readonly throughput: Histogram;
      readonly duration: number;
      readonly errors: number;
      readonly timeouts: number;
      readonly non2xx: number;
      readonly '2xx': number;
      readonly statusCodeStats: Readonly<Record<string, { readonly count: number }>>;
    }
  }

  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
