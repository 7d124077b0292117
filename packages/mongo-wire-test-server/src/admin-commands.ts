/**
 * Handshake, diagnostics, and namespace/index management commands.
 */
import { Long, type Document } from 'mongodb';
import {
  type CommandContext,
  collectionName,
  documentArray,
  optionalBoolean,
  optionalDocument,
  optionalNumber,
  type CommandHandler,
} from './command-context.js';
import { CommandError } from './command-error.js';
import { isPlainDocument } from './document-update.js';
import { MAX_MESSAGE_SIZE_BYTES } from './wire-protocol.js';
import { compileFilter, sameBson } from './query-engine.js';
import { refuseUnimplementedCreateOptions, requireSimpleCollation } from './refusals.js';
import { Transaction, WriteConflictError } from './transactions.js';

import { SERVER_VERSION, SERVER_VERSION_ARRAY } from './server-state.js';

/** A replica set primary's hello (or a standalone's, in standalone mode): see ServerState.hello. */
export const hello: CommandHandler = (context) => context.server.hello(context.connectionId, MAX_MESSAGE_SIZE_BYTES);

export const ping: CommandHandler = () => ({ ok: 1 });

export const buildInfo: CommandHandler = () => ({
  version: SERVER_VERSION,
  gitVersion: 'debtkit-wire-test-server',
  versionArray: [...SERVER_VERSION_ARRAY],
  bits: 64,
  debug: false,
  maxBsonObjectSize: 16_777_216,
  storageEngines: ['memory'],
  ok: 1,
});

const parametersOf = (context: CommandContext): Document => ({
  featureCompatibilityVersion: { version: '7.0' },
  transactionLifetimeLimitSeconds: context.server.parameters.transactionLifetimeLimitSeconds,
});

/** `{ getParameter: 1, <name>: 1 }` or `{ getParameter: '*' }`. */
export const getParameter: CommandHandler = (context, _db, body) => {
  const parameters = parametersOf(context);
  if (body['getParameter'] === '*') return { ...parameters, ok: 1 };
  const reply: Document = {};
  for (const name of Object.keys(body)) {
    if (name === 'getParameter' || GENERIC_FIELDS.has(name)) continue;
    if (!(name in parameters)) throw new CommandError('InvalidOptions', `no option found to get: ${name}`);
    reply[name] = parameters[name];
  }
  return { ...reply, ok: 1 };
};

/**
 * `{ setParameter: 1, transactionLifetimeLimitSeconds: n }` on the admin
 * database, as mongod takes it; answers the previous value as `was`.
 */
export const setParameter: CommandHandler = (context, db, body) => {
  if (db !== 'admin') throw new CommandError('Unauthorized', 'setParameter may only be run against the admin database.');
  const names = Object.keys(body).filter((name) => name !== 'setParameter' && !GENERIC_FIELDS.has(name));
  if (names.length === 0) throw new CommandError('NoSuchKey', 'no option found to set, use help:true to see options ');
  const reply: Document = {};
  for (const name of names) {
    if (name !== 'transactionLifetimeLimitSeconds')
      throw new CommandError('InvalidOptions', `attempted to set unrecognized parameter [${name}], use help:true to see options `);
    const value = body[name];
    const seconds = typeof value === 'number' ? value : Long.isLong(value) ? value.toNumber() : Number.NaN;
    if (!Number.isInteger(seconds) || seconds < 1) {
      throw new CommandError(
        'BadValue',
        `Invalid value for parameter transactionLifetimeLimitSeconds: ${String(value)} is not greater than or equal to 1`,
      );
    }
    reply['was'] = context.server.parameters.transactionLifetimeLimitSeconds;
    context.server.parameters.transactionLifetimeLimitSeconds = seconds;
  }
  return { ...reply, ok: 1 };
};

export const listDatabases: CommandHandler = (context, _db, body) => {
  const nameOnly = optionalBoolean(body, 'nameOnly') ?? false;
  const databases = context.store.databaseNames().map((name) => (nameOnly ? { name } : { name, sizeOnDisk: 0, empty: false }));
  return nameOnly ? { databases, ok: 1 } : { databases, totalSize: 0, totalSizeMb: 0, ok: 1 };
};

/** Fields of any command that are not options of the command itself. */
const GENERIC_FIELDS = new Set([
  '$db',
  'lsid',
  '$clusterTime',
  'writeConcern',
  'readConcern',
  '$readPreference',
  'comment',
  'maxTimeMS',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'txnNumber',
  'autocommit',
  'startTransaction',
]);

export const create: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'create');
  refuseUnimplementedCreateOptions(body);
  const options: Document = {};
  for (const [field, value] of Object.entries(body)) {
    if (field !== 'create' && !GENERIC_FIELDS.has(field)) options[field] = value;
  }
  const { collection, created } = context.store.ensureCollection(db, name, options);
  // Like MongoDB 7.0: creating an existing collection with the same options is a no-op,
  // except inside a transaction, where an existing collection is always refused.
  if (!created && (inTransaction(context) !== undefined || !sameBson(collection.options, options))) {
    throw new CommandError('NamespaceExists', `Collection ${db}.${name} already exists.`);
  }
  return { ok: 1 };
};

