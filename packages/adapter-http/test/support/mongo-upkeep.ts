/** Commands the driver sends to keep its connections (monitoring, handshakes, sessions): not a request's work, so cost tests leave them out. */
export const UPKEEP_COMMANDS: ReadonlySet<string> = new Set([
  'hello',
  'isMaster',
  'ismaster',
  'ping',
  'buildInfo',
  'getParameter',
  'endSessions',
  'saslStart',
  'saslContinue',
]);
