/**
 * How driver failures become results (docs/decisions/mongodb.md, STYLE habit 3). The one rule:
 *
 * - the server cannot be reached, or did not answer in time (server selection,
 *   network, socket errors such as EPIPE/ECONNRESET/ECONNREFUSED even when the
 *   driver passes them on as plain Errors, pool cleared, `maxTimeMS`, a node shutting down or stepping
 *   down, a write concern that timed out, the store closed) →
 *   `Left(unavailable)`; the HTTP adapter answers 503 and the next operation
 *   tries again, so the store recovers on its own when the server returns;
 * - a unique key is already taken (E11000) → `Left(conflict)`;
 * - in a transaction, another transaction wrote the same record first
 *   (`WriteConflict`, or any error labelled `TransientTransactionError` that is
 *   not a lost server) → `Left(writeConflict)`: the unit of work runs the whole
 *   transaction again, bounded (core's shared/transactions.ts);
 * - anything else is a bug or a misconfiguration (a stored document that does
 *   not decode, a command the server rejects, credentials it refuses, a misuse
 *   of the driver): it is rethrown, the task's promise rejects, and the HTTP
 *   adapter answers 500 and logs it. Turning a bug into a 503 would hide it
 *   behind "try again later".
 *
 * Driver messages never reach a `StoreError`: they may name hosts or values.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import {
  MongoClientClosedError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';
import { conflict, unavailable, writeConflict, type StoreError } from '@debtkit/core';

/** Message of every `unavailable` this adapter returns. */
export const STORE_UNAVAILABLE = 'The data store is unavailable; try again later';

const DUPLICATE_KEY_CODES = new Set([11000, 11001]);

/**
 * Server error codes that say "not now" rather than "never": unreachable or
 * recovering nodes, elections, and time limits (MongoDB's error_codes.yml).
 */
const UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  64, // WriteConcernTimeout (WriteConcernFailed before 8.1)
  89, // NetworkTimeout
  91, // ShutdownInProgress
  133, // FailedToSatisfyReadPreference
  134, // ReadConcernMajorityNotAvailableYet
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10058, // LegacyNotPrimary
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

const UNAVAILABLE_LABELS = [
  MongoErrorLabel.RetryableWriteError,
  MongoErrorLabel.ResetPool,
  MongoErrorLabel.PoolRequestedRetry,
  MongoErrorLabel.SystemOverloadedError,
  MongoErrorLabel.RetryableError,
];

/** Driver errors that are not exported as classes, by their stable `name`. */
const UNAVAILABLE_NAMES = new Set([
  'MongoPoolClosedError',
  'MongoPoolClearedError',
  'PoolClearedOnNetworkError',
  'MongoWaitQueueTimeoutError',
]);

/**
 * Socket error codes that mean the connection to the server failed or was
 * dropped. The driver sometimes passes such an error on as a plain `Error`
 * (e.g. `code: 'EPIPE'`, "socket has been ended by the other party"), not
 * wrapped in a `MongoNetworkError`.
 */
const NETWORK_ERROR_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ERR_SOCKET_CLOSED',
]);

/** Whether `error` (or an error it wraps as its `cause`) is a socket error of the connection to the server. */
const isNetworkCodeError = (error: unknown, depth = 0): boolean => {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) || isNetworkCodeError(cause, depth + 1);
};

/** The store was closed (shutting down): what is still asked of it is `unavailable`, like a server that went away. */
export class StoreClosedError extends Error {
  constructor() {
    super('The MongoDB store is closed');
    this.name = 'StoreClosedError';
  }
}

/** Why a standalone server cannot hold debtkit's store (docs/decisions/transactions.md): one line, for the start refusal, `/readyz` and the log. */
export const STANDALONE_REASON =
  'MongoDB is a standalone server; debtkit needs a replica set for transactions (a one-node replica set: mongod --replSet rs0, then rs.initiate())';

/** The server answers but is standalone: no transactions, so no writes (`unavailable` with the reason). */
export class StandaloneServerError extends Error {
  constructor() {
    super(STANDALONE_REASON);
    this.name = 'StandaloneServerError';
  }
}

/** Whether `error` means the server cannot be reached or did not answer in time. */
export const isUnavailableError = (error: unknown): boolean => {
  if (error instanceof StoreClosedError) return true;
  if (!(error instanceof MongoError)) return isNetworkCodeError(error);
  if (
    error instanceof MongoNetworkError || // includes pool-cleared and socket timeouts
    error instanceof MongoServerSelectionError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoClientClosedError ||
    error instanceof MongoServerClosedError ||
    UNAVAILABLE_NAMES.has(error.name)
  ) {
    return true;
  }
  if (typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code)) return true;
  if (isNetworkCodeError(error.cause)) return true;
  // The server answered the connection handshake with a refusal (credentials, auth mechanism):
  // waiting will not fix that, even though the driver labels it ResetPool.
  if (error instanceof MongoServerError && error.hasErrorLabel(MongoErrorLabel.HandshakeError)) return false;
  return UNAVAILABLE_LABELS.some((label) => error.hasErrorLabel(label));
};

/** MongoDB's WriteConflict: two transactions wrote one document; the later one loses. */
const WRITE_CONFLICT_CODE = 112;

/**
 * Whether `error` says "this transaction lost, run it again from the start"
 * (the driver's and the server's `TransientTransactionError`, MongoDB's
 * documented retry rule). Check `isUnavailableError` first: a lost server
 * inside a transaction carries the label too, and is answered at once.
 */
export const isTransientTransactionError = (error: unknown): boolean =>
  error instanceof MongoError && (error.code === WRITE_CONFLICT_CODE || error.hasErrorLabel(MongoErrorLabel.TransientTransactionError));

/** Whether `error` is a unique-index violation. */
export const isDuplicateKeyError = (error: unknown): boolean =>
  error instanceof MongoServerError && typeof error.code === 'number' && DUPLICATE_KEY_CODES.has(error.code);

/**
 * The `StoreError` a driver failure stands for, or `undefined` when it is a bug
 * that must propagate.
 */
export const toDomainError = (error: unknown, onDuplicateKey: string): StoreError | undefined => {
  if (isDuplicateKeyError(error)) return conflict(onDuplicateKey);
  if (error instanceof StandaloneServerError) return { _tag: 'unavailable', message: error.message, explained: true };
  if (isUnavailableError(error)) return unavailable(STORE_UNAVAILABLE);
  if (isTransientTransactionError(error)) return writeConflict();
  return undefined;
};

/**
 * Run a driver operation as a TaskEither under the rule above: recoverable
 * failures are `Left`, bugs reject. `before` runs first (the index gate), under
 * the same rule.
 */
export const mongoTask =
  <A>(before: () => Promise<void>, run: () => Promise<A>, onDuplicateKey: string): TE.TaskEither<StoreError, A> =>
  async () => {
    try {
      await before();
      return E.right(await run());
    } catch (error) {
      const mapped = toDomainError(error, onDuplicateKey);
      if (mapped === undefined) throw error;
      return E.left(mapped);
    }
  };

/** A stored document does not decode: the data or this adapter is wrong (a bug, never a `Left`). */
export class StoredDocumentError extends Error {
  constructor(
    readonly collection: string,
    readonly documentId: unknown,
    readonly problems: ReadonlyArray<{ readonly path: string; readonly message: string }>,
  ) {
    super(
      `Stored document ${String(documentId)} in "${collection}" does not decode: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`,
    );
    this.name = 'StoredDocumentError';
  }
}
