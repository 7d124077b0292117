/**
 * A child span per store port call (issue 24), on any store: every method of
 * every storage port is wrapped, at the port's activation in the container,
 * so the memory store, the mongo store and a store an embedding service binds
 * are traced alike. The ports answer `TaskEither`s (a thunk of a promise of an
 * `Either`): the span covers the run of the task, not its making, and a `Left`
 * (a domain error, an unavailable store) is recorded on it.
 *
 * Without a tracer provider, or outside a traced request, nothing records:
 * the wrapper then only forwards the call.
 */
import { SpanKind, SpanStatusCode, context, trace, type Tracer } from '@opentelemetry/api';
import type { Container } from 'inversify';
import {
  PORTS,
  STORE_PORTS,
  STORE_PORT_KEYS,
  mapStorePorts,
  mapUnitOfWork,
  type PortToken,
  type TransactionPorts,
  type UnitOfWork,
} from '@debtkit/core';
import { TRACER_NAME } from '../http/pipeline/tracing.js';

/** The storage ports bound in the container, by the names their spans carry (`store users.get`): the port table, and the health port. */
export const TRACED_STORE_PORTS: ReadonlyArray<readonly [string, PortToken<object>]> = [
  ...STORE_PORT_KEYS.map((key): readonly [string, PortToken<object>] => [key, STORE_PORTS[key]]),
  ['health', PORTS.StoreHealth],
];

const isLeft = (value: unknown): boolean => typeof value === 'object' && value !== null && (value as { _tag?: unknown })._tag === 'Left';

/** The task `run`, inside a span named `name` (a child of the active span), ended when it settles. */
const traced = (tracer: Tracer, name: string, run: () => unknown): unknown => {
  const parent = context.active();
  // Only inside a traced request (or delivery): a store call on its own is no trace of interest.
  if (trace.getSpan(parent)?.isRecording() !== true) return run();
  const span = tracer.startSpan(
    name,
    { kind: SpanKind.INTERNAL, attributes: { 'debtkit.store.call': name.slice('store '.length) } },
    parent,
  );
  const end = (result: unknown): unknown => {
    if (isLeft(result)) {
      const left = (result as { left?: { _tag?: unknown } }).left;
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(left?._tag ?? 'left') });
    }
    span.end();
    return result;
  };
  try {
    const result = context.with(trace.setSpan(parent, span), run);
    if (result instanceof Promise) {
      return result.then(end, (err: unknown) => {
        span.recordException(err instanceof Error ? err : String(err));
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        throw err;
      });
    }
    return end(result);
  } catch (err) {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    throw err;
  }
};

/**
 * `port` with every method wrapped: a method answering a task (a function of no
 * arguments) answers a task that runs in a span; any other answer is returned
 * as it is (the call itself is then what the span covers).
 */
export const traceStorePort = <P extends object>(name: string, port: P, tracer: Tracer = trace.getTracer(TRACER_NAME)): P => {
  // One wrapper per method, made on first use (a port's methods do not change).
  const wrappers = new Map<string, { readonly of: unknown; readonly wrapper: (...args: unknown[]) => unknown }>();
  return new Proxy(port, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'constructor') return value;
      const known = wrappers.get(key);
      if (known !== undefined && known.of === value) return known.wrapper;
      const method = value as (...args: unknown[]) => unknown;
      const spanName = `store ${name}.${key}`;
      const wrapper = function tracedStoreCall(...args: unknown[]): unknown {
        const made = method.apply(target, args);
        if (typeof made === 'function' && made.length === 0) return () => traced(tracer, spanName, made as () => unknown);
        return made;
      };
      wrappers.set(key, { of: value, wrapper });
      return wrapper;
    },
  });
};

/** The ports a transaction hands out, each traced like the bound ones. */
const tracedTransactionPorts = (ports: TransactionPorts): TransactionPorts =>
  // Outside a recorded span nothing would record: the ports go as they are, with no wrapper made per transaction.
  trace.getSpan(context.active())?.isRecording() === true ? mapStorePorts(ports, (key, port) => traceStorePort(key, port)) : ports;

/** A unit of work whose transactions hand out traced ports (the use cases' store calls run through them). */
export const traceUnitOfWork = (unitOfWork: UnitOfWork): UnitOfWork => mapUnitOfWork(unitOfWork, tracedTransactionPorts);

/** Wrap every storage port bound in `container`, and the ports of every transaction, when first resolved. */
export const traceStorePorts = (container: Container): void => {
  for (const [name, token] of TRACED_STORE_PORTS) container.onActivation<object>(token, (_ctx, port) => traceStorePort(name, port));
  container.onActivation(PORTS.UnitOfWork, (_ctx, unitOfWork) => traceUnitOfWork(unitOfWork));
};
