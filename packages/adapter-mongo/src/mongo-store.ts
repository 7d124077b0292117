/**
 * The MongoDB store (docs/decisions/mongodb.md): every storage port over one database.
 *
 * Start-up when MongoDB is down: `connectMongoStore` does NOT fail. It tries
 * once to connect and create the indexes (waiting at most
 * `serverSelectionTimeoutMS`); if the server cannot be reached it still returns
 * the store: every operation answers `unavailable` (503, `/readyz` 503) and
 * first connects and creates the indexes as soon as the server answers, so the
 * service recovers without a restart, as it does after an outage later on. It DOES fail (rejects with one clear line)
 * for what waiting cannot fix: a malformed connection string, or a server that
 * answers but refuses the indexes or the credentials, or a server that answers
 * and is standalone (docs/decisions/transactions.md: no transactions). A store down at start that
 * turns out to be standalone later answers `unavailable` with that reason on
 * `/readyz` and on every write (`onStandalone` is told once, to log it).
 */
import { MongoClient } from 'mongodb';
import type { StorePorts } from '@debtkit/core';
import type { MongoContext } from './mongo-context.js';
import { mongoContext } from './mongo-context-factory.js';
import { StandaloneServerError, isUnavailableError } from './mongo-errors.js';
import { MongoStoreHealth } from './mongo-store-health.js';
import { mongoTransactionPorts } from './mongo-store-ports.js';
import { mongoUnitOfWork } from './mongo-unit-of-work.js';

export interface MongoStoreOptions {
  /** The database; default: the one named in the URL's path, else `debtkit`. */
  readonly dbName?: string;
  /** How long an operation waits for a reachable server before it is `unavailable`; default 5000. */
  readonly serverSelectionTimeoutMS?: number;
  /** Server-side time limit of every query and write; default 5000. */
  readonly maxTimeMS?: number;
  /** Told once (to log it at error) when a store that was down at start turns out to be a standalone server. */
  readonly onStandalone?: (reason: string) => void;
  /** How long a change runs again after write conflicts before it answers `conflict` (DEBTKIT_WRITE_CONFLICT_DEADLINE_MS); default 10000. */
  readonly writeConflictDeadlineMs?: number;
}

export const DEFAULT_DB_NAME = 'debtkit';
export const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_TIME_MS = 5000;
/** A server that has not answered this long after `maxTimeMS` is treated as gone. */
const SOCKET_TIMEOUT_MARGIN_MS = 1000;

/** The database named in a connection string's path (`mongodb://host/debtkit?…` → `debtkit`), if any. */
export const databaseInUrl = (url: string): string | undefined => {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?#]*\/([^?#]+)/.exec(url);
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
};

const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Open the MongoDB store at `url`. Writes use `w: "majority"`; every query is
 * bounded by `maxTimeMS`. `close()` closes the client.
 * @example
 *   const store = await connectMongoStore('mongodb://localhost:27017/debtkit');
 *   const client = await store.clients.create({ name: 'Acme', environment: 'sandbox', api_version: '2024-07-01', created_at })();
 *   await store.close();
 */
export const connectMongoStore = async (url: string, options: MongoStoreOptions = {}): Promise<StorePorts> =>
  mongoStorePorts(await openMongoContext(url, options));

/**
 * Open the connection and the index gate `connectMongoStore` builds its
 * repositories on (`mongoStoreModule` binds them in a container); same failure rules.
 */
export const openMongoContext = async (url: string, options: MongoStoreOptions = {}): Promise<MongoContext> => {
  const maxTimeMS = options.maxTimeMS ?? DEFAULT_MAX_TIME_MS;
  const serverSelectionTimeoutMS = options.serverSelectionTimeoutMS ?? DEFAULT_SERVER_SELECTION_TIMEOUT_MS;
  const dbName = options.dbName ?? databaseInUrl(url) ?? DEFAULT_DB_NAME;
  let client: MongoClient;
  try {
    client = new MongoClient(url, {
      serverSelectionTimeoutMS,
      // `maxTimeMS` bounds the work on the server; these bound the wait when the server
      // stops answering altogether (a hung socket is a network error: `unavailable`).
      connectTimeoutMS: serverSelectionTimeoutMS,
      socketTimeoutMS: maxTimeMS + SOCKET_TIMEOUT_MARGIN_MS,
      writeConcern: { w: 'majority' },
      // A write the driver is unsure landed (a dropped connection) is sent once more, and applied once.
      retryWrites: true,
      // A patch key whose value is undefined means "unchanged", never "store null".
      ignoreUndefined: true,
      appName: 'debtkit',
    });
  } catch (error) {
    throw new Error(`MongoDB store: invalid connection string: ${describeError(error)}`, { cause: error });
  }
  // A standalone found at start is refused below (one line); only one found later is reported.
  let started = false;
  const ctx = mongoContext(client, dbName, maxTimeMS, (reason) => {
    if (started) options.onStandalone?.(reason);
  });
  // The context's one unit of work, made now with the store's deadline (every later ask gets this one).
  mongoUnitOfWork(ctx, options.writeConflictDeadlineMs === undefined ? {} : { deadlineMs: options.writeConflictDeadlineMs });
  try {
    await ctx.ready();
    await ctx.requireTransactions();
  } catch (error) {
    if (error instanceof StandaloneServerError) {
      await ctx.close().catch(() => undefined);
      throw new Error(`MongoDB store: ${error.message}`, { cause: error });
    }
    // Unreachable now: the index gate tries again with the first operation.
    if (!isUnavailableError(error)) {
      await ctx.close().catch(() => undefined);
      throw new Error(`MongoDB store: cannot prepare database "${dbName}": ${describeError(error)}`, { cause: error });
    }
  }
  started = true;
  return ctx;
};

/** Every storage port over one opened context; `close()` closes its client. */
export const mongoStorePorts = (ctx: MongoContext): StorePorts => ({
  ...mongoTransactionPorts(ctx),
  health: new MongoStoreHealth(ctx),
  unitOfWork: mongoUnitOfWork(ctx),
  close: ctx.close,
});
