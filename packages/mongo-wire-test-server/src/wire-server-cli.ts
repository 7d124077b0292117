/**
 * Contributor command: a MongoDB wire-protocol test server on 127.0.0.1:PORT
 * (default 27017), e.g. to point `MONGODB_URL` at while developing without a
 * MongoDB install. Data lives in memory until the process ends.
 *
 *   PORT=27018 node packages/mongo-wire-test-server/dist/src/wire-server-cli.js
 */
import { startWireServer } from './wire-server.js';

const DEFAULT_PORT = 27017;

function portFromEnvironment(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) {
    console.error(`PORT must be an integer between 0 and 65535, got "${raw}"`);
    process.exit(1);
  }
  return port;
}

const port = portFromEnvironment(process.env['PORT']);
const server = await startWireServer({ port, host: '127.0.0.1' }).catch((error: unknown) => {
  console.error(`mongo wire-protocol test server could not listen on 127.0.0.1:${port}: ${(error as Error).message}`);
  process.exit(1);
});
console.log(`mongo wire-protocol test server listening on ${server.url}`);

function shutdown(): void {
  server.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`mongo wire-protocol test server failed to stop: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
