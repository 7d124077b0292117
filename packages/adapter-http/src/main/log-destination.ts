/**
 * Where the server's log lines go: pino on a non-blocking sonic-boom
 * destination (`sync: false`). A request never waits for its log line to be
 * written: lines are handed to the destination, which writes them in the
 * background and gathers the lines that arrive while a write is under way into
 * the next one.
 *
 * Lines are gathered here, as strings, and handed to the destination together,
 * encoded once (`contentMode: 'buffer'`), when 8 KiB have gathered or 20 ms
 * after the first of them, whichever comes first: a request pays an array
 * push for its line. Every write sonic-boom makes runs on libuv's thread pool
 * and wakes the event loop when it is done; a write per line or per
 * event-loop turn cost, under load, more CPU than answering the request
 * (docs/performance.md). In its default text mode sonic-boom also measures the whole
 * pending text again for every line it appends, and a buffer per line is an
 * allocation per request.
 *
 * The price is a buffer: lines not yet written when the process exits would be
 * lost. `close` (awaited by the CLI after the server has shut down, before it
 * exits) writes everything buffered and waits for it; an exit by any other
 * path (`process.exit` after a failure) still writes what is buffered, synchronously.
 *
 * A destination that fails (its pipe lost its reader: EPIPE) is given up: from
 * the first failed write on, lines are dropped, the server keeps serving, and
 * `close` and the exit write nothing more. sonic-boom's `flushSync` retries a
 * failed write every 100 ms for ever (EPIPE included), and an `error` with no
 * listener is an uncaught exception whose exit ran that flush: the process
 * hung, deaf to SIGTERM. `close` also waits at most `CLOSE_WAIT_MS` for a
 * reader that stopped reading, so a stalled pipe cannot hold a shutdown either.
 */
import pino from 'pino';
import type { LogLevelName, Logger } from '../logger.js';
// CommonJS: its class is both the module and the module's `SonicBoom`.
import sonicBoom from 'sonic-boom';

/** Lines are handed to the destination once this many characters have gathered… */
const HAND_OVER_CHARS = 8 * 1024;
/** …or this long after the first of them. */
const HAND_OVER_AFTER_MS = 20;
/** How long `close` waits for the destination to take the last lines (a reader that stopped reading). */
const CLOSE_WAIT_MS = 10_000;

export interface ServerLogger {
  readonly logger: Logger;
  /** Write every buffered line and wait for it; later lines are dropped. Idempotent. */
  close(): Promise<void>;
}

export interface ServerLoggerOptions {
  readonly level: LogLevelName;
  /** A file descriptor or path; default 1 (stdout). */
  readonly dest?: number | string;
}

export const createServerLogger = (options: ServerLoggerOptions): ServerLogger => {
  const dest = options.dest ?? 1;
  const destination = new sonicBoom.SonicBoom({
    ...(typeof dest === 'number' ? { fd: dest } : { dest }),
    sync: false,
    contentMode: 'buffer',
  });
  // sonic-boom's declarations only describe its text mode: in buffer mode `write` takes a Buffer.
  const bufferSink = destination as unknown as { write(chunk: Buffer): boolean };
  // Lines not yet handed to the destination (at once, too, when the process exits or the log closes).
  const pending: string[] = [];
  let pendingChars = 0;
  let handOverTimer: NodeJS.Timeout | undefined;
  let ending = false;
  // The destination failed (EPIPE, EBADF…): nothing is written to it any more.
  let broken = false;
  destination.on('error', () => {
    if (broken) return;
    broken = true;
    ending = true;
    pending.length = 0;
    pendingChars = 0;
    // Its buffers are dropped with it; sonic-boom never closes fds 1 and 2 themselves.
    destination.destroy();
  });
  const handOver = (): void => {
    if (handOverTimer !== undefined) clearTimeout(handOverTimer);
    handOverTimer = undefined;
    if (pending.length === 0 || broken) return;
    const chunk = pending.length === 1 ? pending[0]! : pending.join('');
    pending.length = 0;
    pendingChars = 0;
    bufferSink.write(Buffer.from(chunk));
  };
  const write = (line: string): void => {
    // After `close` began, lines are dropped: the destination is ending.
    if (ending) return;
    pending.push(line);
    pendingChars += line.length;
    if (pendingChars >= HAND_OVER_CHARS) handOver();
    // Unreferenced: a process with nothing else to do exits, and its exit hands the lines over.
    else handOverTimer ??= setTimeout(handOver, HAND_OVER_AFTER_MS).unref();
  };
  const logger = pino({ level: options.level }, { write });
  const flushOnExit = (): void => {
    if (broken) return;
    try {
      handOver();
      destination.flushSync();
    } catch {
      // Not open yet, or the descriptor is gone: nothing more can be written.
    }
  };
  process.once('exit', flushOnExit);
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      process.removeListener('exit', flushOnExit);
      if (broken) return resolve();
      const waited = setTimeout(resolve, CLOSE_WAIT_MS).unref();
      const done = (): void => (clearTimeout(waited), resolve());
      // `end` waits for the write under way, writes the rest, then closes (never fds 1 and 2 themselves).
      destination.once('close', done);
      destination.once('error', done);
      handOver();
      ending = true;
      destination.end();
    });
    return closed;
  };
  return { logger, close };
};
