/**
 * The per-request metrics (docs/operations.md), recorded for a few nanoseconds each.
 *
 * prom-client's `inc(labels)` and `observe(labels, value)` cost about a
 * microsecond per request between them: each validates the labels object,
 * hashes it into a string, looks the series up, and the histogram finds its
 * bucket through a number-to-string key. Here a request is recorded with one
 * lookup in nested maps (route, then method, then status: the route and method
 * strings are the same string objects every time, so their hashes are cached,
 * and the status is a small integer; one string key built per request costs
 * five times as much), three additions and one bucket increment.
 *
 * prom-client still does everything else: the two families are prom-client
 * `Counter` and `Histogram` subclasses registered in the app's registry, whose
 * `get()` builds the samples from this table when `/metrics` is scraped, so
 * the exposition (names, HELP/TYPE lines, label order, escaping, values) is
 * prom-client's own rendering.
 *
 * Series are bounded as they were with prom-client: routes are the route
 * table's patterns or `unmatched`, statuses are those the app answers with, and
 * methods are those Node's HTTP parser accepts (it answers any other method
 * with 400 before the app sees the request).
 *
 * The one other histogram every `/api` request moves, the admission wait, is
 * recorded the same way (`createUnlabelledHistogram`, at the end).
 */
import { Counter, Histogram, type Aggregator, type Registry } from 'prom-client';

export type RequestLabel = 'method' | 'route' | 'status';

export type RequestLabels = Readonly<Record<RequestLabel, string>>;

/** A histogram series' observations since its last reset. */
interface Observations {
  count: number;
  sum: number;
  /** Per bucket, not cumulative: slot i counts values in (bounds[i-1], bounds[i]]; above the last bound only `count` moves. */
  readonly buckets: Float64Array;
}

const noObservations = (bounds: readonly number[]): Observations => ({ count: 0, sum: 0, buckets: new Float64Array(bounds.length) });

/** One observation: a count, a sum and a bucket increment (linear, as most land in the first bucket or two). */
const observeInto = (series: Observations, bounds: readonly number[], value: number): void => {
  series.count += 1;
  series.sum += value;
  for (let i = 0; i < bounds.length; i++) {
    if (value <= bounds[i]!) {
      series.buckets[i]! += 1;
      break;
    }
  }
};

/** One method, route and status: what the counter and the histogram hold for it since their last reset. */
interface Series extends Observations {
  /** The labels in prom-client's order (as given to `inc` and `observe` before): method, route, status. */
  readonly labels: RequestLabels;
  /** The counter's value. */
  requests: number;
}

export interface RequestMetricsOptions {
  readonly registry: Registry;
  /** Upper bounds of the duration buckets in seconds, ascending (+Inf is implicit). */
  readonly buckets: readonly number[];
}

export interface RequestMetrics {
  /** Counts one answered request and observes its duration: the only way these two families move. */
  readonly record: (method: string, route: string, status: number, seconds: number) => void;
}

/** The series table the recorder writes and the two metric families read at scrape time. */
class RequestTable {
  /** route → method → status → series. */
  private readonly byRoute = new Map<string, Map<string, Map<number, Series>>>();
  /**
   * Each family's series in the order first recorded since its last reset, as
   * prom-client lists them; a series is in a list exactly when its value in
   * that family is not zero.
   */
  readonly counted: Series[] = [];
  readonly timed: Series[] = [];

  constructor(readonly bounds: readonly number[]) {}

  readonly record = (method: string, route: string, status: number, seconds: number): void => {
    let byMethod = this.byRoute.get(route);
    if (byMethod === undefined) this.byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) byStatus.set(status, (series = this.create(method, route, status)));
    if (series.requests++ === 0) this.counted.push(series);
    if (series.count === 0) this.timed.push(series);
    observeInto(series, this.bounds, seconds);
  };

  private create(method: string, route: string, status: number): Series {
    return { labels: Object.freeze({ method, route, status: String(status) }), requests: 0, ...noObservations(this.bounds) };
  }

  /** Series stay in the maps (their number is bounded, see above); a reset family lists none until recorded again. */
  resetRequests(): void {
    for (const series of this.counted) series.requests = 0;
    this.counted.length = 0;
  }

  resetDurations(): void {
    for (const series of this.timed) {
      series.count = 0;
      series.sum = 0;
      series.buckets.fill(0);
    }
    this.timed.length = 0;
  }
}

/**
 * `debtkit_http_requests_total`. A prom-client Counter so that the registry
 * takes it and renders it as its own; its samples come from the table, and it
 * is not handed out, so nothing calls the `inc` it inherits.
 */
class RequestCounter extends Counter<RequestLabel> {
  private readonly table: RequestTable;

