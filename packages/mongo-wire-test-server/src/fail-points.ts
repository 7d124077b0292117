/**
 * The `failCommand` fail point, as mongod offers it with `enableTestCommands`
 * (https://github.com/mongodb/mongo/wiki/The-%22failCommand%22-fail-point):
 *
 *   { configureFailPoint: 'failCommand', mode: 'alwaysOn' | 'off' | { times: n } | { skip: n },
 *     data: { failCommands: [...], closeConnection, errorCode, writeConcernError,
 *             errorLabels, appName, blockConnection, blockTimeMS } }
 *
 * run on the admin database. A command named in `failCommands` (from a
 * connection whose handshake gave `appName`, when set) is, in this order:
 * held for `blockTimeMS` on its own connection only (`blockConnection`); then
 * its connection is closed without a reply (`closeConnection`), or it fails
 * with `errorCode` without running, or it runs and its reply gets
 * `writeConcernError`. Labels: `errorLabels`, when given, replace what the
 * server would add; otherwise the server adds RetryableWriteError to a
 * retryable error of a retryable write or of commit/abortTransaction, and
 * TransientTransactionError to one inside a transaction, as mongod does.
 */
import type { Document } from 'mongodb';
import { CommandError } from './command-error.js';
import { isPlainDocument } from './document-update.js';
import { RETRYABLE_WRITE_COMMANDS } from './sessions.js';

/** The codes MongoDB's retryable-writes spec lists as retryable. */
const RETRYABLE_CODES = new Set([11600, 11602, 10107, 13435, 13436, 189, 91, 7, 6, 89, 9001, 262, 134]);

type Mode = { readonly kind: 'off' } | { readonly kind: 'alwaysOn' } | { kind: 'times'; left: number } | { kind: 'skip'; left: number };

export interface FailCommandEffect {
  readonly blockTimeMS: number | undefined;
  readonly closeConnection: boolean;
  readonly errorCode: number | undefined;
  readonly writeConcernError: Document | undefined;
  readonly errorLabels: string[] | undefined;
}

interface Configured {
  readonly failCommands: ReadonlySet<string>;
  readonly appName: string | undefined;
  readonly effect: FailCommandEffect;
}

/** `onPrimaryTransactionalWrite` (mongod's retryable-write fail point): the connection closes after (or, with a code, instead of) the write. */
export interface TransactionalWriteEffect {
  readonly closeConnection: boolean;
  readonly failBeforeCommitExceptionCode: number | undefined;
}

interface FailPointState<T> {
  mode: Mode;
  configured: T | undefined;
  timesEntered: number;
}

