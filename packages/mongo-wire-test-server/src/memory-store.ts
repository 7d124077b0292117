/**
 * In-memory databases → collections → documents, with index specs and unique
 * key enforcement.
 *
 * Stored documents are never mutated: an update stores a new object. Open
 * cursors therefore keep a stable snapshot without copying.
 *
 * Unique indexes: compound keys, `sparse` and `partialFilterExpression` are
 * honoured; a missing field counts as null (as in MongoDB). Array values are
 * compared as whole values (no multikey expansion), a known simplification.
 *
 * TTL indexes (a single-field index with `expireAfterSeconds`) behave as the
 * MongoDB manual describes: `expire(now)` — what the server's TTL monitor does
 * every 60 s — removes a document when its indexed field is a date (for an
 * array, its earliest date) and that date plus `expireAfterSeconds` is before
 * `now`; a document whose field is missing or holds no date never expires.
 */
import { BSON, ObjectId, type Document } from 'mongodb';
import { CommandError } from './command-error.js';
import { isPlainDocument } from './document-update.js';
import { compileFilter, type DocumentPredicate } from './query-engine.js';

export interface IndexDescription extends Document {
  readonly v: 2;
  readonly key: Document;
  readonly name: string;
}

const ID_INDEX: IndexDescription = { v: 2, key: { _id: 1 }, name: '_id_' };

interface UniqueIndex {
  readonly description: IndexDescription;
  readonly fields: readonly string[];
  readonly appliesTo: DocumentPredicate;
  /** Encoded key → the document holding it. */
  readonly entries: Map<string, Document>;
}

/**
 * Told before a collection changes (transactions.ts uses it to keep snapshots
 * and take document locks). `idKey` names the document written (see {@link idKeyOf}).
 */
export interface CollectionHooks {
  beforeChange(collection: MemoryCollection): void;
  beforeWrite(collection: MemoryCollection, idKey: string): void;
}

export class MemoryCollection {
  #documents: Document[] = [];
  #indexes: IndexDescription[] = [ID_INDEX];
  #unique = new Map<string, UniqueIndex>();

  constructor(
    readonly database: string,
    readonly name: string,
    readonly options: Document,
    public hooks: CollectionHooks | undefined = undefined,
  ) {
    this.#unique.set(ID_INDEX.name, uniqueIndex(ID_INDEX));
  }

  /** An independent copy (documents are immutable, so they are shared), with its own hooks. */
  clone(hooks: CollectionHooks | undefined): MemoryCollection {
    const copy = new MemoryCollection(this.database, this.name, this.options, hooks);
    copy.#documents = [...this.#documents];
    copy.#indexes = [...this.#indexes];
    copy.#unique = new Map([...this.#unique].map(([name, index]) => [name, { ...index, entries: new Map(index.entries) }]));
    return copy;
  }

