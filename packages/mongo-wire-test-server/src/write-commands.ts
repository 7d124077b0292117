/**
 * insert, update, delete, findAndModify.
 *
 * Batch writes answer like a real server: `ok: 1` with per-statement
 * `writeErrors: [{ index, code, errmsg, ... }]` (duplicate key: code 11000 with
 * keyPattern/keyValue), stopping at the first error when `ordered` (default).
 * findAndModify has no write errors: its failures are command errors.
 */
import { ObjectId, type Document } from 'mongodb';
import { collectionName, documentArray, optionalBoolean, optionalDocument, type CommandHandler } from './command-context.js';
import { CommandError } from './command-error.js';
import { applyUpdate, buildUpsertDocument, parseUpdate, withIdFirst, type UpdateContext } from './document-update.js';
import type { MemoryCollection } from './memory-store.js';
import { projectDocument, sameBson, selectDocuments } from './query-engine.js';
import { requireSimpleCollation } from './refusals.js';

export const insert: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'insert');
  const documents = documentArray(body, 'documents');
  const ordered = optionalBoolean(body, 'ordered') ?? true;
  const collection = context.store.ensureCollection(db, name).collection;
  let n = 0;
  const writeErrors = forEachStatement(documents, ordered, (document) => {
    if (Array.isArray(document['_id'])) throw new CommandError('BadValue', "can't use an array for _id");
    // Normally the driver has already set _id; an id-less insert gets one here.
    collection.insert(withIdFirst(document['_id'] === undefined ? { _id: new ObjectId(), ...document } : document));
    n += 1;
  });
  return withWriteErrors({ n }, writeErrors);
};

export const update: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'update');
  const statements = documentArray(body, 'updates');
  refuseUpdateSort(statements);
  const ordered = optionalBoolean(body, 'ordered') ?? true;
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const writeErrors = forEachStatement(statements, ordered, (statement, index) => {
    const query = requiredDocument(statement, 'q');
    requireSimpleCollation(statement);
    const spec = parseUpdate(statement['u']);
    const multi = optionalBoolean(statement, 'multi') ?? false;
    if (multi && spec.kind === 'replacement') {
      throw new CommandError('FailedToParse', 'multi update is not supported for replacement-style update');
    }
    const updateContext: UpdateContext = { query, arrayFilters: arrayFiltersOf(statement) };
    const collection = context.store.collection(db, name);
    const matches =
      collection === undefined
        ? []
        : selectDocuments(collection.documents, {
            filter: query,
            limit: multi ? undefined : 1,
            variables: optionalDocument(body, 'let'),
          });
    for (const current of matches) {
      n += 1;
      if (collection !== undefined && replaceIfChanged(collection, current, applyUpdate(current, spec, updateContext))) nModified += 1;
    }
    if (matches.length === 0 && optionalBoolean(statement, 'upsert') === true) {
      const document = buildUpsertDocument(spec, updateContext);
      context.store.ensureCollection(db, name).collection.insert(document);
      n += 1;
      upserted.push({ index, _id: document['_id'] });
    }
  });
  const reply: Document = { n, nModified };
  if (upserted.length > 0) reply['upserted'] = upserted;
  return withWriteErrors(reply, writeErrors);
};

export const deleteCommand: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'delete');
  const statements = documentArray(body, 'deletes');
  const ordered = optionalBoolean(body, 'ordered') ?? true;
  let n = 0;
  const writeErrors = forEachStatement(statements, ordered, (statement) => {
    const query = requiredDocument(statement, 'q');
    const limit = statement['limit'];
    if (limit !== 0 && limit !== 1)
      throw new CommandError('FailedToParse', `The limit field in delete objects must be 0 or 1. Got ${String(limit)}`);
    requireSimpleCollation(statement);
    const collection = context.store.collection(db, name);
    if (collection === undefined) return;
    const matches = selectDocuments(collection.documents, {
      filter: query,
      limit: limit === 1 ? 1 : undefined,
      variables: optionalDocument(body, 'let'),
    });
    for (const document of matches) collection.remove(document);
    n += matches.length;
  });
  return withWriteErrors({ n }, writeErrors);
};

