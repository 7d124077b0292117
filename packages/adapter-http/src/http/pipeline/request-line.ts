/**
 * The request line: the one log line every request writes (docs/performance.md).
 *
 * pino turns a log call into its line generically: for every field it checks
 * for serializers, redaction and formatters and picks how to quote the value.
 * That generic path was, under load, about a twentieth of a request's CPU.
 * The request line always has the same few fields, so when the logger does
 * nothing to a line besides pino's standard output, the line is put together
 * here from the pieces pino itself prepared for that logger: the level
 * prefix (with its level formatter applied), the timestamp function, the
 * bindings (`pid`, `hostname`, a child's bindings) and the line ending. It is
 * written to the logger's own destination. The result is the line pino would
 * write, field for field and in pino's order (a lone surrogate in a value, which
 * pino before Node 25 writes as it is, is escaped as `JSON.stringify` escapes it:
 * the same value once parsed).
 *
 * The pieces are on `pino.symbols`, which pino exposes "for integration purposes
 * with ecosystem and third party libraries ... for performant integration where
 * necessary". Anything that can change a line sends it through `logger.info`
 * instead, at the cost of the generic path:
 * - a mixin, or `logMethod` or `streamWrite` hooks;
 * - a `log` formatter, a `nestedKey`, a message prefix, or a message key other than `msg`;
 * - redaction (stringifiers), or a serializer for one of the line's fields or the message;
 * - a destination that wants metadata (pino's multistream);
 * - a pino without the expected pieces.
 * The checks are made once per logger; the level is checked on every line,
 * since it can change at run time.
 */
import pino from 'pino';
import type { Logger } from '../../logger.js';

export interface RequestLine {
  readonly requestId: string;
  /** The authenticated client's id, when the request got that far (absent on probes, admin calls and refused tokens). */
  readonly clientId?: number;
  /** The client's address (behind trusted proxies, the forwarded one: docs/decisions/proxies.md) and the scheme it used. */
  readonly ip: string;
  readonly scheme: string;
  readonly method: string;
  /** The route pattern, or the raw path (cut) when no route matched. */
  readonly route: string;
  readonly status: number;
  readonly durationMs: number;
  /** The client left before the answer was sent. */
  readonly aborted: boolean;
}

export type WriteRequestLine = (line: RequestLine) => void;

const MESSAGE = 'request';
const ABORTED_MESSAGE = 'request aborted by the client';
/** The fields a request line has, besides the message: a serializer on any of them must run. */
const FIELDS = ['request_id', 'client_id', 'ip', 'scheme', 'method', 'route', 'status', 'duration_ms', 'aborted', 'msg'] as const;

/** The line as fields for `logger.info` (the generic path), in the order they are written. */
export const requestLineFields = (line: RequestLine): Record<string, unknown> => ({
  request_id: line.requestId,
  ...(line.clientId === undefined ? {} : { client_id: line.clientId }),
  ip: line.ip,
  scheme: line.scheme,
  method: line.method,
  route: line.route,
  status: line.status,
  duration_ms: line.durationMs,
  ...(line.aborted ? { aborted: true } : {}),
});

const messageOf = (line: RequestLine): string => (line.aborted ? ABORTED_MESSAGE : MESSAGE);

const {
  lsCacheSym,
  timeSym,
  chindingsSym,
  endSym,
  streamSym,
  mixinSym,
  messageKeySym,
  nestedKeySym,
  stringifiersSym,
  hooksSym,
  formattersSym,
  serializersSym,
  needsMetadataGsym,
} = pino.symbols;
// On `pino.symbols` at run time, not in pino's type declarations.
const msgPrefixSym: unknown = Reflect.get(pino.symbols, 'msgPrefixSym');

const isRecord = (value: unknown): value is Record<PropertyKey, unknown> => typeof value === 'object' && value !== null;
const isWritable = (value: unknown): value is { write(line: string): unknown } => isRecord(value) && typeof value['write'] === 'function';

