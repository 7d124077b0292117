/**
 * Test support of @debtkit/adapter-mongo: a MongoDB wire-protocol test server
 * for running the adapter through the real driver without a MongoDB install.
 */
export { startWireServer } from './wire-server.js';
export type { CommandHold, CommandSummary, WireServer, WireServerOptions } from './wire-server.js';
