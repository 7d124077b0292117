/**
 * Maps a command name to its handler and turns every outcome into a reply
 * document. A command the server does not implement answers CommandNotFound
 * (59) so a gap in this test server is loud, never a silent success.
 */
import { createHash } from 'node:crypto';
import { Binary, type Document } from 'mongodb';
import * as admin from './admin-commands.js';
import type { CommandContext, CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';
import * as read from './read-commands.js';
import { refuseSnapshotOutsideTransaction } from './refusals.js';
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
  ['killAllSessions', killAllSessions],
  ['killAllSessionsByPattern', killAllSessionsByPattern],
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
const WRITE_COMMANDS = new Set([
  ...RETRYABLE_WRITE_COMMANDS,
  'create',
  'drop',
  'dropDatabase',
  'createIndexes',
  'dropIndexes',
  'commitTransaction',
]);

/** What MongoDB runs inside a multi-document transaction (the rest answers OperationNotSupportedInTransaction, 263). */
const TRANSACTION_COMMANDS = new Set([
  ...RETRYABLE_WRITE_COMMANDS,
  'find',
  'getMore',
  'killCursors',
  'aggregate',
  'distinct',
  'create',
  'createIndexes',
]);

/** Commands that create collections or indexes: inside a transaction only with readConcern local (MongoDB 4.4+). */
const CATALOG_COMMANDS = new Set(['create', 'createIndexes']);

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
    throw new CommandError('UnsupportedOpQueryCommand', `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade.`);
  }
  const body = request.body;
  refuseSnapshotOutsideTransaction(name, body);
  const handler = HANDLERS.get(name);
  // Cursors a command opens belong to its session (killSessions / killAllSessions close them).
  const sessionKey = context.sessions.keyOf(body['lsid']);
  const execute = (store: StoreView = context.store): Document => {
    if (handler === undefined) throw new CommandError('CommandNotFound', `no such command: '${name}'`);
    return handler(store === context.store && sessionKey === undefined ? context : { ...context, store, sessionKey }, request.db, body);
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
    throw new CommandError(
      'InvalidOptions',
      `txnNumber may only be provided for multi-document transactions and retryable write commands. autocommit:false was not provided, and ${name} is not a retryable write command.`,
    );
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
  if (body['autocommit'] !== false)
    throw new CommandError('InvalidOptions', "Specifying autocommit=true is not allowed; 'autocommit' must be false in a transaction");
  const txnNumber = txnNumberOf(body);
  if (txnNumber === undefined)
    throw new CommandError('InvalidOptions', "'autocommit' field requires a transaction number to also be specified");
  const registry = context.transactions;
  if (body['startTransaction'] !== undefined) {
    if (body['startTransaction'] !== true) throw new CommandError('InvalidOptions', 'startTransaction field can only be specified as true');
    if (txnNumber < session.txnNumber) {
      throw new CommandError(
        'TransactionTooOld',
        `Cannot start transaction ${txnNumber} on session ${session.key} because a newer transaction with txnNumber ${session.txnNumber} has already started on this session.`,
      );
    }
    if (txnNumber === session.txnNumber) {
      throw new CommandError(
        'ConflictingOperationInProgress',
        `Cannot start a transaction at given transaction number ${txnNumber} a transaction with the same number is in state ${session.transaction?.state ?? 'retryable write'}`,
      );
    }
    if (session.transaction?.active === true) registry.abort(session.transaction, 'a newer transaction started on its session');
    session.txnNumber = txnNumber;
    session.retryableReply = undefined;
    session.transaction = registry.begin(txnNumber, context.server.now().getTime());
    const readConcern = body['readConcern'];
    const level = typeof readConcern === 'object' && readConcern !== null ? (readConcern as Document)['level'] : undefined;
    session.transaction.readConcernLevel = typeof level === 'string' ? level : undefined;
  }
  const transaction = session.transaction;
  if (transaction === undefined || transaction.txnNumber !== txnNumber) {
    if (txnNumber < session.txnNumber) {
      throw new CommandError(
        'TransactionTooOld',
        `txnNumber ${txnNumber} is less than last txnNumber ${session.txnNumber} seen in session ${session.key}`,
      );
    }
    throw noSuchTransaction(
      `Given transaction number ${txnNumber} does not match any in-progress transactions. The active transaction number is ${session.txnNumber}`,
    );
  }
  const aborted = (): CommandError =>
    noSuchTransaction(
      `Transaction with { txnNumber: ${txnNumber} } has been aborted${transaction.abortReason === '' ? '' : ` (${transaction.abortReason})`}.`,
    );
  const committed = (): CommandError =>
    new CommandError('TransactionCommitted', `Transaction with { txnNumber: ${txnNumber} } has been committed.`);
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
  const level = transaction.readConcernLevel;
  if (CATALOG_COMMANDS.has(name) && level !== undefined && level !== 'local') {
    registry.abort(transaction, `'${name}' needs readConcern local in a transaction`);
    throw new CommandError(
      'InvalidOptions',
      `Cannot run '${name}' in a multi-document transaction with readConcern level '${level}': creating collections and indexes in a transaction requires readConcern level 'local'`,
    );
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
 * usable): either way, as mongod, the open transaction of each session listed
 * is aborted; killSessions also closes the sessions' cursors.
 */
function sessionsCommand(name: 'endSessions' | 'killSessions'): CommandHandler {
  return (...[context, _db, body]: Parameters<CommandHandler>): Document => {
    const ids = body[name];
    if (!Array.isArray(ids)) throw new CommandError('TypeMismatch', `BSON field '${name}' is the wrong type, expected type 'array'`);
    const keys = new Set<string>();
    for (const lsid of ids) {
      const key = context.sessions.keyOf(lsid);
      if (key !== undefined) keys.add(key);
    }
    if (name === 'killSessions') {
      killSessions(context, (key) => keys.has(key));
      return { ok: 1 };
    }
    for (const key of keys) {
      const session = context.sessions.end(key);
      if (session?.transaction?.active === true) context.transactions.abort(session.transaction, 'its session ended');
    }
    return { ok: 1 };
  };
}

/**
 * Kills the sessions `matches` accepts, as mongod's killSessions family does:
 * each one's open transaction is aborted (its locks released, so writes
 * waiting on them go on) and its cursors are closed. The sessions stay known
 * (their transaction numbers too, so a retried write is still answered once
 * and an old txnNumber is still TransactionTooOld); a later command of a
 * killed transaction answers NoSuchTransaction (251).
 */
function killSessions(context: CommandContext, matches: (key: string) => boolean): void {
  for (const session of [...context.sessions.all()]) {
    if (matches(session.key) && session.transaction?.active === true)
      context.transactions.abort(session.transaction, 'its session was killed');
  }
  context.cursors.killSessions(matches);
}

/**
 * mongod's user digest of a session opened without authentication (SHA-256 of
 * the empty string; a user's digest hashes "user@db"). This server has no
 * authentication, so every session has it.
 */
const NO_AUTH_DIGEST = createHash('sha256').update('').digest();

/** A `{ user, db }` entry of killAllSessions or of a pattern's `users`. */
function checkUserName(entry: unknown, field: string): void {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type, expected type 'object'`);
  }
  const { user, db } = entry as Document;
  if (typeof user !== 'string' || typeof db !== 'string') {
    throw new CommandError('TypeMismatch', `BSON field '${field}' needs string fields 'user' and 'db'`);
  }
}

/**
 * `{ killAllSessions: [] }` kills every session on the server;
 * `{ killAllSessions: [{ user, db }, ...] }` the sessions of those users. This
 * server has no authentication, so every session belongs to no user and a
 * list of users kills none (as on a mongod without auth).
 */
function killAllSessions(...[context, _db, body]: Parameters<CommandHandler>): Document {
  const users = body['killAllSessions'];
  if (!Array.isArray(users))
    throw new CommandError('TypeMismatch', "BSON field 'killAllSessions' is the wrong type, expected type 'array'");
  users.forEach((entry, index) => checkUserName(entry, `killAllSessions.${index}`));
  if (users.length === 0) killSessions(context, () => true);
  return { ok: 1 };
}

/**
 * `{ killAllSessionsByPattern: [pattern, ...] }`: an empty list, or an empty
 * pattern, kills every session. A pattern matches by `lsid` (its `id`), by
 * `uid` (the user digest: every session here has the unauthenticated one), or
 * by `users` / `roles` (which match no session here: there is no
 * authentication). A session is killed when any pattern matches it.
 */
function killAllSessionsByPattern(...[context, _db, body]: Parameters<CommandHandler>): Document {
  const patterns = body['killAllSessionsByPattern'];
  if (!Array.isArray(patterns))
    throw new CommandError('TypeMismatch', "BSON field 'killAllSessionsByPattern' is the wrong type, expected type 'array'");
  const matchers = patterns.map((pattern, index): ((key: string) => boolean) => {
    const field = `killAllSessionsByPattern.${index}`;
    if (typeof pattern !== 'object' || pattern === null || Array.isArray(pattern)) {
      throw new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type, expected type 'object'`);
    }
    const { lsid, uid, users, roles, ...unknown } = pattern as Document;
    const extra = Object.keys(unknown)[0];
    if (extra !== undefined) throw new CommandError('FailedToParse', `BSON field '${field}.${extra}' is an unknown field.`);
    const tests: Array<(key: string) => boolean> = [];
    if (lsid !== undefined) {
      const key = context.sessions.keyOf(lsid);
      if (key === undefined)
        throw new CommandError('TypeMismatch', `BSON field '${field}.lsid.id' is the wrong type, expected type 'binData'`);
      tests.push((candidate) => candidate === key);
    }
    if (uid !== undefined) {
      if (!(uid instanceof Binary))
        throw new CommandError('TypeMismatch', `BSON field '${field}.uid' is the wrong type, expected type 'binData'`);
      const anonymous = Buffer.from(uid.buffer).equals(NO_AUTH_DIGEST);
      tests.push(() => anonymous);
    }
    for (const [name, list] of [
      ['users', users],
      ['roles', roles],
    ] as const) {
      if (list === undefined) continue;
      if (!Array.isArray(list))
        throw new CommandError('TypeMismatch', `BSON field '${field}.${name}' is the wrong type, expected type 'array'`);
      list.forEach((entry, position) =>
        name === 'users' ? checkUserName(entry, `${field}.users.${position}`) : checkRoleName(entry, `${field}.roles.${position}`),
      );
      tests.push(() => false);
    }
    return (key) => tests.every((test) => test(key));
  });
  killSessions(context, matchers.length === 0 ? () => true : (key) => matchers.some((matcher) => matcher(key)));
  return { ok: 1 };
}

/** A `{ role, db }` entry of a pattern's `roles`. */
function checkRoleName(entry: unknown, field: string): void {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type, expected type 'object'`);
  }
  const { role, db } = entry as Document;
  if (typeof role !== 'string' || typeof db !== 'string') {
    throw new CommandError('TypeMismatch', `BSON field '${field}' needs string fields 'role' and 'db'`);
  }
}
