/**
 * Logical sessions (`lsid`) and what hangs on them: the retryable-write record
 * (the last `txnNumber` and its reply) and, in transactions.ts, the session's
 * multi-document transaction.
 *
 * Retryable writes (MongoDB's retryable-writes spec): a write outside a
 * transaction that carries `lsid` and `txnNumber` is executed once; the same
 * `txnNumber` again on that session answers the first reply without applying
 * the write twice. An older `txnNumber` answers TransactionTooOld (225).
 */
import { Binary, Long, type Document } from 'mongodb';
import { CommandError } from './command-error.js';
import { isPlainDocument } from './document-update.js';
import type { Transaction } from './transactions.js';

/** The commands that may carry a txnNumber outside a transaction. */
export const RETRYABLE_WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);

export interface ServerSession {
  readonly key: string;
  /** The highest txnNumber seen on this session (-1: none yet). */
  txnNumber: bigint;
  /** The reply of the retryable write with `txnNumber`, once it executed. */
  retryableReply: Document | undefined;
  /** The session's latest multi-document transaction (in progress, committed or aborted). */
  transaction: Transaction | undefined;
  lastUse: number;
}

export class SessionRegistry {
  readonly #sessions = new Map<string, ServerSession>();

  /** The session a command names in `lsid` (created on first use), or undefined without one. */
  of(body: Document, now: number): ServerSession | undefined {
    const lsid = body['lsid'];
    if (lsid === undefined) return undefined;
    if (!isPlainDocument(lsid) || !(lsid['id'] instanceof Binary)) {
      throw new CommandError('TypeMismatch', "BSON field 'lsid.id' is the wrong type, expected type 'binData'");
    }
    const key = Buffer.from(lsid['id'].buffer).toString('hex');
    let session = this.#sessions.get(key);
    if (session === undefined) {
      session = { key, txnNumber: -1n, retryableReply: undefined, transaction: undefined, lastUse: now };
      this.#sessions.set(key, session);
    }
    session.lastUse = now;
    return session;
  }

  /** `endSessions`: forgets them (their transactions are aborted by the caller). */
  end(key: string): ServerSession | undefined {
    const session = this.#sessions.get(key);
    this.#sessions.delete(key);
    return session;
  }

  /** The session under `key`, if the server knows it (without touching it). */
  find(key: string): ServerSession | undefined {
    return this.#sessions.get(key);
  }

  keyOf(lsid: unknown): string | undefined {
    return isPlainDocument(lsid) && lsid['id'] instanceof Binary ? Buffer.from(lsid['id'].buffer).toString('hex') : undefined;
  }

  all(): IterableIterator<ServerSession> {
    return this.#sessions.values();
  }

  clear(): void {
    this.#sessions.clear();
  }
}

/** A command's txnNumber (an int64 on the wire; promoted to a number when small). */
export function txnNumberOf(body: Document): bigint | undefined {
  const raw = body['txnNumber'];
  if (raw === undefined) return undefined;
  if (typeof raw === 'number' && Number.isInteger(raw)) return BigInt(raw);
  if (Long.isLong(raw)) return raw.toBigInt();
  if (typeof raw === 'bigint') return raw;
  throw new CommandError('TypeMismatch', "BSON field 'txnNumber' is the wrong type, expected type 'long'");
}

/**
 * Runs a retryable write once per (session, txnNumber): the first execution's
 * reply is kept when the write succeeded (ok: 1, no write errors) and answered
 * again for a retry. A write that failed is not recorded, so its retry executes.
 */
export function retryableWrite(session: ServerSession, txnNumber: bigint, execute: () => Document): Document {
  if (txnNumber < session.txnNumber) {
    throw new CommandError(
      'TransactionTooOld',
      `Retryable write with txnNumber ${txnNumber} is prohibited on session ${session.key} because a newer retryable write with txnNumber ${session.txnNumber} has already started on this session.`,
    );
  }
  if (txnNumber === session.txnNumber && session.retryableReply !== undefined) return session.retryableReply;
  if (txnNumber === session.txnNumber && session.transaction !== undefined && session.transaction.txnNumber === txnNumber) {
    throw new CommandError(
      'ConflictingOperationInProgress',
      `txnNumber ${txnNumber} on session ${session.key} is a multi-document transaction, not a retryable write`,
    );
  }
  if (session.transaction?.active === true)
    session.transaction.registry.abort(session.transaction, 'a newer txnNumber arrived on its session');
  session.txnNumber = txnNumber;
  session.retryableReply = undefined;
  const reply = execute();
  if (reply['ok'] === 1 && reply['writeErrors'] === undefined) session.retryableReply = reply;
  return reply;
}
