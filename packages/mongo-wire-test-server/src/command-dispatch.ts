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
  ['endSessions', admin.endSessions],
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

/** Never throws: every failure becomes `{ ok: 0, ... }`. */
export function runCommand(context: CommandContext, request: CommandRequest): Document {
  const name = commandName(request.body);
  try {
    if (request.legacy && !HELLO_COMMANDS.has(name)) {
      throw new CommandError(
        'UnsupportedOpQueryCommand',
        `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade.`,
      );
    }
    // Transactions are refused the way a standalone mongod refuses them (see wire-server.ts).
    const body = request.body;
    if (body['txnNumber'] !== undefined || body['startTransaction'] !== undefined || body['autocommit'] !== undefined) {
      rejectTransaction();
    }
    const handler = HANDLERS.get(name);
    if (handler === undefined) throw new CommandError('CommandNotFound', `no such command: '${name}'`);
    return handler(context, request.db, body);
  } catch (error) {
    if (error instanceof CommandError) return error.toReply();
    return new CommandError('InternalError', `wire test server failed on '${name}': ${String((error as Error).stack ?? error)}`).toReply();
  }
}
