/**
 * find, getMore, killCursors, aggregate, count, distinct — with the reply
 * shapes driver 7.x reads (`cursor: { firstBatch | nextBatch, id: Long, ns }`).
 */
import { BSON, type Document } from 'mongodb';
import {
  collectionName,
  documentArray,
  optionalBoolean,
  optionalDocument,
  optionalNumber,
  type CommandContext,
  type CommandHandler,
} from './command-context.js';
import { CommandError } from './command-error.js';
import { valueAtPath } from './memory-store.js';
import { cloneDocument, compileFilter, runPipeline, selectDocuments } from './query-engine.js';
import { requireSimpleCollation } from './refusals.js';

export const find: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'find');
  const skip = nonNegative(body, 'skip');
  const limit = nonNegative(body, 'limit');
  const batchSize = nonNegative(body, 'batchSize');
  requireSimpleCollation(body);
  const collection = context.store.collection(db, name);
  const documents =
    collection === undefined
      ? []
      : selectDocuments(collection.documents, {
          filter: optionalDocument(body, 'filter') ?? {},
          sort: optionalDocument(body, 'sort'),
          projection: optionalDocument(body, 'projection'),
          skip,
          limit,
          variables: optionalDocument(body, 'let'),
        });
  const cursor = context.cursors.open(`${db}.${name}`, documents, {
    batchSize,
    singleBatch: optionalBoolean(body, 'singleBatch'),
    session: context.sessionKey,
  });
  return { cursor, ok: 1 };
};

export const getMore: CommandHandler = (context, _db, body) => {
  const collection = body['collection'];
  if (typeof collection !== 'string') throw new CommandError('TypeMismatch', "BSON field 'getMore.collection' is missing or not a string");
  return { cursor: context.cursors.more(body['getMore'], collection, nonNegative(body, 'batchSize')), ok: 1 };
};

export const killCursors: CommandHandler = (context, _db, body) => {
  collectionName(body, 'killCursors');
  const ids = body['cursors'];
  if (!Array.isArray(ids)) throw new CommandError('TypeMismatch', "BSON field 'killCursors.cursors' must be an array");
  return { ...context.cursors.kill(ids), ok: 1 };
};

export const aggregate: CommandHandler = (context, db, body) => {
  if (body['aggregate'] === 1) {
    throw new CommandError('CommandNotSupported', 'database-level aggregate ({aggregate: 1}) is not supported by the wire test server');
  }
  const name = collectionName(body, 'aggregate');
  const pipeline = documentArray(body, 'pipeline');
  if (body['explain'] !== undefined) throw new CommandError('CommandNotSupported', 'explain is not supported by the wire test server');
  const cursorOptions = optionalDocument(body, 'cursor');
  if (cursorOptions === undefined) {
    throw new CommandError('FailedToParse', "The 'cursor' option is required, except for aggregate with the explain argument");
  }
  for (const stage of pipeline) {
    const stageName = Object.keys(stage)[0];
    if (stageName === '$out' || stageName === '$merge') {
      throw new CommandError('CommandNotSupported', `${stageName} is not supported by the wire test server`);
    }
  }
  requireSimpleCollation(body);
  const results = runPipeline(sourceDocuments(context, db, name, pipeline), remainingStages(pipeline), {
    resolveCollection: (other) => (context.store.collection(db, other)?.documents ?? []).map(cloneDocument),
    variables: optionalDocument(body, 'let'),
  });
  const cursor = context.cursors.open(`${db}.${name}`, results, {
    batchSize: nonNegative(cursorOptions, 'batchSize'),
    session: context.sessionKey,
  });
  return { cursor, ok: 1 };
};

/**
 * Pipelines may modify their input, so they get clones; a leading $match
 * (countDocuments always starts with one) filters before cloning.
 */
function sourceDocuments(context: CommandContext, db: string, name: string, pipeline: Document[]): Document[] {
  const documents = context.store.collection(db, name)?.documents ?? [];
  const match = leadingMatch(pipeline);
  const selected = match === undefined ? documents : documents.filter(compileFilter(match));
  return selected.map(cloneDocument);
}

function remainingStages(pipeline: Document[]): Document[] {
  return leadingMatch(pipeline) === undefined ? pipeline : pipeline.slice(1);
}

function leadingMatch(pipeline: Document[]): Document | undefined {
  const first = pipeline[0];
  return first !== undefined && Object.keys(first).length === 1 ? optionalDocument(first, '$match') : undefined;
}

/** estimatedDocumentCount and legacy count. */
export const count: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'count');
  requireSimpleCollation(body);
  const documents = context.store.collection(db, name)?.documents ?? [];
  const matched = selectDocuments(documents, {
    filter: optionalDocument(body, 'query') ?? {},
    skip: nonNegative(body, 'skip'),
    // A negative count limit means the same as its absolute value.
    limit: Math.abs(optionalNumber(body, 'limit') ?? 0),
  });
  return { n: matched.length, ok: 1 };
};

export const distinct: CommandHandler = (context, db, body) => {
  const name = collectionName(body, 'distinct');
  const key = body['key'];
  if (typeof key !== 'string') throw new CommandError('TypeMismatch', "BSON field 'distinct.key' must be a string");
  requireSimpleCollation(body);
  const documents = selectDocuments(context.store.collection(db, name)?.documents ?? [], {
    filter: optionalDocument(body, 'query') ?? {},
  });
  const seen = new Set<string>();
  const values: unknown[] = [];
  for (const document of documents) {
    const value = valueAtPath(document, key);
    // Like MongoDB, an array contributes its elements.
    for (const element of Array.isArray(value) ? value : [value]) {
      if (element === undefined) continue;
      const encoded = Buffer.from(BSON.serialize({ v: element })).toString('base64');
      if (seen.has(encoded)) continue;
      seen.add(encoded);
      values.push(element);
    }
  }
  return { values, ok: 1 };
};

function nonNegative(body: Document, field: string): number | undefined {
  const value = optionalNumber(body, field);
  if (value !== undefined && value < 0) {
    throw new CommandError('BadValue', `BSON field '${field}' value must be >= 0, actual value '${value}'`);
  }
  return value;
}