export class FailPoints {
  readonly #failCommand: FailPointState<Configured> = { mode: { kind: 'off' }, configured: undefined, timesEntered: 0 };
  readonly #transactionalWrite: FailPointState<TransactionalWriteEffect> = {
    mode: { kind: 'off' },
    configured: undefined,
    timesEntered: 0,
  };

  /** `configureFailPoint`; answers `{ count }` (times the previous setting fired) as mongod does. */
  configure(body: Document): Document {
    const name = body['configureFailPoint'];
    const mode = parseMode(body['mode']);
    if (name === 'failCommand') return reconfigure(this.#failCommand, mode, mode.kind === 'off' ? undefined : parseData(body['data']));
    if (name === 'onPrimaryTransactionalWrite') {
      const data = isPlainDocument(body['data']) ? body['data'] : {};
      const code = data['failBeforeCommitExceptionCode'];
      return reconfigure(this.#transactionalWrite, mode, {
        closeConnection: data['closeConnection'] !== false,
        failBeforeCommitExceptionCode: typeof code === 'number' ? code : undefined,
      });
    }
    throw new CommandError(
      'FailPointSetFailed',
      `Unknown fail point: ${String(name)} (this server has failCommand and onPrimaryTransactionalWrite)`,
    );
  }

  /** The effect for this command, if the fail point fires on it (counting it against `times`/`skip`). */
  fire(commandName: string, appName: string | undefined): FailCommandEffect | undefined {
    const configured = this.#failCommand.configured;
    if (configured === undefined || commandName === 'configureFailPoint') return undefined;
    if (!configured.failCommands.has(commandName)) return undefined;
    if (configured.appName !== undefined && configured.appName !== appName) return undefined;
    return enter(this.#failCommand) ? configured.effect : undefined;
  }

  /** The onPrimaryTransactionalWrite effect for a retryable write, if it fires. */
  fireTransactionalWrite(): TransactionalWriteEffect | undefined {
    const configured = this.#transactionalWrite.configured;
    return configured !== undefined && enter(this.#transactionalWrite) ? configured : undefined;
  }

  clear(): void {
    for (const point of [this.#failCommand, this.#transactionalWrite] as Array<FailPointState<unknown>>) {
      point.mode = { kind: 'off' };
      point.configured = undefined;
      point.timesEntered = 0;
    }
  }
}

function reconfigure<T>(point: FailPointState<T>, mode: Mode, configured: T | undefined): Document {
  const count = point.timesEntered;
  point.mode = mode;
  point.configured = mode.kind === 'off' ? undefined : configured;
  point.timesEntered = 0;
  return { count, ok: 1 };
}

/** Whether an active fail point fires now, counting `skip` and `times` down. */
function enter(point: FailPointState<unknown>): boolean {
  const mode = point.mode;
  if (mode.kind === 'off') return false;
  if (mode.kind === 'skip' && mode.left > 0) {
    mode.left -= 1;
    return false;
  }
  if (mode.kind === 'times') {
    mode.left -= 1;
    if (mode.left <= 0) {
      point.mode = { kind: 'off' };
      point.configured = undefined;
    }
  }
  point.timesEntered += 1;
  return true;
}

/** Codes MongoDB labels TransientTransactionError inside a transaction (commit included). */
const TRANSIENT_CODES = new Set([112, 24, 251, 267, 246]);

/** MongoDB's names (src/mongo/base/error_codes.yml) of the codes tests inject, for the reply's codeName. */
const CODE_NAMES: ReadonlyMap<number, string> = new Map([
  [1, 'InternalError'],
  [2, 'BadValue'],
  [6, 'HostUnreachable'],
  [7, 'HostNotFound'],
  [11, 'UserNotFound'],
  [13, 'Unauthorized'],
  [20, 'IllegalOperation'],
  [24, 'LockTimeout'],
  [50, 'MaxTimeMSExpired'],
  [59, 'CommandNotFound'],
  [64, 'WriteConcernFailed'],
  [79, 'UnknownReplWriteConcern'],
  [89, 'NetworkTimeout'],
  [91, 'ShutdownInProgress'],
  [100, 'UnsatisfiableWriteConcern'],
  [112, 'WriteConflict'],
  [134, 'ReadConcernMajorityNotAvailableYet'],
  [189, 'PrimarySteppedDown'],
  [246, 'SnapshotUnavailable'],
  [251, 'NoSuchTransaction'],
  [262, 'ExceededTimeLimit'],
  [267, 'PreparedTransactionInProgress'],
  [9001, 'SocketException'],
  [10107, 'NotWritablePrimary'],
  [11000, 'DuplicateKey'],
  [11600, 'InterruptedAtShutdown'],
  [11601, 'Interrupted'],
  [11602, 'InterruptedDueToReplStateChange'],
  [13435, 'NotPrimaryNoSecondaryOk'],
  [13436, 'NotPrimaryOrSecondary'],
]);

export function codeNameOf(code: number): string | undefined {
  return CODE_NAMES.get(code);
}

/** The labels a failed command gets: the fail point's `errorLabels`, or what mongod adds for `code`. */
export function labelsFor(code: number, body: Document, commandName: string, given: string[] | undefined): string[] {
  if (given !== undefined) return given;
  const endsTransaction = commandName === 'commitTransaction' || commandName === 'abortTransaction';
  const inTransaction = body['autocommit'] === false;
  if (inTransaction && TRANSIENT_CODES.has(code) && commandName !== 'abortTransaction') return ['TransientTransactionError'];
  if (!RETRYABLE_CODES.has(code)) return [];
  if (endsTransaction) return ['RetryableWriteError'];
  if (inTransaction) return ['TransientTransactionError'];
  if (body['txnNumber'] !== undefined && RETRYABLE_WRITE_COMMANDS.has(commandName)) return ['RetryableWriteError'];
  return [];
}

/** The labels of a reply with a writeConcernError: RetryableWriteError for a retryable code on a retryable write or commit/abort only. */
export function writeConcernLabelsFor(code: number, body: Document, commandName: string, given: string[] | undefined): string[] {
  if (given !== undefined) return given;
  if (!RETRYABLE_CODES.has(code)) return [];
  if (commandName === 'commitTransaction' || commandName === 'abortTransaction') return ['RetryableWriteError'];
  if (body['autocommit'] === undefined && body['txnNumber'] !== undefined && RETRYABLE_WRITE_COMMANDS.has(commandName))
    return ['RetryableWriteError'];
  return [];
}

function parseMode(raw: unknown): Mode {
  if (raw === 'off') return { kind: 'off' };
  if (raw === 'alwaysOn') return { kind: 'alwaysOn' };
  if (isPlainDocument(raw)) {
    const times = raw['times'];
    const skip = raw['skip'];
    if (typeof times === 'number' && Number.isInteger(times) && times >= 0)
      return times === 0 ? { kind: 'off' } : { kind: 'times', left: times };
    if (typeof skip === 'number' && Number.isInteger(skip) && skip >= 0) return { kind: 'skip', left: skip };
  }
  throw new CommandError('BadValue', `'mode' must be 'off', 'alwaysOn', { times: n } or { skip: n }, got ${JSON.stringify(raw)}`);
}

function parseData(raw: unknown): Configured {
  if (!isPlainDocument(raw)) throw new CommandError('BadValue', "failCommand needs a 'data' object");
  const failCommands = raw['failCommands'];
  if (!Array.isArray(failCommands) || !failCommands.every((name): name is string => typeof name === 'string')) {
    throw new CommandError('BadValue', "'data.failCommands' must be an array of command names");
  }
  const errorCode = raw['errorCode'];
  if (errorCode !== undefined && !(typeof errorCode === 'number' && Number.isInteger(errorCode)))
    throw new CommandError('BadValue', "'data.errorCode' must be an integer");
  const labels = raw['errorLabels'];
  if (labels !== undefined && !(Array.isArray(labels) && labels.every((label): label is string => typeof label === 'string'))) {
    throw new CommandError('BadValue', "'data.errorLabels' must be an array of strings");
  }
  const writeConcernError = raw['writeConcernError'];
  if (writeConcernError !== undefined && !isPlainDocument(writeConcernError))
    throw new CommandError('BadValue', "'data.writeConcernError' must be an object");
  const appName = raw['appName'];
  if (appName !== undefined && typeof appName !== 'string') throw new CommandError('BadValue', "'data.appName' must be a string");
  const blockConnection = raw['blockConnection'] === true;
  const blockTimeMS = raw['blockTimeMS'];
  if (blockConnection && !(typeof blockTimeMS === 'number' && blockTimeMS >= 0)) {
    throw new CommandError('BadValue', "'data.blockTimeMS' (a number >= 0) is required with blockConnection");
  }
  return {
    failCommands: new Set(failCommands),
    appName,
    effect: {
      blockTimeMS: blockConnection ? (blockTimeMS as number) : undefined,
      closeConnection: raw['closeConnection'] === true,
      errorCode,
      writeConcernError,
      errorLabels: labels,
    },
  };
}
