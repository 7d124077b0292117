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

type Mode = { readonly kind: 'off' } | { readonly kind: 'alwaysOn' } | { kind: 'times'; left: number } | { kind: 'skip'; left: number };

export class FailPoints {
  #mode: Mode = { kind: 'off' };
  #configured: Configured | undefined;
  #timesEntered = 0;

  /** `configureFailPoint`; answers `{ count }` (times the previous setting fired) as mongod does. */
  configure(body: Document): Document {
    const name = body['configureFailPoint'];
    if (name !== 'failCommand') throw new CommandError('FailPointSetFailed', `Unknown fail point: ${String(name)} (this server has only failCommand)`);
    const mode = parseMode(body['mode']);
    const configured = mode.kind === 'off' ? undefined : parseData(body['data']);
    const count = this.#timesEntered;
    this.#mode = mode;
    this.#configured = configured;
    this.#timesEntered = 0;
    return { count, ok: 1 };
  }

  /** The effect for this command, if the fail point fires on it (counting it against `times`/`skip`). */
  fire(commandName: string, appName: string | undefined): FailCommandEffect | undefined {
    const configured = this.#configured;
    if (configured === undefined || this.#mode.kind === 'off' || commandName === 'configureFailPoint') return undefined;
    if (!configured.failCommands.has(commandName)) return undefined;
    if (configured.appName !== undefined && configured.appName !== appName) return undefined;
    const mode = this.#mode;
    if (mode.kind === 'skip' && mode.left > 0) {
      mode.left -= 1;
      return undefined;
    }
    if (mode.kind === 'times') {
      mode.left -= 1;
      if (mode.left <= 0) this.#mode = { kind: 'off' };
    }
    this.#timesEntered += 1;
    return configured.effect;
  }

  clear(): void {
    this.#mode = { kind: 'off' };
    this.#configured = undefined;
    this.#timesEntered = 0;
  }
}

/** The labels a failed command gets: the fail point's `errorLabels`, or what mongod adds for `code`. */
export function labelsFor(code: number, body: Document, commandName: string, given: string[] | undefined): string[] {
  if (given !== undefined) return given;
  if (!RETRYABLE_CODES.has(code)) return [];
  const inTransaction = body['autocommit'] === false;
  if (commandName === 'commitTransaction' || commandName === 'abortTransaction') return ['RetryableWriteError'];
  if (inTransaction) return ['TransientTransactionError'];
  if (body['txnNumber'] !== undefined && RETRYABLE_WRITE_COMMANDS.has(commandName)) return ['RetryableWriteError'];
  return [];
}

function parseMode(raw: unknown): Mode {
  if (raw === 'off') return { kind: 'off' };
  if (raw === 'alwaysOn') return { kind: 'alwaysOn' };
  if (isPlainDocument(raw)) {
    const times = raw['times'];
    const skip = raw['skip'];
    if (typeof times === 'number' && Number.isInteger(times) && times >= 0) return times === 0 ? { kind: 'off' } : { kind: 'times', left: times };
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
  if (errorCode !== undefined && !(typeof errorCode === 'number' && Number.isInteger(errorCode))) throw new CommandError('BadValue', "'data.errorCode' must be an integer");
  const labels = raw['errorLabels'];
  if (labels !== undefined && !(Array.isArray(labels) && labels.every((label): label is string => typeof label === 'string'))) {
    throw new CommandError('BadValue', "'data.errorLabels' must be an array of strings");
  }
  const writeConcernError = raw['writeConcernError'];
  if (writeConcernError !== undefined && !isPlainDocument(writeConcernError)) throw new CommandError('BadValue', "'data.writeConcernError' must be an object");
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
