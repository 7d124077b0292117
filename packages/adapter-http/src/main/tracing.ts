/**
 * OpenTelemetry tracing of the `debtkit` server, the way libraries do it
 * (issue 24): debtkit's packages make their spans with `@opentelemetry/api`
 * only; the SDK and the OTLP exporter are optional peers of this package,
 * loaded here when `OTEL_TRACES_EXPORTER` asks for an exporter. Off by default.
 *
 * Configured by the standard variables, read by the SDK itself:
 * `OTEL_TRACES_EXPORTER` (`otlp`, `console` or `none`; unset is `none`),
 * `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 * (default `http://localhost:4318/v1/traces`), `OTEL_EXPORTER_OTLP_HEADERS`,
 * `OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*` and the like. W3C
 * trace context is the propagator: an incoming `traceparent` is honoured.
 *
 * An embedding service does not call this: it registers its own SDK, and the
 * spans debtkit makes through the API land in it.
 */
import { importPeer } from './optional-peers.js';
import { StartupError } from './startup-error.js';

export const SDK_PACKAGE = '@opentelemetry/sdk-trace-node';
export const OTLP_EXPORTER_PACKAGE = '@opentelemetry/exporter-trace-otlp-http';

export interface Tracing {
  /** Flush the spans still buffered and stop exporting (on shutdown). */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { shutdown: () => Promise.resolve() };

/** The exporters OTEL_TRACES_EXPORTER may name here. */
const EXPORTERS = ['otlp', 'console', 'none'] as const;
type ExporterName = (typeof EXPORTERS)[number];

/**
 * Start tracing as `OTEL_TRACES_EXPORTER` says: nothing when it is unset or
 * `none`; else the SDK with a batch span processor on that exporter, registered
 * as the process's tracer provider (with the async-hooks context manager and
 * the W3C propagator). A missing peer stops the start with one line naming it.
 */
export const startTracing = async (env: Readonly<Record<string, string | undefined>>): Promise<Tracing> => {
  const raw = env['OTEL_TRACES_EXPORTER']?.trim() ?? '';
  if (raw === '') return OFF;
  const names = raw
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const unknown = names.filter((n) => !(EXPORTERS as ReadonlyArray<string>).includes(n));
  if (unknown.length > 0) throw new StartupError(`OTEL_TRACES_EXPORTER must be otlp, console or none (got ${JSON.stringify(unknown[0])})`);
  const wanted = names.filter((n): n is Exclude<ExporterName, 'none'> => n !== 'none');
  if (wanted.length === 0) return OFF;
  const sdk = await importPeer(SDK_PACKAGE, `OTEL_TRACES_EXPORTER=${raw}`, () => import('@opentelemetry/sdk-trace-node'));
  const exporters = await Promise.all(
    wanted.map(async (name) => {
      if (name === 'console') return new sdk.ConsoleSpanExporter();
      const otlp = await importPeer(
        OTLP_EXPORTER_PACKAGE,
        `OTEL_TRACES_EXPORTER=${raw}`,
        () => import('@opentelemetry/exporter-trace-otlp-http'),
      );
      return new otlp.OTLPTraceExporter();
    }),
  );
  const provider = new sdk.NodeTracerProvider({ spanProcessors: exporters.map((e) => new sdk.BatchSpanProcessor(e)) });
  provider.register();
  return { shutdown: () => provider.shutdown() };
};
