/**
 * Update semantics shared by `update` and `findAndModify`: operator updates,
 * replacements and pipeline updates; the `_id` immutability rule; and the
 * document an upsert inserts (query equalities + update, `$setOnInsert`
 * applied only then). mingo does the operator work, on clones.
 */
import { BSON, ObjectId, type Document } from 'mongodb';
import { CommandError } from './command-error.js';
import { applyUpdateOperators, cloneDocument, runPipeline } from './query-engine.js';

const UPDATE_OPERATORS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$rename',
  '$min',
  '$max',
  '$currentDate',
  '$addToSet',
  '$pop',
  '$pull',
  '$pullAll',
  '$push',
  '$bit',
  '$setOnInsert',
]);

const PIPELINE_UPDATE_STAGES = new Set(['$addFields', '$set', '$project', '$unset', '$replaceRoot', '$replaceWith']);

export type UpdateSpec =
  | { readonly kind: 'operators'; readonly modifier: Document }
  | { readonly kind: 'replacement'; readonly replacement: Document }
  | { readonly kind: 'pipeline'; readonly pipeline: Document[] };

export function isPlainDocument(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && (value.constructor === Object || value.constructor === undefined);
}

/** Classifies and validates the `u` of an update statement (or findAndModify's `update`). */
export function parseUpdate(u: unknown): UpdateSpec {
  if (Array.isArray(u)) {
    for (const stage of u) {
      const name = isPlainDocument(stage) ? Object.keys(stage)[0] : undefined;
      if (name === undefined || !PIPELINE_UPDATE_STAGES.has(name)) {
        throw new CommandError('InvalidOptions', `Invalid update pipeline stage: ${String(name)}`);
      }
    }
    return { kind: 'pipeline', pipeline: u as Document[] };
  }
  if (!isPlainDocument(u)) throw new CommandError('FailedToParse', 'Update argument must be either an object or an array');
  const keys = Object.keys(u);
  const operators = keys.filter((key) => key.startsWith('$'));
  if (operators.length === 0) return { kind: 'replacement', replacement: u };
  if (operators.length !== keys.length) {
    const field = keys.find((key) => !key.startsWith('$'));
    throw new CommandError(
      'FailedToParse',
      `Unknown modifier: ${String(field)}. Expected a valid update modifier or pipeline-style update specified as an array`,
    );
  }
  for (const operator of operators) {
    if (!UPDATE_OPERATORS.has(operator)) {
      throw new CommandError(
        'FailedToParse',
        `Unknown modifier: ${operator}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    if (!isPlainDocument(u[operator])) {
      throw new CommandError('FailedToParse', `Modifiers operate on fields but we found type ${typeof u[operator]} instead.`);
    }
  }
  return { kind: 'operators', modifier: u };
}

export interface UpdateContext {
  readonly query: Document;
  readonly arrayFilters?: Document[] | undefined;
}

/** The document after the update; `current` is left untouched. */
export function applyUpdate(current: Document, spec: UpdateSpec, context: UpdateContext): Document {
  const next = computeUpdate(current, spec, context, false);
  assertIdUnchanged(current, next);
  return next;
}

/**
 * The document an upsert inserts: the equality fields of the query, then the
 * update (with `$setOnInsert`); a replacement keeps only the query's `_id`.
 * A missing `_id` is generated.
 */
export function buildUpsertDocument(spec: UpdateSpec, context: UpdateContext): Document {
  const seed = equalitiesOf(context.query);
  let document: Document;
  if (spec.kind === 'replacement') {
    document = cloneDocument(spec.replacement);
    if (document['_id'] === undefined && seed['_id'] !== undefined) document['_id'] = seed['_id'];
  } else {
    document = computeUpdate(seed, spec, context, true);
  }
  if (document['_id'] === undefined) document['_id'] = new ObjectId();
  return withIdFirst(document);
}

function computeUpdate(current: Document, spec: UpdateSpec, context: UpdateContext, inserting: boolean): Document {
  switch (spec.kind) {
    case 'replacement': {
      const { _id: replacementId, ...fields } = cloneDocument(spec.replacement);
      return replacementId === undefined && current['_id'] !== undefined
        ? { _id: current['_id'], ...fields }
        : { _id: replacementId, ...fields };
    }
    case 'pipeline': {
      const [result] = runPipeline([cloneDocument(current)], spec.pipeline, { resolveCollection: () => [] });
      if (result === undefined) throw new CommandError('BadValue', 'update pipeline produced no document');
      return result;
    }
    case 'operators': {
      const target = cloneDocument(current);
      const modifier = effectiveModifier(spec.modifier, inserting);
      if (Object.keys(modifier).length > 0) applyUpdateOperators(target, modifier, context.arrayFilters, context.query);
      return target;
    }
  }
}

/** mingo does not know `$setOnInsert`: on insert it is a `$set`, otherwise dropped. */
function effectiveModifier(modifier: Document, inserting: boolean): Document {
  const { $setOnInsert: onInsert, ...rest } = modifier;
  if (!inserting || onInsert === undefined) return rest;
  return { ...rest, $set: { ...(rest['$set'] as Document | undefined), ...(onInsert as Document) } };
}

function assertIdUnchanged(before: Document, after: Document): void {
  if (before['_id'] === undefined) return;
  const same =
    after['_id'] !== undefined &&
    Buffer.from(BSON.serialize({ _id: before['_id'] })).equals(Buffer.from(BSON.serialize({ _id: after['_id'] })));
  if (!same) {
    throw new CommandError('ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
}

/** MongoDB stores `_id` as the first field whatever order the client used. */
export function withIdFirst(document: Document): Document {
  if (Object.keys(document)[0] === '_id' || document['_id'] === undefined) return document;
  const { _id, ...rest } = document;
  return { _id, ...rest };
}

/** Fields fixed by equality in a query (`{a: 1}`, `{a: {$eq: 1}}`, inside `$and`), as an upsert seeds them. */
function equalitiesOf(query: Document): Document {
  const seed: Document = {};
  for (const [key, value] of Object.entries(query)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const part of value) if (isPlainDocument(part)) mergeInto(seed, equalitiesOf(part));
    } else if (key.startsWith('$') || value instanceof RegExp) {
      continue;
    } else if (isPlainDocument(value) && Object.keys(value).some((name) => name.startsWith('$'))) {
      if ('$eq' in value) setPath(seed, key, value['$eq']);
    } else {
      setPath(seed, key, value);
    }
  }
  return cloneDocument(seed);
}

function mergeInto(target: Document, source: Document): void {
  for (const [key, value] of Object.entries(source)) setPath(target, key, value);
}

function setPath(target: Document, path: string, value: unknown): void {
  const segments = path.split('.');
  let node: Document = target;
  for (const segment of segments.slice(0, -1)) {
    const child = node[segment];
    if (!isPlainDocument(child)) node[segment] = {};
    node = node[segment] as Document;
  }
  node[segments[segments.length - 1] as string] = value;
}
