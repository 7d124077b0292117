/**
 * Maps a command name to its handler and turns every outcome into a reply
 * document. A command the server does not implement answers CommandNotFound
 * (59) so a gap in this test server is loud, never a silent success.
 */
import type { Document } from 'mongodb';
import * as admin from './admin-commands.js';
import type { CommandContext, CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';
import * as read from './read-commands.js';
import * as write from './write-commands.js';
import type { StoreView } from './memory-store.js';
import { RETRYABLE_WRITE_COMMANDS, retryableWrite, txnNumberOf, type ServerSession } from './sessions.js';
import { BlockedByTransaction, TRANSIENT_TRANSACTION_ERROR, WriteConflictError } from './transactions.js';

const HELLO_COMMANDS = new Set(['hello', 'isMaster', 'ismaster']);

const TRANSACTIONS_UNSUPPORTED = 'Transaction numbers are only allowed on a replica set member or mongos';

const HANDLERS: ReadonlyMap<string, CommandHandler> = new Map<string, CommandHandler>([
  ['hello', admin.hello],
  ['isMaster', admin.hello],
  ['ismaster', admin.hello],
  ['ping', admin.ping],
  ['buildInfo', admin.buildInfo],
  ['buildinfo', admin.buildInfo],
  ['getParameter', admin.getParameter],
  ['setParameter', admin.setParameter],
  ['endSessions', sessionsCommand('endSessions')],
  ['killSessions', sessionsCommand('killSessions')],
  ['configureFailPoint', configureFailPoint],
  ['listDatabases', admin.listDatabases],
  ['create', admin.create],
  ['drop', admin.drop],
  ['dropDatabase', admin.dropDatabase],
  ['createIndexes', admin.createIndexes],
  ['dropIndexes', admin.dropIndexes],
  ['listIndexes', admin.listIndexes],
  ['listCollections', admin.listCollections],
  ['find', read.find],
  ['getMore', read.getMore],
  ['killCursors', read.killCursors],
  ['aggregate', read.aggregate],
  ['count', read.count],
  ['distinct', read.distinct],
  ['insert', write.insert],
  ['update', write.update],
  ['delete', write.deleteCommand],
  ['findAndModify', write.findAndModify],
  ['findandmodify', write.findAndModify],
  ['commitTransaction', rejectTransaction],
  ['abortTransaction', rejectTransaction],

]);

function rejectTransaction(): never {
  throw new CommandError('IllegalOperation', TRANSACTIONS_UNSUPPORTED);
}

export interface CommandRequest {
  readonly db: string;
  readonly body: Document;
  /** Arrived as legacy OP_QUERY, which MongoDB ≥ 5.1 accepts only for the handshake. */
  readonly legacy: boolean;
}

export function commandName(body: Document): string {
  return Object.keys(body)[0] ?? '';
}

/** Commands that change data: they advance the cluster time (operationTime). */
const WRITE_COMMANDS = new Set([...RETRYABLE_WRITE_COMMANDS, 'create', 'drop', 'dropDatabase', 'createIndexes', 'dropIndexes', 'commitTransaction']);

/** What MongoDB runs inside a multi-document transaction (the rest answers OperationNotSupportedInTransaction, 263). */
const TRANSACTION_COMMANDS = new Set([...RETRYABLE_WRITE_COMMANDS, 'find', 'getMore', 'killCursors', 'aggregate', 'distinct', 'create']);

/** A command that must wait (a write on a document a transaction holds): run it again once `until` resolves. */
export interface BlockedCommand {
  readonly blocked: Promise<void>;
}

export function isBlocked(outcome: Document | BlockedCommand): outcome is BlockedCommand {
  return (outcome as BlockedCommand).blocked instanceof Promise;
}

/** Never throws: every failure becomes `{ ok: 0, ... }`. */
export function runCommand(context: CommandContext, request: CommandRequest): Document | BlockedCommand {
  const name = commandName(request.body);
  let reply: Document;
  try {
    reply = guarded(name, () => dispatch(context, request, name));
  } catch (error) {
    if (error instanceof BlockedByTransaction) return { blocked: error.until };
    throw error;
  }
  if (!context.server.replicaSet || HELLO_COMMANDS.has(name)) return reply;
  const unsatisfiable = unsatisfiableWriteConcern(request.body, reply);
  return { ...reply, ...unsatisfiable, ...context.server.clusterTimeFields(context.server.clusterTime(WRITE_COMMANDS.has(name))) };
}

/**
 * A replica set of one data-bearing member applies a write and then reports
 * that `w: n` > 1 cannot be satisfied, as mongod does (UnsatisfiableWriteConcern, 100).
 */
function unsatisfiableWriteConcern(body: Document, reply: Document): Document {
  const writeConcern = body['writeConcern'];
  const w = typeof writeConcern === 'object' && writeConcern !== null ? (writeConcern as Document)['w'] : undefined;
  if (reply['ok'] !== 1 || typeof w !== 'number' || w <= 1) return {};
  return { writeConcernError: { code: 100, codeName: 'UnsatisfiableWriteConcern', errmsg: 'Not enough data-bearing nodes', errInfo: {} } };
}

/** Turns failures into error replies; a blocked command propagates (see runCommand). */
function guarded(name: string, run: () => Document): Document {
  try {
    return run();
  } catch (error) {
    if (error instanceof CommandError || error instanceof WriteConflictError) return error.toReply();
    if (error instanceof BlockedByTransaction) throw error;
    return new CommandError('InternalError', `wire test server failed on '${name}': ${String((error as Error).stack ?? error)}`).toReply();
  }
}

function dispatch(context: CommandContext, request: CommandRequest, name: string): Document {
  if (request.legacy && !HELLO_COMMANDS.has(name)) {
    throw new CommandError(
      'UnsupportedOpQueryCommand',
      `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade.`,
    );
  }
  const body = request.body;
  const handler = HANDLERS.get(name);
  const execute = (store: StoreView = context.store): Document => {
    if (handler === undefined) throw new CommandError('CommandNotFound', `no such command: '${name}'`);
    return handler(store === context.store ? context : { ...context, store }, request.db, body);
  };
  const transactional = body['txnNumber'] !== undefined || body['startTransaction'] !== undefined || body['autocommit'] !== undefined;
  const transactionCommand = name === 'commitTransaction' || name === 'abortTransaction';
  // A standalone refuses transactions and retryable writes as a real standalone mongod does (see wire-server.ts).
  if (!context.server.replicaSet) {
    if (transactional || transactionCommand) rejectTransaction();
    return execute();
  }
  const now = context.server.now().getTime();
  context.transactions.expire(now, context.server.parameters.transactionLifetimeLimitSeconds * 1000);
  const session = context.sessions.of(body, now);
  if (body['autocommit'] !== undefined || body['startTransaction'] !== undefined || transactionCommand) {
    return inTransaction(context, name, session, body, execute);
  }
  // Outside a transaction, a write that would touch a document a transaction holds waits for it (tried on a scratch copy first).
  const outside = (): Document => {
    if (RETRYABLE_WRITE_COMMANDS.has(name) && context.transactions.hasLocks) execute(context.transactions.scratch());
    return execute();
  };
  const txnNumber = txnNumberOf(body);
  if (txnNumber === undefined) return outside();
  if (session === undefined) throw new CommandError('InvalidOptions', 'Transaction number requires a session ID to also be specified');
  if (!RETRYABLE_WRITE_COMMANDS.has(name)) {
    throw new CommandError('InvalidOptions', `txnNumber may only be provided for multi-document transactions and retryable write commands. autocommit:false was not provided, and ${name} is not a retryable write command.`);
  }
  return retryableWrite(session, txnNumber, () => guarded(name, outside));
}

function noSuchTransaction(message: string): CommandError {
  return new CommandError('NoSuchTransaction', message, { errorLabels: [TRANSIENT_TRANSACTION_ERROR] });
}

/** A command of a multi-document transaction: `autocommit: false` with the session's `txnNumber` (and `startTransaction` on the first). */
function inTransaction(
  context: CommandContext,
  name: string,
  session: ServerSession | undefined,
  body: Document,
  execute: (store?: StoreView) => Document,
): Document {
  if (session === undefined) throw new CommandError('InvalidOptions', 'Transaction requires a session ID (lsid)');
  if (body['autocommit'] !== false) throw new CommandError('InvalidOptions', "Specifying autocommit=true is not allowed; 'autocommit' must be false in a transaction");
  const txnNumber = txnNumberOf(body);
  if (txnNumber === undefined) throw new CommandError('InvalidOptions', "'autocommit' field requires a transaction number to also be specified");
  const registry = context.transactions;
  if (body['startTransaction'] !== undefined) {
    if (body['startTransaction'] !== true) throw new CommandError('InvalidOptions', 'startTransaction field can only be specified as true');
    if (txnNumber < session.txnNumber) {
      throw new CommandError('TransactionTooOld', `Cannot start transaction ${txnNumber} on session ${session.key} because a newer transaction with txnNumber ${session.txnNumber} has already started on this session.`);
    }
    if (txnNumber === session.txnNumber) {
      throw new CommandError('ConflictingOperationInProgress', `Cannot start a transaction at given transaction number ${txnNumber} a transaction with the same number is in state ${session.transaction?.state ?? 'retryable write'}`);
    }
    if (session.transaction?.active === true) registry.abort(session.transaction, 'a newer transaction started on its session');
    session.txnNumber = txnNumber;
    session.retryableReply = undefined;
    session.transaction = registry.begin(txnNumber, context.server.now().getTime());
  }
  const transaction = session.transaction;
  if (transaction === undefined || transaction.txnNumber !== txnNumber) {
    if (txnNumber < session.txnNumber) {
      throw new CommandError('TransactionTooOld', `txnNumber ${txnNumber} is less than last txnNumber ${session.txnNumber} seen in session ${session.key}`);
    }
    throw noSuchTransaction(`Given transaction number ${txnNumber} does not match any in-progress transactions. The active transaction number is ${session.txnNumber}`);
  }
  const aborted = (): CommandError => noSuchTransaction(`Transaction with { txnNumber: ${txnNumber} } has been aborted${transaction.abortReason === '' ? '' : ` (${transaction.abortReason})`}.`);
  const committed = (): CommandError => new CommandError('TransactionCommitted', `Transaction with { txnNumber: ${txnNumber} } has been committed.`);
  if (name === 'commitTransaction') {
    // A retried commit answers what the first one did.
    if (transaction.state === 'committed') return transaction.commitReply ?? { ok: 1 };
    if (transaction.state === 'aborted') throw aborted();
    registry.commit(transaction);
    transaction.commitReply = { ok: 1 };
    return transaction.commitReply;
  }
  if (name === 'abortTransaction') {
    if (transaction.state === 'committed') throw committed();
    if (transaction.state === 'aborted') throw aborted();
    registry.abort(transaction, 'abortTransaction');
    return { ok: 1 };
  }
  if (transaction.state === 'committed') throw committed();
  if (transaction.state === 'aborted') throw aborted();
  if (!TRANSACTION_COMMANDS.has(name)) {
    registry.abort(transaction, `'${name}' is not allowed in a transaction`);
    throw new CommandError('OperationNotSupportedInTransaction', `Cannot run '${name}' in a multi-document transaction.`);
  }
  // As on MongoDB, a statement that fails aborts its transaction.
  let reply: Document;
  try {
    reply = execute(transaction);
  } catch (error) {
    registry.abort(transaction, `${name} failed: ${(error as Error).message}`);
    throw error;
  }
  if (reply['ok'] !== 1 || reply['writeErrors'] !== undefined) registry.abort(transaction, `${name} failed`);
  return reply;
}

/** `configureFailPoint` (admin database only, as on mongod): see fail-points.ts. */
function configureFailPoint(...[context, db, body]: Parameters<CommandHandler>): Document {
  if (db !== 'admin') throw new CommandError('Unauthorized', 'configureFailPoint may only be run against the admin database.');
  return context.failPoints.configure(body);
}

/**
 * `endSessions` (the sessions are forgotten) and `killSessions` (they stay
 * usable): either way, as mongod, the open transaction of each session listed is aborted.
 */
function sessionsCommand(name: 'endSessions' | 'killSessions'): CommandHandler {
  return (...[context, _db, body]: Parameters<CommandHandler>): Document => {
    const ids = body[name];
    if (!Array.isArray(ids)) throw new CommandError('TypeMismatch', `BSON field '${name}' is the wrong type, expected type 'array'`);
    for (const lsid of ids) {
      const key = context.sessions.keyOf(lsid);
      if (key === undefined) continue;
      const session = name === 'endSessions' ? context.sessions.end(key) : context.sessions.find(key);
      if (session?.transaction?.active === true) context.transactions.abort(session.transaction, name === 'endSessions' ? 'its session ended' : 'its session was killed');
    }
    return { ok: 1 };
  };
}
