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
import { RETRYABLE_WRITE_COMMANDS, retryableWrite, txnNumberOf } from './sessions.js';

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
  ['endSessions', endSessions],
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

/** Never throws: every failure becomes `{ ok: 0, ... }`. */
export function runCommand(context: CommandContext, request: CommandRequest): Document {
  const name = commandName(request.body);
  const reply = guarded(name, () => dispatch(context, request, name));
  if (!context.server.replicaSet || HELLO_COMMANDS.has(name)) return reply;
  return { ...reply, ...context.server.clusterTimeFields(context.server.clusterTime(WRITE_COMMANDS.has(name))) };
}

function guarded(name: string, run: () => Document): Document {
  try {
    return run();
  } catch (error) {
    if (error instanceof CommandError) return error.toReply();
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
  const execute = (): Document => {
    if (handler === undefined) throw new CommandError('CommandNotFound', `no such command: '${name}'`);
    return handler(context, request.db, body);
  };
  const transactional = body['txnNumber'] !== undefined || body['startTransaction'] !== undefined || body['autocommit'] !== undefined;
  // A standalone refuses transactions and retryable writes as a real standalone mongod does (see wire-server.ts).
  if (!context.server.replicaSet) {
    if (transactional || name === 'commitTransaction' || name === 'abortTransaction') rejectTransaction();
    return execute();
  }
  const session = context.sessions.of(body, context.server.now().getTime());
  if (body['autocommit'] !== undefined || body['startTransaction'] !== undefined || name === 'commitTransaction' || name === 'abortTransaction') {
    rejectTransaction();
  }
  const txnNumber = txnNumberOf(body);
  if (txnNumber === undefined) return execute();
  if (session === undefined) throw new CommandError('InvalidOptions', 'Transaction number requires a session ID to also be specified');
  if (!RETRYABLE_WRITE_COMMANDS.has(name)) {
    throw new CommandError('InvalidOptions', `txnNumber may only be provided for multi-document transactions and retryable write commands. autocommit:false was not provided, and ${name} is not a retryable write command.`);
  }
  return retryableWrite(session, txnNumber, () => guarded(name, execute));
}

/** Forgets the sessions listed (their transactions, if any, are aborted). */
function endSessions(...[context, _db, body]: Parameters<CommandHandler>): Document {
  const ids = body['endSessions'];
  if (!Array.isArray(ids)) throw new CommandError('TypeMismatch', "BSON field 'endSessions' is the wrong type, expected type 'array'");
  for (const lsid of ids) {
    const key = context.sessions.keyOf(lsid);
    if (key !== undefined) context.sessions.end(key);
  }
  return { ok: 1 };
}