/** The multi-document transaction a command runs in, if any. */
function inTransaction(context: CommandContext): Transaction | undefined {
  return context.store instanceof Transaction && !context.store.scratch ? context.store : undefined;
}

/**
 * What MongoDB 7.0 allows createIndexes to do inside a transaction: indexes
 * that all exist already (a no-op), or new indexes on a collection that does
 * not exist (it is created with them, in the transaction) or that this
 * transaction created and that is still empty. Anything else is refused with
 * OperationNotSupportedInTransaction (263), as mongod does; a collection
 * someone else created after the transaction's snapshot is a WriteConflict.
 */
function checkIndexesInTransaction(transaction: Transaction, db: string, name: string, specs: Document[]): void {
  const namespace = `${db}.${name}`;
  const existing = transaction.collection(db, name);
  if (existing === undefined) {
    if (transaction.registry.store.collection(db, name) !== undefined) {
      throw new WriteConflictError(`Failed to create indexes on new collection: namespace ${namespace} exists.`);
    }
    return;
  }
  if (specs.every((spec) => existing.hasIndex(spec))) return;
  if (!transaction.created.has(namespace)) {
    throw new CommandError(
      'OperationNotSupportedInTransaction',
      `Cannot create new indexes on existing collection ${namespace} in a multi-document transaction.`,
    );
  }
  if (existing.documents.length > 0) {
    throw new CommandError(
      'OperationNotSupportedInTransaction',
      `Cannot create new indexes on non-empty collection ${namespace} in a multi-document transaction.`,
    );
  }
}

export const drop: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'drop');
  const dropped = context.store.dropCollection(db, name);
  // Since MongoDB 7.0 dropping a missing collection succeeds.
  return dropped === undefined ? { ok: 1 } : { nIndexesWas: dropped.indexes.length, ns: dropped.namespace, ok: 1 };
};

export const dropDatabase: CommandHandler = (context, db) => {
  context.store.dropDatabase(db);
  return { ok: 1 };
};

export const createIndexes: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'createIndexes');
  const specs = documentArray(body, 'indexes');
  if (specs.length === 0) throw new CommandError('BadValue', 'Must specify at least one index to create');
  for (const spec of specs) requireSimpleCollation(spec);
  const transaction = inTransaction(context);
  if (transaction !== undefined) checkIndexesInTransaction(transaction, db, name, specs);
  const { collection, created } = context.store.ensureCollection(db, name);
  const before = collection.indexes.length;
  let added = 0;
  for (const spec of specs) if (collection.createIndex(spec)) added += 1;
  const reply: Document = {
    numIndexesBefore: before,
    numIndexesAfter: collection.indexes.length,
    createdCollectionAutomatically: created,
  };
  if (added === 0) reply['note'] = 'all indexes already exist';
  return { ...reply, ok: 1 };
};

/** `index`: a name, a key pattern, a list of names, or '*' (all but `_id_`). */
export const dropIndexes: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'dropIndexes');
  const collection = context.store.collection(db, name);
  if (collection === undefined) throw new CommandError('NamespaceNotFound', `ns not found ${db}.${name}`);
  const was = collection.indexes.length;
  const index = body['index'];
  let names: string[];
  if (index === '*') names = collection.indexes.map((description) => description.name).filter((indexName) => indexName !== '_id_');
  else if (typeof index === 'string') names = [index];
  else if (Array.isArray(index) && index.every((entry): entry is string => typeof entry === 'string')) names = index;
  else if (isPlainDocument(index)) {
    const found = collection.findIndexByKey(index);
    if (found === undefined) throw new CommandError('IndexNotFound', `can't find index with key: ${JSON.stringify(index)}`);
    names = [found.name];
  } else throw new CommandError('TypeMismatch', "BSON field 'dropIndexes.index' has an invalid type");
  for (const indexName of names) collection.dropIndex(indexName);
  return { nIndexesWas: was, ok: 1 };
};

export const listIndexes: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'listIndexes');
  const collection = context.store.collection(db, name);
  if (collection === undefined) throw new CommandError('NamespaceNotFound', `ns does not exist: ${db}.${name}`);
  const cursor = context.cursors.open(`${db}.${name}`, [...collection.indexes], {
    batchSize: optionalNumber(optionalDocument(body, 'cursor') ?? {}, 'batchSize'),
    session: context.sessionKey,
  });
  return { cursor, ok: 1 };
};

export const listCollections: CommandHandler = (context, db, body) => {
  const nameOnly = optionalBoolean(body, 'nameOnly') ?? false;
  const filter = optionalDocument(body, 'filter');
  const matches = filter === undefined ? () => true : compileFilter(filter);
  const entries = context.store
    .collections(db)
    .map((collection) => ({
      name: collection.name,
      type: 'collection',
      options: collection.options,
      info: { readOnly: false },
      idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
    }))
    .filter(matches)
    .map((entry) => (nameOnly ? { name: entry.name, type: entry.type } : entry));
  const cursor = context.cursors.open(`${db}.$cmd.listCollections`, entries, {
    batchSize: optionalNumber(optionalDocument(body, 'cursor') ?? {}, 'batchSize'),
    session: context.sessionKey,
  });
  return { cursor, ok: 1 };
};