  constructor(table: RequestTable, registry: Registry) {
    super({
      name: 'debtkit_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    });
    this.table = table;
  }

  override async get(): ReturnType<Counter<RequestLabel>['get']> {
    // prom-client's own answer gives the name, help, type and aggregator; its series map stays empty.
    const own = await super.get();
    const values = [];
    for (const series of this.table.counted) {
      values.push({ value: series.requests, labels: series.labels });
    }
    return { ...own, values };
  }

  /** prom-client's constructor calls this before `table` is set: nothing is recorded yet then. */
  override reset(): void {
    super.reset();
    if (this.table !== undefined) this.table.resetRequests();
  }
}

const DURATION_NAME = 'debtkit_http_request_duration_seconds';
const DURATION_HELP = 'Time from the request to its answer, by method, route pattern and status';
const AGGREGATOR: Aggregator = 'sum';

/**
 * What prom-client's Registry reads from a histogram's `getForPromString()`
 * (lib/histogram.js and lib/registry.js; the method is not in prom-client's
 * type declarations): `labels` holds `le`, `sharedLabels` the series' labels,
 * and the registry writes `le` first, then the shared labels.
 */
interface HistogramExposition {
  readonly name: string;
  readonly help: string;
  readonly type: 'histogram';
  readonly aggregator: Aggregator;
  readonly values: ReadonlyArray<ExposedValue>;
}

interface ExposedValue {
  readonly value: number;
  readonly labels: { le?: number | string };
  readonly sharedLabels: RequestLabels | Record<string, never>;
  readonly metricName: string;
}

/**
 * A series' samples as prom-client lists them: cumulative buckets, +Inf, the
 * sum, the count. Label objects are fresh: `get()` adds the shared labels to them.
 */
const exposeSeries = (
  values: ExposedValue[],
  name: string,
  bounds: readonly number[],
  series: Observations,
  sharedLabels: ExposedValue['sharedLabels'],
): void => {
  const bucket = `${name}_bucket`;
  let below = 0;
  for (let i = 0; i < bounds.length; i++) {
    below += series.buckets[i]!;
    values.push({ value: below, labels: { le: bounds[i]! }, sharedLabels, metricName: bucket });
  }
  values.push({ value: series.count, labels: { le: '+Inf' }, sharedLabels, metricName: bucket });
  values.push({ value: series.sum, labels: {}, sharedLabels, metricName: `${name}_sum` });
  values.push({ value: series.count, labels: {}, sharedLabels, metricName: `${name}_count` });
};

/**
 * `debtkit_http_request_duration_seconds`, likewise. prom-client's Histogram
 * builds both its text and its `get()` (for `getMetricsAsJSON`) from
 * `getForPromString()`, so that is the one method it takes over.
 */
class RequestDurationHistogram extends Histogram<RequestLabel> {
  private readonly table: RequestTable;

  constructor(table: RequestTable, registry: Registry) {
    super({
      name: DURATION_NAME,
      help: DURATION_HELP,
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [...table.bounds],
      aggregator: AGGREGATOR,
      registers: [registry],
    });
    this.table = table;
  }

  async getForPromString(): Promise<HistogramExposition> {
    const values: ExposedValue[] = [];
    for (const series of this.table.timed) exposeSeries(values, DURATION_NAME, this.table.bounds, series, series.labels);
    return { name: DURATION_NAME, help: DURATION_HELP, type: 'histogram', aggregator: AGGREGATOR, values };
  }

  /** prom-client's constructor calls this before `table` is set: nothing is recorded yet then. */
  override reset(): void {
    super.reset();
    if (this.table !== undefined) this.table.resetDurations();
  }
}

/** Registers `debtkit_http_requests_total` and `debtkit_http_request_duration_seconds` in the registry, and returns their recorder. */
export const createRequestMetrics = (options: RequestMetricsOptions): RequestMetrics => {
  const table = new RequestTable([...options.buckets]);
  // prom-client metrics register themselves in the registries they are given.
  new RequestCounter(table, options.registry);
  new RequestDurationHistogram(table, options.registry);
  return { record: table.record };
};

export interface UnlabelledHistogramOptions {
  readonly registry: Registry;
  readonly name: string;
  readonly help: string;
  /** Upper bounds in seconds, ascending (+Inf is implicit). */
  readonly buckets: readonly number[];
}

/**
 * A histogram with no labels observed on every request
 * (`debtkit_admission_wait_seconds`): prom-client's `observe` makes a closure,
 * validates and hashes an empty labels object and looks its one series up on
 * every call (2.0 µs of a served ping's 171 in a sampled CPU profile); here an
 * observation is a count, a sum and a bucket increment. Rendered by
 * prom-client from `getForPromString()`, as the request histogram above; after
 * a reset it lists no series until it observes again, as prom-client's does.
 */
class UnlabelledHistogram extends Histogram {
  private readonly family: { readonly name: string; readonly help: string };
  private readonly bounds: readonly number[];
  private series: Observations | undefined;

  constructor(options: UnlabelledHistogramOptions) {
    const { name, help } = options;
    super({ name, help, buckets: [...options.buckets], aggregator: AGGREGATOR, registers: [options.registry] });
    this.family = { name, help };
    this.bounds = [...options.buckets];
    this.series = noObservations(this.bounds);
  }

  readonly record = (value: number): void => observeInto((this.series ??= noObservations(this.bounds)), this.bounds, value);

  async getForPromString(): Promise<HistogramExposition> {
    const values: ExposedValue[] = [];
    const { name, help } = this.family;
    if (this.series !== undefined) exposeSeries(values, name, this.bounds, this.series, {});
    return { name, help, type: 'histogram', aggregator: AGGREGATOR, values };
  }

  /** prom-client's constructor calls this before the series exists. */
  override reset(): void {
    super.reset();
    this.series = undefined;
  }
}

/** Registers an unlabelled histogram in the registry, and returns its recorder (in seconds). */
export const createUnlabelledHistogram = (options: UnlabelledHistogramOptions): ((value: number) => void) =>
  new UnlabelledHistogram(options).record;