/** Whether `logger` is a pino logger whose lines nothing touches besides pino's standard output, with the pieces this needs. */
const plainPino = (logger: Logger): boolean => {
  const get = (symbol: symbol): unknown => Reflect.get(logger, symbol);
  const hooks = get(hooksSym);
  const formatters = get(formattersSym);
  const serializers = get(serializersSym);
  const stringifiers = get(stringifiersSym);
  const stream = get(streamSym);
  return (
    isRecord(get(lsCacheSym)) &&
    typeof get(timeSym) === 'function' &&
    typeof get(chindingsSym) === 'string' &&
    typeof get(endSym) === 'string' &&
    isWritable(stream) &&
    Reflect.get(stream, needsMetadataGsym) !== true &&
    !get(mixinSym) &&
    get(messageKeySym) === 'msg' &&
    !get(nestedKeySym) &&
    typeof msgPrefixSym === 'symbol' &&
    !get(msgPrefixSym) &&
    isRecord(hooks) &&
    hooks['logMethod'] === undefined &&
    hooks['streamWrite'] === undefined &&
    isRecord(formatters) &&
    formatters['log'] === undefined &&
    isRecord(stringifiers) &&
    Reflect.ownKeys(stringifiers).length === 0 &&
    isRecord(serializers) &&
    FIELDS.every((field) => serializers[field] === undefined)
  );
};

/** Longer values (a raw path, say) go to `JSON.stringify` at once: the scan would cost more than the call it saves. */
const SCANNED_UP_TO = 64;

/**
 * A JSON string of `value`, exactly as `JSON.stringify` writes it. The fields here are
 * ids, addresses, methods and route patterns, which need no escape: such a value is
 * quoted as it is, after a scan of its characters, without `JSON.stringify`'s call
 * into the runtime (five per line; docs/performance.md). Anything it would escape (a
 * control character, `"`, `\`, a surrogate) goes to `JSON.stringify`.
 */
const quoted = (value: string): string => {
  if (value.length > SCANNED_UP_TO) return JSON.stringify(value);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(value);
  }
  return `"${value}"`;
};

/**
 * Writes request lines to `logger` at `info`: put together here when the
 * logger is a plain pino logger (see above), else through `logger.info`.
 */
export const requestLineWriter = (logger: Logger): WriteRequestLine => {
  const generic: WriteRequestLine = (line) => logger.info(requestLineFields(line), messageOf(line));
  if (!plainPino(logger)) return generic;
  const info = logger.levels.values['info'];
  if (info === undefined) return generic;
  const infoMessage = `,"msg":${quoted(MESSAGE)}`;
  const abortedMessage = `,"aborted":true,"msg":${quoted(ABORTED_MESSAGE)}`;
  // pino's pieces, by their symbols (on `pino.symbols`, not in its type declarations).
  const pieces = logger as unknown as Readonly<Record<symbol, unknown>>;
  return function writeRequestLine(line) {
    if (!logger.isLevelEnabled('info')) return;
    // Read on every line: a child's bindings can be changed (`setBindings`), and these cost a property read each
    // (read as properties, not with `Reflect.get`, which V8 does not cache: docs/performance.md).
    const levels = pieces[lsCacheSym];
    const levelPrefix = isRecord(levels) ? levels[info] : undefined;
    const time = pieces[timeSym];
    const bindings = pieces[chindingsSym];
    const end = pieces[endSym];
    const stream = pieces[streamSym];
    if (
      typeof levelPrefix !== 'string' ||
      typeof time !== 'function' ||
      typeof bindings !== 'string' ||
      typeof end !== 'string' ||
      !isWritable(stream)
    ) {
      generic(line);
      return;
    }
    const duration = Number.isFinite(line.durationMs) ? String(line.durationMs) : 'null';
    stream.write(
      `${levelPrefix}${String(time())}${bindings},"request_id":${quoted(line.requestId)}${line.clientId === undefined ? '' : `,"client_id":${line.clientId}`},"ip":${quoted(line.ip)},"scheme":${quoted(line.scheme)},"method":${quoted(line.method)},"route":${quoted(line.route)},"status":${line.status},"duration_ms":${duration}${line.aborted ? abortedMessage : infoMessage}${end}`,
    );
  };
};