  /** Documents by their id key (see {@link idKeyOf}). */
  byIdKey(): Map<string, Document> {
    return new Map(this.#documents.map((document) => [idKeyOf(document), document]));
  }

  get namespace(): string {
    return `${this.database}.${this.name}`;
  }

  /** Natural (insertion) order. */
  get documents(): readonly Document[] {
    return this.#documents;
  }

  get indexes(): readonly IndexDescription[] {
    return this.#indexes;
  }

  /** Throws a DuplicateKey CommandError when a unique index already holds the key. */
  insert(document: Document): void {
    this.#beforeWrite(document);
    const keys = this.#claimKeys(document, undefined);
    this.#documents.push(document);
    this.#commitKeys(document, keys, undefined);
  }

  /** Swaps `current` for `next` (same slot); unique keys are checked against every other document. */
  replace(current: Document, next: Document): void {
    const slot = this.#documents.indexOf(current);
    if (slot < 0) throw new Error('replace: document is not stored in this collection');
    this.#beforeWrite(current);
    const keys = this.#claimKeys(next, current);
    this.#documents[slot] = next;
    this.#commitKeys(next, keys, current);
  }

  remove(document: Document): void {
    if (!this.#documents.includes(document)) return;
    this.#beforeWrite(document);
    this.#documents.splice(this.#documents.indexOf(document), 1);
    for (const index of this.#unique.values()) {
      const key = keyOf(index, document);
      if (key !== undefined && index.entries.get(key) === document) index.entries.delete(key);
    }
  }

  /**
   * Adds an index; `false` when an identical one exists. Conflicts answer as a
   * real server does (85/86); existing duplicates fail a unique build with 11000.
   */
  createIndex(requested: Document): boolean {
    const description = normaliseIndex(requested);
    if (this.#identicalIndex(description)) return false;
    this.hooks?.beforeChange(this);
    if (description['unique'] === true) {
      const index = uniqueIndex(description);
      for (const document of this.#documents) {
        const key = keyOf(index, document);
        if (key === undefined) continue;
        if (index.entries.has(key)) throw duplicateKey(this.namespace, index, document);
        index.entries.set(key, document);
      }
      this.#unique.set(description.name, index);
    }
    this.#indexes.push(description);
    return true;
  }

  /**
   * Whether an index identical to `requested` exists (createIndex would be a
   * no-op), without changing anything; a conflicting one throws as createIndex does.
   */
  hasIndex(requested: Document): boolean {
    return this.#identicalIndex(normaliseIndex(requested));
  }

  /** true: an identical index exists; false: none by that name or key; a conflicting one throws (85/86). */
  #identicalIndex(description: IndexDescription): boolean {
    const sameName = this.#indexes.find((index) => index.name === description.name);
    if (sameName !== undefined) {
      if (!sameBsonValue(sameName.key, description.key)) {
        throw new CommandError(
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index. Requested index: ${describe(description)}, existing index: ${describe(sameName)}`,
        );
      }
      if (!sameOptions(sameName, description)) {
        throw new CommandError(
          'IndexOptionsConflict',
          `An equivalent index already exists with the same name but different options. Requested index: ${describe(description)}, existing index: ${describe(sameName)}`,
        );
      }
      return true;
    }
    const sameKey = this.#indexes.find((index) => sameBsonValue(index.key, description.key) && sameOptions(index, description));
    if (sameKey !== undefined) {
      throw new CommandError('IndexOptionsConflict', `Index already exists with a different name: ${sameKey.name}`);
    }
    return false;
  }

  /** The TTL monitor's pass: remove every document that has expired at `now`; answers how many. */
  expire(now: Date): number {
    let removed = 0;
    for (const index of this.#indexes) {
      const seconds = index['expireAfterSeconds'];
      if (typeof seconds !== 'number') continue;
      const [field] = Object.keys(index.key);
      if (field === undefined) continue;
      const cutoff = now.getTime() - seconds * 1000;
      for (const document of [...this.#documents]) {
        const value = valueAtPath(document, field);
        const dates = (Array.isArray(value) ? value : [value]).filter((v): v is Date => v instanceof Date);
        if (dates.length === 0) continue;
        if (Math.min(...dates.map((d) => d.getTime())) < cutoff) {
          this.remove(document);
          removed += 1;
        }
      }
    }
    return removed;
  }

  /** Drops by name; `_id_` cannot be dropped. */
  dropIndex(name: string): void {
    if (name === ID_INDEX.name) throw new CommandError('InvalidOptions', 'cannot drop _id index');
    const slot = this.#indexes.findIndex((index) => index.name === name);
    if (slot < 0) throw new CommandError('IndexNotFound', `index not found with name [${name}]`);
    this.hooks?.beforeChange(this);
    this.#indexes.splice(slot, 1);
    this.#unique.delete(name);
  }

  findIndexByKey(key: Document): IndexDescription | undefined {
    return this.#indexes.find((index) => sameBsonValue(index.key, key));
  }

  #beforeWrite(document: Document): void {
    if (this.hooks === undefined) return;
    this.hooks.beforeChange(this);
    this.hooks.beforeWrite(this, idKeyOf(document));
  }

  /** Encoded keys `document` would take in each unique index, after checking none is taken by another document. */
  #claimKeys(document: Document, replacing: Document | undefined): Map<UniqueIndex, string> {
    const keys = new Map<UniqueIndex, string>();
    for (const index of this.#unique.values()) {
      const key = keyOf(index, document);
      if (key === undefined) continue;
      const holder = index.entries.get(key);
      if (holder !== undefined && holder !== replacing) throw duplicateKey(this.namespace, index, document);
      keys.set(index, key);
    }
    return keys;
  }

  #commitKeys(document: Document, keys: Map<UniqueIndex, string>, replaced: Document | undefined): void {
    for (const index of this.#unique.values()) {
      if (replaced !== undefined) {
        const old = keyOf(index, replaced);
        if (old !== undefined && index.entries.get(old) === replaced) index.entries.delete(old);
      }
      const key = keys.get(index);
      if (key !== undefined) index.entries.set(key, document);
    }
  }
}

/** Told before the store adds, drops or swaps a collection (transactions.ts keeps snapshots with it). */
export interface StoreHooks {
  /** `existing`: the collection as it is before the change (undefined: it does not exist yet). */
  beforeNamespaceChange(database: string, name: string, existing: MemoryCollection | undefined): void;
  /** The hooks every collection of this store gets. */
  readonly collectionHooks: CollectionHooks;
}

/** What command handlers read and write through: the live store, or a transaction's view of it. */
export interface StoreView {
  collection(database: string, name: string): MemoryCollection | undefined;
  ensureCollection(database: string, name: string, options?: Document): { collection: MemoryCollection; created: boolean };
  dropCollection(database: string, name: string): MemoryCollection | undefined;
  dropDatabase(database: string): void;
  collections(database: string): MemoryCollection[];
  databaseNames(): string[];
}

export class MemoryStore implements StoreView {
  readonly #databases = new Map<string, Map<string, MemoryCollection>>();
  hooks: StoreHooks | undefined;

  /** Puts `collection` in place of the namespace's current one (a transaction's commit). */
  install(collection: MemoryCollection): void {
    const existing = this.collection(collection.database, collection.name);
    this.hooks?.beforeNamespaceChange(collection.database, collection.name, existing);
    collection.hooks = this.hooks?.collectionHooks;
    let collections = this.#databases.get(collection.database);
    if (collections === undefined) {
      collections = new Map();
      this.#databases.set(collection.database, collections);
    }
    collections.set(collection.name, collection);
  }

  collection(database: string, name: string): MemoryCollection | undefined {
    return this.#databases.get(database)?.get(name);
  }

  /** Collections are created implicitly by the first write or index, as in MongoDB. */
  ensureCollection(database: string, name: string, options: Document = {}): { collection: MemoryCollection; created: boolean } {
    let collections = this.#databases.get(database);
    if (collections === undefined) {
      collections = new Map();
      this.#databases.set(database, collections);
    }
    const existing = collections.get(name);
    if (existing !== undefined) return { collection: existing, created: false };
    this.hooks?.beforeNamespaceChange(database, name, undefined);
    const collection = new MemoryCollection(database, name, options, this.hooks?.collectionHooks);
    collections.set(name, collection);
    return { collection, created: true };
  }

  dropCollection(database: string, name: string): MemoryCollection | undefined {
    const collections = this.#databases.get(database);
    const existing = collections?.get(name);
    if (existing !== undefined) this.hooks?.beforeNamespaceChange(database, name, existing);
    collections?.delete(name);
    if (collections !== undefined && collections.size === 0) this.#databases.delete(database);
    return existing;
  }

  dropDatabase(database: string): void {
    for (const collection of this.collections(database)) this.hooks?.beforeNamespaceChange(database, collection.name, collection);
    this.#databases.delete(database);
  }

  collections(database: string): MemoryCollection[] {
    return [...(this.#databases.get(database)?.values() ?? [])];
  }

  databaseNames(): string[] {
    return [...this.#databases.keys()];
  }

  clear(): void {
    for (const database of this.databaseNames()) this.dropDatabase(database);
  }

  /** One pass of the TTL monitor over every collection; answers how many documents it removed. */
  expire(now: Date): number {
    let removed = 0;
    for (const collections of this.#databases.values()) for (const collection of collections.values()) removed += collection.expire(now);
    return removed;
  }
}

function uniqueIndex(description: IndexDescription): UniqueIndex {
  const partial = description['partialFilterExpression'];
  const filter = isPlainDocument(partial) ? compileFilter(partial) : undefined;
  const sparse = description['sparse'] === true;
  const fields = Object.keys(description.key);
  const appliesTo: DocumentPredicate = (document) => {
    if (sparse && fields.every((field) => valueAtPath(document, field) === undefined)) return false;
    return filter === undefined || filter(document);
  };
  return { description, fields, appliesTo, entries: new Map() };
}

/** A document's identity as a string: its `_id`'s BSON encoding. */
export function idKeyOf(document: Document): string {
  return Buffer.from(BSON.serialize({ k: document['_id'] ?? null })).toString('base64');
}

function keyOf(index: UniqueIndex, document: Document): string | undefined {
  if (!index.appliesTo(document)) return undefined;
  const values = index.fields.map((field) => valueAtPath(document, field) ?? null);
  return Buffer.from(BSON.serialize({ k: values })).toString('base64');
}

/** Value at a dotted path (numeric segments index arrays); undefined when missing. */
export function valueAtPath(document: Document, path: string): unknown {
  let node: unknown = document;
  for (const segment of path.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(segment)) node = node[Number(segment)];
    else if (typeof node === 'object' && node !== null && !Array.isArray(node)) node = (node as Document)[segment];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

function duplicateKey(namespace: string, index: UniqueIndex, document: Document): CommandError {
  const keyValue: Document = {};
  for (const field of index.fields) keyValue[field] = valueAtPath(document, field) ?? null;
  const shown = index.fields.map((field) => `${field}: ${formatValue(keyValue[field])}`).join(', ');
  return new CommandError(
    'DuplicateKey',
    `E11000 duplicate key error collection: ${namespace} index: ${index.description.name} dup key: { ${shown} }`,
    { keyPattern: index.description.key, keyValue },
  );
}

function formatValue(value: unknown): string {
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`;
  return BSON.EJSON.stringify(value as Document, { relaxed: true });
}

function normaliseIndex(requested: Document): IndexDescription {
  const key = requested['key'];
  if (!isPlainDocument(key) || Object.keys(key).length === 0) {
    throw new CommandError('BadValue', "The 'key' field of an index specification must be a non-empty object");
  }
  const name =
    typeof requested['name'] === 'string' && requested['name'] !== ''
      ? requested['name']
      : Object.entries(key)
          .map(([field, direction]) => `${field}_${String(direction)}`)
          .join('_');
  const { key: _key, name: _name, v: _v, ...options } = requested;
  if (options['expireAfterSeconds'] !== undefined) checkTtl(key, options['expireAfterSeconds']);
  return { v: 2, key, name, ...options };
}

/** What MongoDB refuses in a TTL index: a compound key, the `_id` key, a value out of range. */
function checkTtl(key: Document, expireAfterSeconds: unknown): void {
  const fields = Object.keys(key);
  if (fields.length !== 1)
    throw new CommandError('CannotCreateIndex', 'TTL indexes are single-field indexes, compound indexes do not support TTL');
  if (fields[0] === '_id')
    throw new CommandError('InvalidIndexSpecificationOption', "The field 'expireAfterSeconds' is not valid for an _id index specification");
  const value = typeof expireAfterSeconds === 'number' ? expireAfterSeconds : Number.NaN;
  if (!Number.isFinite(value) || value < 0 || value > 2_147_483_647) {
    throw new CommandError(
      'InvalidOptions',
      "TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number",
    );
  }
}

function sameOptions(a: IndexDescription, b: IndexDescription): boolean {
  const options = (index: IndexDescription): Document => ({
    unique: index['unique'] === true,
    sparse: index['sparse'] === true,
    partialFilterExpression: index['partialFilterExpression'] ?? null,
    expireAfterSeconds: index['expireAfterSeconds'] ?? null,
  });
  return sameBsonValue(options(a), options(b));
}

function sameBsonValue(a: Document, b: Document): boolean {
  return Buffer.from(BSON.serialize(a)).equals(Buffer.from(BSON.serialize(b)));
}

function describe(index: IndexDescription): string {
  return BSON.EJSON.stringify(index, { relaxed: true });
}
