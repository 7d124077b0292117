/**
 * @debtkit/mongo-wire-test-server (private, test support): a MongoDB wire-protocol server
 * for running the adapter through the real driver without a MongoDB install.
 */
export { startWireServer } from './wire-server.js';
export type { CommandHold, CommandSummary, WireServer, WireServerOptions } from './wire-server.js';
