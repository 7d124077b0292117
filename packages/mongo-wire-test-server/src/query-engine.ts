/**
 * The one place that talks to mingo. Every call turns mingo's exceptions (bad
 * operator, wrong operand type) into a BadValue CommandError, as a real server
 * answers a malformed query, instead of an InternalError.
 *
 * mingo never receives stored documents where it could mutate them: callers
 * clone before updates and pipelines (see {@link cloneDocument}).
 */
import { Query, aggregate, find, update } from 'mingo';
import type { Options as MingoOptions } from 'mingo/types';
import { BSON, type Document } from 'mongodb';
import { CommandError } from './command-error.js';

// Mingo's internal option object; only the fields we set are relevant.
type EngineOptions = Partial<MingoOptions>;

/** Client-sent JavaScript ($where, $function, $accumulator) is never run. */
const BASE_OPTIONS: EngineOptions = { scriptEnabled: false };

/**
 * mingo's updater refuses every update path on its idKey, but MongoDB allows
 * `$set` of `_id` to its current value and `$setOnInsert: { _id }` on upsert.
 * In updates idKey only drives that guard, so it is pointed at a field no
 * document has; document-update.ts enforces `_id` immutability itself.
 */
const UPDATE_OPTIONS: EngineOptions = { ...BASE_OPTIONS, idKey: '\u0000wire-test-server:no-id-guard' };

function engine<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw new CommandError('BadValue', `${what}: ${(error as Error).message}`);
  }
}

/** A deep copy that keeps BSON types (ObjectId, Date, Binary, Decimal128...). */
export function cloneDocument(document: Document): Document {
  return BSON.deserialize(BSON.serialize(document));
}

/** Byte equality of the BSON encodings: how "was the document modified" is decided. */
export function sameBson(a: Document, b: Document): boolean {
  return Buffer.from(BSON.serialize(a)).equals(Buffer.from(BSON.serialize(b)));
}

export type DocumentPredicate = (document: Document) => boolean;

export function compileFilter(filter: Document): DocumentPredicate {
  const query = engine('filter', () => new Query(filter, BASE_OPTIONS));
  return (document) => engine('filter', () => query.test(document));
}

export interface SelectSpec {
  readonly filter: Document;
  readonly sort?: Document | undefined;
  readonly skip?: number | undefined;
  readonly limit?: number | undefined;
  readonly projection?: Document | undefined;
  readonly variables?: Document | undefined;
}

/**
 * Filter, sort, skip, limit and project, in MongoDB's order. Without a sort the
 * result keeps the natural (insertion) order; `$natural: -1` reverses it.
 */
export function selectDocuments(documents: readonly Document[], spec: SelectSpec): Document[] {
  return engine('query', () => {
    const options = { ...BASE_OPTIONS, ...(spec.variables ? { variables: spec.variables } : {}) };
    const { sort, reverse } = splitNaturalSort(spec.sort);
    const source = reverse ? [...documents].reverse() : [...documents];
    const cursor = find(source, spec.filter, spec.projection ?? {}, options);
    if (sort !== undefined) cursor.sort(sort as Record<string, 1 | -1>);
    if (spec.skip !== undefined && spec.skip > 0) cursor.skip(spec.skip);
    if (spec.limit !== undefined && spec.limit > 0) cursor.limit(spec.limit);
    return cursor.all() as Document[];
  });
}

/** Projects one document (findAndModify's `fields`). */
export function projectDocument(document: Document, projection: Document | undefined): Document {
  if (projection === undefined || Object.keys(projection).length === 0) return document;
  return engine('projection', () => find([document], {}, projection, BASE_OPTIONS).all()[0] as Document);
}

function splitNaturalSort(sort: Document | undefined): { sort: Document | undefined; reverse: boolean } {
  if (sort === undefined) return { sort: undefined, reverse: false };
  const { $natural: natural, ...rest } = sort;
  return {
    sort: Object.keys(rest).length > 0 ? rest : undefined,
    reverse: natural === -1,
  };
}

export interface PipelineSpec {
  /** Documents of another collection of the same database, for $lookup / $unionWith / $graphLookup. */
  readonly resolveCollection: (name: string) => Document[];
  readonly variables?: Document | undefined;
}

/** Runs an aggregation pipeline over documents the caller has already cloned. */
export function runPipeline(documents: Document[], pipeline: Document[], spec: PipelineSpec): Document[] {
  return engine(
    'pipeline',
    () =>
      aggregate(documents, pipeline, {
        ...BASE_OPTIONS,
        collectionResolver: spec.resolveCollection,
        ...(spec.variables ? { variables: spec.variables } : {}),
      }) as Document[],
  );
}

/**
 * Applies update operators in place to `target` (a clone). `condition` is the
 * statement's query, which the positional `$` operator needs.
 */
export function applyUpdateOperators(
  target: Document,
  modifier: Document,
  arrayFilters: Document[] | undefined,
  condition: Document,
): void {
  engine('update', () => {
    update(target, modifier, arrayFilters, condition, { cloneMode: 'deep', queryOptions: UPDATE_OPTIONS });
  });
}
