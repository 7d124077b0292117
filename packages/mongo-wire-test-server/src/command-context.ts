/**
 * What every command handler receives, and readers for command fields: a
 * command body is untyped BSON, so each field is checked before use and a bad
 * one answers like a real server (TypeMismatch / InvalidNamespace), not with a
 * crash.
 */
import type { Document } from 'mongodb';
import { CommandError } from './command-error.js';
import type { CursorRegistry } from './cursor-registry.js';
import { isPlainDocument } from './document-update.js';
import type { StoreView } from './memory-store.js';
import type { ServerState } from './server-state.js';
import type { SessionRegistry } from './sessions.js';
import type { TransactionRegistry } from './transactions.js';
import type { FailPoints } from './fail-points.js';

export interface CommandContext {
  /** The live store, or inside a transaction that transaction's view of it. */
  readonly store: StoreView;
  readonly transactions: TransactionRegistry;
  readonly failPoints: FailPoints;
  readonly cursors: CursorRegistry;
  readonly connectionId: number;
  readonly server: ServerState;
  readonly sessions: SessionRegistry;
  /** The key of the command's session (its `lsid`), if it names one: cursors it opens belong to that session. */
  readonly sessionKey?: string | undefined;
}

/** `db` is the command's `$db`; `body` has kind-1 sequences already merged in. */
export type CommandHandler = (context: CommandContext, db: string, body: Document) => Document;

/** The collection a command names in its first field (`{ find: 'users', ... }`). */
export function collectionName(body: Document, command: string): string {
  const name = body[command];
  if (typeof name !== 'string' || name === '') {
    throw new CommandError('InvalidNamespace', `collection name has invalid type ${typeof name}`);
  }
  return name;
}

export function optionalDocument(body: Document, field: string): Document | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!isPlainDocument(value)) throw typeMismatch(field, 'object', value);
  return value;
}

export function optionalNumber(body: Document, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw typeMismatch(field, 'number', value);
  return value;
}

export function optionalBoolean(body: Document, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw typeMismatch(field, 'bool', value);
  return value;
}

export function documentArray(body: Document, field: string): Document[] {
  const value = body[field];
  if (!Array.isArray(value) || !value.every(isPlainDocument)) throw typeMismatch(field, 'array of objects', value);
  return value;
}

function typeMismatch(field: string, expected: string, value: unknown): CommandError {
  const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  return new CommandError('TypeMismatch', `BSON field '${field}' is the wrong type '${actual}', expected type '${expected}'`);
}
