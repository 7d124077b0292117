/**
 * @debtkit/mongo-wire-test-server (private, test support): a MongoDB
 * wire-protocol server, by default a one-node replica set, for running the
 * adapter through the real driver without a MongoDB install.
 */
export { startWireServer } from './wire-server.js';
export type { CommandHold, CommandSummary, WireServer, WireServerOptions } from './wire-server.js';
export { MAX_WIRE_VERSION, SERVER_VERSION } from './server-state.js';
