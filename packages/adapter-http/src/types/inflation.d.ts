/** `inflation` ships no types: the one call used (a request stream, decoded per its Content-Encoding). */
declare module 'inflation' {
  import type { IncomingMessage } from 'node:http';
  import type { Readable } from 'node:stream';

  export default function inflate(stream: IncomingMessage, options?: Record<string, unknown>): Readable;
}
