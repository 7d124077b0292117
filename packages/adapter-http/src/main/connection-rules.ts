/**
 * How the Node server treats connections that do not behave (docs/decisions/api-conventions.md):
 * headers within 10 s (a socket that sends nothing is closed by then too), a
 * whole request within 30 s, idle keep-alive connections closed after 5 s, and
 * a cap on open connections. Without these a few hundred silent sockets exhaust
 * the process's file descriptors.
 */
import type { Server, ServerOptions } from 'node:http';

export interface ConnectionRules {
  /** A request's headers must have arrived this long after the connection (or the previous response). */
  readonly headersTimeoutMs: number;
  /** The whole request (headers and body) must have arrived within this. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (Node waits one second more than it announces). */
  readonly keepAliveTimeoutMs: number;
  /**
   * Node checks the header and request deadlines on a timer, not per socket: a
   * late connection is closed up to this long after its deadline.
   */
  readonly checkIntervalMs: number;
  /** Further connections are dropped at once while this many are open. */
  readonly maxConnections: number;
}

/**
 * The deadlines of docs/decisions/api-conventions.md. The header deadline is the check interval short of
 * 10 s, so a silent socket is closed within 10 s even when the check comes late.
 */
export const DEFAULT_CONNECTION_RULES: ConnectionRules = {
  headersTimeoutMs: 9_500,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 500,
  maxConnections: 10_000,
};

/** The options only `createServer` takes (the check interval cannot be changed later). */
export const serverOptions = (rules: ConnectionRules): ServerOptions => ({
  headersTimeout: rules.headersTimeoutMs,
  requestTimeout: rules.requestTimeoutMs,
  keepAliveTimeout: rules.keepAliveTimeoutMs,
  connectionsCheckingInterval: rules.checkIntervalMs,
});

/** What can be set on a created server. */
export const applyConnectionRules = (server: Server, rules: ConnectionRules): void => {
  server.maxConnections = rules.maxConnections;
};