export const findAndModify: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'findAndModify' in body ? 'findAndModify' : 'findandmodify');
  const query = optionalDocument(body, 'query') ?? {};
  const remove = optionalBoolean(body, 'remove') ?? false;
  const returnNew = optionalBoolean(body, 'new') ?? false;
  const upsert = optionalBoolean(body, 'upsert') ?? false;
  const fields = optionalDocument(body, 'fields');
  const hasUpdate = body['update'] !== undefined;
  if (remove && hasUpdate) throw new CommandError('FailedToParse', 'Cannot specify both an update and remove=true');
  if (!remove && !hasUpdate) throw new CommandError('FailedToParse', 'Either an update or remove=true must be specified');
  if (remove && (upsert || returnNew))
    throw new CommandError('FailedToParse', 'Cannot specify both upsert=true and remove=true, or new=true and remove=true');
  requireSimpleCollation(body);

  const collection = context.store.collection(db, name);
  const [target] =
    collection === undefined
      ? []
      : selectDocuments(collection.documents, {
          filter: query,
          sort: optionalDocument(body, 'sort'),
          limit: 1,
          variables: optionalDocument(body, 'let'),
        });

  if (remove) {
    if (collection === undefined || target === undefined) return { lastErrorObject: { n: 0 }, value: null, ok: 1 };
    collection.remove(target);
    return { lastErrorObject: { n: 1 }, value: projectDocument(target, fields), ok: 1 };
  }

  const spec = parseUpdate(body['update']);
  const updateContext: UpdateContext = { query, arrayFilters: arrayFiltersOf(body) };
  if (collection !== undefined && target !== undefined) {
    const next = applyUpdate(target, spec, updateContext);
    const stored = replaceIfChanged(collection, target, next) ? next : target;
    return {
      lastErrorObject: { n: 1, updatedExisting: true },
      value: projectDocument(returnNew ? stored : target, fields),
      ok: 1,
    };
  }
  if (!upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
  const document = buildUpsertDocument(spec, updateContext);
  context.store.ensureCollection(db, name).collection.insert(document);
  return {
    lastErrorObject: { n: 1, updatedExisting: false, upserted: document['_id'] },
    value: returnNew ? projectDocument(document, fields) : null,
    ok: 1,
  };
};

/**
 * MongoDB 7.0, the version this server advertises, has no `sort` in an update
 * statement (8.0 added it to updateOne and replaceOne): its command parser
 * refuses the field before any statement runs, and so does this server.
 */
function refuseUpdateSort(statements: Document[]): void {
  if (statements.some((statement) => statement['sort'] !== undefined)) {
    throw new CommandError('IDLUnknownField', "BSON field 'update.updates.sort' is an unknown field.");
  }
}

/** Stores `next` unless it is byte-identical to `current` (then nothing was modified). */
function replaceIfChanged(collection: MemoryCollection, current: Document, next: Document): boolean {
  if (sameBson(current, next)) return false;
  collection.replace(current, next);
  return true;
}

/** Runs each statement; a CommandError becomes a write error, anything else is a bug and propagates. */
function forEachStatement(statements: Document[], ordered: boolean, run: (statement: Document, index: number) => void): Document[] {
  const writeErrors: Document[] = [];
  for (const [index, statement] of statements.entries()) {
    try {
      run(statement, index);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      writeErrors.push(error.toWriteError(index));
      if (ordered) break;
    }
  }
  return writeErrors;
}

function withWriteErrors(reply: Document, writeErrors: Document[]): Document {
  return writeErrors.length > 0 ? { ...reply, writeErrors, ok: 1 } : { ...reply, ok: 1 };
}

function requiredDocument(statement: Document, field: string): Document {
  const value = optionalDocument(statement, field);
  if (value === undefined) throw new CommandError('FailedToParse', `BSON field '${field}' is missing but a required field`);
  return value;
}

function arrayFiltersOf(source: Document): Document[] | undefined {
  return source['arrayFilters'] === undefined ? undefined : documentArray(source, 'arrayFilters');
}
