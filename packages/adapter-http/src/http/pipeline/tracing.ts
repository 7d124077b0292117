/**
 * One OpenTelemetry span per request (issue 24), made by hand with
 * `@opentelemetry/api` (no loader hooks): a SERVER span named by the route
 * pattern (`GET /api/users/:id`), child of the caller's span when the request
 * carries a W3C `traceparent`, with the method, route, status and the
 * authenticated client's id as attributes. The request's work runs in its
 * context, so the store's spans and the webhook deliveries it causes are its
 * children.
 *
 * Without a tracer provider registered (the default: tracing is off unless
 * OTEL_TRACES_EXPORTER is set, or the embedding service registers its own SDK)
 * the request runs as if this were not here: no span is made and the
 * `traceparent` header is not even read. That is asked per request (a
 * property read on the global provider), so a provider registered after the app
 * was made still traces.
 */
import { ProxyTracerProvider, SpanKind, SpanStatusCode, context, propagation, trace, type TextMapGetter } from '@opentelemetry/api';
import type Koa from 'koa';
import type { AppState } from '../app-context.js';

/** The instrumentation scope of every span debtkit makes. */
export const TRACER_NAME = '@debtkit/adapter-http';

/** The client id attribute (the authenticated client, as in the request log line). */
export const CLIENT_ID_ATTRIBUTE = 'debtkit.client_id';

const headerGetter: TextMapGetter<Koa.Context['headers']> = {
  keys: (headers) => Object.keys(headers),
  get: (headers, key) => headers[key],
};

/**
 * Whether no tracer provider is registered: the global provider is the API's
 * proxy with nothing behind it, so every span would be a no-op.
 */
const tracingOff = (): boolean => {
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider && provider.getDelegateTracer(TRACER_NAME) === undefined;
};

export const traceRequests = (): Koa.Middleware<AppState> => {
  const tracer = trace.getTracer(TRACER_NAME);
  const traced = async (ctx: Koa.ParameterizedContext<AppState>, next: Koa.Next): Promise<void> => {
    const parent = propagation.extract(context.active(), ctx.headers, headerGetter);
    const span = tracer.startSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path } },
      parent,
    );
    if (!span.isRecording()) {
      span.end();
      return next();
    }
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      const route = ctx.state.route;
      if (route !== undefined) {
        span.updateName(`${ctx.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', ctx.status);
      if (ctx.state.client !== undefined) span.setAttribute(CLIENT_ID_ATTRIBUTE, ctx.state.client.id);
      // OpenTelemetry's HTTP server rule: 5xx is an error of the server, 4xx is the client's.
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
  // A plain function, not `async`: a step that passes a request on returns `next()`'s own promise, without an async function's wrapper (docs/performance.md, round 5).
  return function tracing(ctx, next) {
    return tracingOff() ? next() : traced(ctx, next);
  };
};
