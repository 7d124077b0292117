/**
 * A subset runner of MongoDB's unified test format
 * (source/unified-test-format/unified-test-format.md in mongodb/specifications):
 * the entities, operations and matchers that the transactions,
 * transactions-convenient-api, retryable-writes and crud unified tests use,
 * run through the real `mongodb` driver against the wire test server.
 * Anything else a test asks for makes it fail loudly (never pass silently).
 */
import { expect } from 'chai';
import {
  BSON,
  Binary,
  ClientSession,
  Collection,
  Db,
  Decimal128,
  Double,
  Int32,
  Long,
  MongoClient,
  MongoServerError,
  ObjectId,
  Timestamp,
  type CommandFailedEvent,
  type CommandStartedEvent,
  type CommandSucceededEvent,
  type Document,
} from 'mongodb';
import type { WireServer } from '../../src/index.js';
import { SERVER_VERSION } from '../../src/index.js';

export interface UnifiedFile {
  readonly description: string;
  readonly schemaVersion: string;
  readonly runOnRequirements?: Document[];
  readonly createEntities?: Document[];
  readonly initialData?: Document[];
  readonly tests: UnifiedTest[];
}

export interface UnifiedTest {
  readonly description: string;
  readonly runOnRequirements?: Document[];
  readonly skipReason?: string;
  readonly operations: Document[];
  readonly expectEvents?: Document[];
  readonly outcome?: Document[];
}

/** Why a test cannot run here (requirements this server does not meet); undefined: it runs. */
export function unmetRequirement(requirements: Document[] | undefined): string | undefined {
  if (requirements === undefined || requirements.length === 0) return undefined;
  const reasons = requirements.map(requirementGap);
  return reasons.includes(undefined) ? undefined : reasons.join('; ');
}

function requirementGap(requirement: Document): string | undefined {
  if (requirement['minServerVersion'] !== undefined && compareVersions(SERVER_VERSION, requirement['minServerVersion']) < 0) {
    return `needs server >= ${requirement['minServerVersion']} (this one is ${SERVER_VERSION})`;
  }
  if (requirement['maxServerVersion'] !== undefined && compareVersions(SERVER_VERSION, requirement['maxServerVersion']) > 0) {
    return `needs server <= ${requirement['maxServerVersion']} (this one is ${SERVER_VERSION})`;
  }
  const topologies = requirement['topologies'] as string[] | undefined;
  if (topologies !== undefined && !topologies.includes('replicaset') && !topologies.includes('single'))
    return `needs topology ${topologies.join('/')}`;
  if (requirement['serverless'] === 'require') return 'needs serverless';
  if (requirement['auth'] === true) return 'needs auth';
  if (requirement['csfle'] === true) return 'needs client-side encryption';
  if (requirement['serverParameters'] !== undefined) return `needs server parameters ${JSON.stringify(requirement['serverParameters'])}`;
  return undefined;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

type Entity = MongoClient | Db | Collection | ClientSession | unknown;

interface ClientEntity {
  readonly client: MongoClient;
  readonly events: Array<{ type: string; event: CommandStartedEvent | CommandSucceededEvent | CommandFailedEvent }>;
}

/** Thrown for something this runner does not implement: the test fails with the name of it. */
export class Unsupported extends Error {}

export class UnifiedRun {
  readonly #entities = new Map<string, Entity>();
  readonly #clients = new Map<string, ClientEntity>();
  readonly #sessionLsids = new Map<string, Document>();
  /** Fail points this test configured: turned off after it, as the format requires. */
  readonly #failPoints = new Set<string>();

  constructor(
    readonly server: WireServer,
    readonly internal: MongoClient,
  ) {}

  /**
   * After a test, as the format requires: its sessions ended, its clients
   * closed, and every fail point it set turned off (a failure to turn one off
   * throws: a later test would meet it).
   */
  async close(): Promise<void> {
    for (const entity of this.#entities.values()) if (entity instanceof ClientSession) await entity.endSession().catch(() => undefined);
    for (const { client } of this.#clients.values()) await client.close().catch(() => undefined);
    for (const name of this.#failPoints) await this.internal.db('admin').command({ configureFailPoint: name, mode: 'off' });
    this.#failPoints.clear();
  }

  async setUp(file: UnifiedFile): Promise<void> {
    for (const data of file.initialData ?? []) {
      const db = this.internal.db(data['databaseName']);
      await db
        .collection(data['collectionName'])
        .drop()
        .catch(() => undefined);
      await db.createCollection(data['collectionName'], data['createOptions'] ?? {});
      const documents = data['documents'] as Document[];
      if (documents.length > 0) await db.collection(data['collectionName']).insertMany(documents);
    }
    await this.createEntities(file.createEntities ?? []);
  }

  async createEntities(entities: Document[]): Promise<void> {
    for (const wrapper of entities) {
      const [kind, spec] = Object.entries(wrapper)[0] as [string, Document];
      const id = spec['id'] as string;
      if (kind === 'client') {
        const uriOptions: Document = spec['uriOptions'] ?? {};
        const query = Object.entries(uriOptions)
          .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
          .join('&');
        const client = new MongoClient(`${this.server.url}${query === '' ? '' : `?${query}`}`, {
          monitorCommands: true,
          serverSelectionTimeoutMS: 1000,
          heartbeatFrequencyMS: 500,
        });
        const observe = new Set<string>(spec['observeEvents'] ?? []);
        const ignored = new Set<string>(['configureFailPoint', ...(spec['ignoreCommandMonitoringEvents'] ?? [])]);
        const events: ClientEntity['events'] = [];
        const record = (type: string) => (event: CommandStartedEvent | CommandSucceededEvent | CommandFailedEvent) => {
          if (observe.has(type) && !ignored.has(event.commandName) && !SENSITIVE.has(event.commandName)) events.push({ type, event });
        };
        client.on('commandStarted', record('commandStartedEvent'));
        client.on('commandSucceeded', record('commandSucceededEvent'));
        client.on('commandFailed', record('commandFailedEvent'));
        await client.connect();
        this.#clients.set(id, { client, events });
        this.#entities.set(id, client);
      } else if (kind === 'database') {
        const client = this.#entity<MongoClient>(spec['client']);
        this.#entities.set(id, client.db(spec['databaseName'], spec['databaseOptions']));
      } else if (kind === 'collection') {
        const db = this.#entity<Db>(spec['database']);
        this.#entities.set(id, db.collection(spec['collectionName'], spec['collectionOptions']));
      } else if (kind === 'session') {
        const client = this.#entity<MongoClient>(spec['client']);
        const session = client.startSession(spec['sessionOptions'] ?? {});
        this.#entities.set(id, session);
        this.#sessionLsids.set(id, session.id as Document);
      } else {
        throw new Unsupported(`entity type ${kind}`);
      }
    }
  }

  #entity<T>(id: unknown): T {
    if (typeof id !== 'string' || !this.#entities.has(id)) throw new Error(`no entity ${String(id)}`);
    return this.#entities.get(id) as T;
  }

  async runOperations(operations: Document[], inCallback = false): Promise<void> {
    for (const operation of operations) await this.runOperation(operation, inCallback);
  }

  /** In a withTransaction callback, an expected error is still thrown on to the driver (as the format's runners do). */
  async runOperation(operation: Document, inCallback = false): Promise<void> {
    let result: unknown;
    let error: unknown;
    try {
      result = await this.#execute(operation);
    } catch (caught) {
      if (caught instanceof Unsupported || caught instanceof chaiAssertionError) throw caught;
      error = caught;
    }
    if (operation['ignoreResultAndError'] === true) return;
    const expectError = operation['expectError'] as Document | undefined;
    if (expectError !== undefined) {
      if (error === undefined) expect.fail(`${operation['name']}: expected an error, got ${BSON.EJSON.stringify(result as Document)}`);
      this.#matchError(expectError, error);
      if (inCallback) throw error;
      return;
    }
    if (error !== undefined) throw error;
    if (operation['expectResult'] !== undefined)
      matches(operation['expectResult'], result, true, this.#sessionLsids, `${operation['name']} result`, this.#entities);
    if (typeof operation['saveResultAsEntity'] === 'string') this.#entities.set(operation['saveResultAsEntity'], result);
  }

  #matchError(expected: Document, error: unknown): void {
    const e = error as MongoServerError;
    const fromServer = error instanceof MongoServerError || (error as Error).name === 'MongoNetworkError';
    if (expected['isClientError'] === true) expect(fromServer, `expected a client error, got ${e.name}: ${e.message}`).to.equal(false);
    if (expected['isClientError'] === false) expect(fromServer, `expected a server error, got ${e.name}: ${e.message}`).to.equal(true);
    if (expected['errorContains'] !== undefined)
      expect(e.message.toLowerCase()).to.contain(String(expected['errorContains']).toLowerCase());
    if (expected['errorCode'] !== undefined) expect(e.code, e.message).to.equal(expected['errorCode']);
    if (expected['errorCodeName'] !== undefined) expect(e.codeName, e.message).to.equal(expected['errorCodeName']);
    for (const label of (expected['errorLabelsContain'] as string[] | undefined) ?? [])
      expect(e.hasErrorLabel?.(label), `label ${label} on ${e.message}`).to.equal(true);
    for (const label of (expected['errorLabelsOmit'] as string[] | undefined) ?? [])
      expect(e.hasErrorLabel?.(label) ?? false, `no label ${label} on ${e.message}`).to.equal(false);
    if (expected['expectResult'] !== undefined) {
      const partial =
        (e as unknown as { result?: unknown; partialResult?: unknown }).result ??
        (e as unknown as { partialResult?: unknown }).partialResult;
      matches(expected['expectResult'], plainResult(partial), true, this.#sessionLsids, 'error result', this.#entities);
    }
    if (expected['errorResponse'] !== undefined)
      matches(
        expected['errorResponse'],
        (e as unknown as { errorResponse?: Document }).errorResponse ?? e,
        true,
        this.#sessionLsids,
        'errorResponse',
        this.#entities,
      );
  }

  async #execute(operation: Document): Promise<unknown> {
    const name = operation['name'] as string;
    const args: Document = { ...(operation['arguments'] ?? {}) };
    const target = operation['object'] as string;
    // The test runner's own operations name their session entity by id.
    if (target === 'testRunner') return this.#testRunner(name, args);
    if (typeof args['session'] === 'string') args['session'] = this.#entity<ClientSession>(args['session']);
    const object = this.#entity<Entity>(target);
    if (object instanceof ClientSession) return this.#sessionOperation(object, name, args);
    if (object instanceof Collection) return this.#collectionOperation(object, name, args);
    if (object instanceof Db) return this.#databaseOperation(object, name, args);
    if (object instanceof MongoClient) return this.#clientOperation(object, name, args);
    throw new Unsupported(`operation ${name} on ${target}`);
  }

  async #collectionOperation(collection: Collection, name: string, args: Document): Promise<unknown> {
    const { filter, document, documents, update, replacement, pipeline, requests, fieldName, keys, ...options } = args;
    // The format spells the enum 'Before'/'After'; the driver takes 'before'/'after'.
    if (typeof options['returnDocument'] === 'string') options['returnDocument'] = options['returnDocument'].toLowerCase();
    switch (name) {
      case 'insertOne':
        return plainResult(await collection.insertOne(document, options));
      case 'insertMany':
        return plainResult(await collection.insertMany(documents, options));
      case 'updateOne':
        return plainResult(await collection.updateOne(filter, update, options));
      case 'updateMany':
        return plainResult(await collection.updateMany(filter, update, options));
      case 'replaceOne':
        return plainResult(await collection.replaceOne(filter, replacement, options));
      case 'deleteOne':
        return plainResult(await collection.deleteOne(filter, options));
      case 'deleteMany':
        return plainResult(await collection.deleteMany(filter, options));
      case 'find':
        return collection.find(filter ?? {}, options).toArray();
      case 'findOne':
        return collection.findOne(filter ?? {}, options);
      case 'findOneAndUpdate':
        return collection.findOneAndUpdate(filter, update, options);
      case 'findOneAndReplace':
        return collection.findOneAndReplace(filter, replacement, options);
      case 'findOneAndDelete':
        return collection.findOneAndDelete(filter, options);
      case 'countDocuments':
        return collection.countDocuments(filter ?? {}, options);
      case 'count':
        return collection.count(filter ?? {}, options);
      case 'estimatedDocumentCount':
        return collection.estimatedDocumentCount(options);
      case 'distinct':
        return collection.distinct(fieldName, filter ?? {}, options);
      case 'aggregate':
        return collection.aggregate(pipeline, options).toArray();
      case 'bulkWrite':
        return plainResult(await collection.bulkWrite(requests, options));
      case 'createIndex':
        return collection.createIndex(keys, options);
      case 'listIndexes':
        return collection.listIndexes(options).toArray();
      default:
        throw new Unsupported(`collection operation ${name}`);
    }
  }

  async #databaseOperation(db: Db, name: string, args: Document): Promise<unknown> {
    const { collection, command, commandName: _commandName, filter, ...options } = args;
    switch (name) {
      case 'runCommand':
        return db.command(command, options);
      case 'createCollection':
        await db.createCollection(collection, options);
        return undefined;
      case 'dropCollection':
        await db.dropCollection(collection, options).catch((error: MongoServerError) => {
          if (error.code !== 26) throw error;
        });
        return undefined;
      case 'aggregate':
        return db.aggregate(args['pipeline'], options).toArray();
      case 'listCollections':
        return db.listCollections(filter ?? {}, options).toArray();
      default:
        throw new Unsupported(`database operation ${name}`);
    }
  }

  async #clientOperation(client: MongoClient, name: string, args: Document): Promise<unknown> {
    switch (name) {
      case 'listDatabases': {
        const { filter, ...options } = args;
        return client
          .db('admin')
          .admin()
          .listDatabases({ ...options, ...(filter === undefined ? {} : { filter }) });
      }
      default:
        throw new Unsupported(`client operation ${name}`);
    }
  }

  async #sessionOperation(session: ClientSession, name: string, args: Document): Promise<unknown> {
    switch (name) {
      case 'startTransaction':
        session.startTransaction(args);
        return undefined;
      case 'commitTransaction':
        await session.commitTransaction();
        return undefined;
      case 'abortTransaction':
        await session.abortTransaction();
        return undefined;
      case 'endSession':
        await session.endSession();
        return undefined;
      case 'withTransaction': {
        const { callback, ...options } = args;
        await session.withTransaction(() => this.runOperations(callback as Document[], true), options);
        return undefined;
      }
      default:
        throw new Unsupported(`session operation ${name}`);
    }
  }

  async #testRunner(name: string, args: Document): Promise<unknown> {
    switch (name) {
      case 'createEntities':
        await this.createEntities(args['entities']);
        return undefined;
      case 'failPoint':
      case 'targetedFailPoint':
        this.#failPoints.add(String(args['failPoint']['configureFailPoint']));
        await this.internal.db('admin').command(args['failPoint']);
        return undefined;
      case 'assertSessionTransactionState': {
        const session = this.#entity<ClientSession>(args['session']);
        const state = (session as unknown as { transaction: { state: string } }).transaction.state;
        const expected: Record<string, string> = {
          none: 'NO_TRANSACTION',
          starting: 'STARTING_TRANSACTION',
          in_progress: 'TRANSACTION_IN_PROGRESS',
          committed: 'TRANSACTION_COMMITTED',
          aborted: 'TRANSACTION_ABORTED',
        };
        expect(state).to.equal(expected[args['state']]);
        return undefined;
      }
      case 'assertSessionDirty':
      case 'assertSessionNotDirty': {
        // The driver marks a session dirty after a network error in it, and then discards its server session.
        const session = this.#entity<ClientSession>(args['session']);
        const dirty = (session as unknown as { serverSession?: { isDirty?: boolean } }).serverSession?.isDirty ?? false;
        expect(dirty, `session ${String(args['session'])} dirty`).to.equal(name === 'assertSessionDirty');
        return undefined;
      }
      case 'assertSessionPinned':
        throw new Unsupported('session pinning (mongos only)');
      case 'assertSessionUnpinned':
        // A replica set never pins a session to a server.
        return undefined;
      case 'assertCollectionExists':
      case 'assertCollectionNotExists': {
        const names = (await this.internal.db(args['databaseName']).listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
        expect(names.includes(args['collectionName']), `${args['databaseName']}.${args['collectionName']}`).to.equal(
          name === 'assertCollectionExists',
        );
        return undefined;
      }
      case 'assertIndexExists':
      case 'assertIndexNotExists': {
        const indexes = await this.internal
          .db(args['databaseName'])
          .collection(args['collectionName'])
          .listIndexes()
          .toArray()
          .catch(() => []);
        expect(indexes.some((index) => index['name'] === args['indexName'])).to.equal(name === 'assertIndexExists');
        return undefined;
      }
      case 'assertDifferentLsidOnLastTwoCommands':
      case 'assertSameLsidOnLastTwoCommands': {
        const started = this.#clients.get(args['client'])?.events.filter((e) => e.type === 'commandStartedEvent') ?? [];
        const [a, b] = started
          .slice(-2)
          .map((e) => Buffer.from(BSON.serialize({ l: (e.event as CommandStartedEvent).command['lsid'] })).toString('hex'));
        expect(a === b).to.equal(name === 'assertSameLsidOnLastTwoCommands');
        return undefined;
      }
      default:
        throw new Unsupported(`testRunner operation ${name}`);
    }
  }

  checkEvents(expected: Document[] | undefined): void {
    for (const block of expected ?? []) {
      if ((block['eventType'] ?? 'command') !== 'command') throw new Unsupported(`${block['eventType']} events`);
      const recorded = this.#clients.get(block['client'])?.events ?? [];
      const wanted = block['events'] as Document[];
      if (block['ignoreExtraEvents'] === true) expect(recorded.length, 'events').to.be.at.least(wanted.length);
      else
        expect(
          recorded.map((r) => r.event.commandName),
          'commands observed',
        ).to.have.length(wanted.length);
      wanted.forEach((want, index) => {
        const [type, spec] = Object.entries(want)[0] as [string, Document];
        const actual = recorded[index];
        expect(actual?.type, `event ${index}`).to.equal(type);
        const event = actual?.event as CommandStartedEvent & CommandSucceededEvent;
        if (spec['commandName'] !== undefined) expect(event.commandName, `event ${index} commandName`).to.equal(spec['commandName']);
        if (spec['databaseName'] !== undefined) expect(event.databaseName, `event ${index} databaseName`).to.equal(spec['databaseName']);
        if (spec['command'] !== undefined)
          matches(
            spec['command'],
            event.command,
            true,
            this.#sessionLsids,
            `event ${index} (${event.commandName}) command`,
            this.#entities,
          );
        if (spec['reply'] !== undefined)
          matches(spec['reply'], event.reply, true, this.#sessionLsids, `event ${index} reply`, this.#entities);
      });
    }
  }

  async checkOutcome(outcome: Document[] | undefined): Promise<void> {
    for (const expected of outcome ?? []) {
      const documents = await this.internal
        .db(expected['databaseName'])
        .collection(expected['collectionName'])
        .find({})
        .sort({ _id: 1 })
        .toArray();
      matches(expected['documents'], documents, false, this.#sessionLsids, `outcome ${expected['collectionName']}`, this.#entities);
    }
  }
}

const chaiAssertionError = (() => {
  try {
    expect.fail('probe');
  } catch (error) {
    return (error as Error).constructor as new () => Error;
  }
  return Error;
})();

/** Commands the unified format never observes (security-sensitive, handshake). */
const SENSITIVE = new Set([
  'hello',
  'isMaster',
  'ismaster',
  'saslStart',
  'saslContinue',
  'authenticate',
  'getnonce',
  'createUser',
  'updateUser',
  'copydbgetnonce',
  'copydbsaslstart',
  'copydb',
]);

/** Driver results as plain documents (BulkWriteResult keeps its counts behind getters). */
function plainResult(result: unknown): unknown {
  if (result === null || typeof result !== 'object') return result;
  const r = result as Document;
  if ('insertedCount' in r && 'matchedCount' in r && 'upsertedIds' in r) {
    return {
      insertedCount: r['insertedCount'],
      matchedCount: r['matchedCount'],
      modifiedCount: r['modifiedCount'],
      deletedCount: r['deletedCount'],
      upsertedCount: r['upsertedCount'],
      upsertedIds: r['upsertedIds'],
      insertedIds: r['insertedIds'],
    };
  }
  return { ...r };
}

function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Long) return value.toNumber();
  if (value instanceof Int32 || value instanceof Double) return value.valueOf();
  if (value instanceof Decimal128) return Number(value.toString());
  return undefined;
}

function typeOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (typeof value === 'boolean') return ['bool'];
  if (typeof value === 'string') return ['string'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['int', 'long', 'double', 'number'] : ['double', 'number'];
  if (value instanceof Long || typeof value === 'bigint') return ['long', 'number'];
  if (value instanceof Int32) return ['int', 'number'];
  if (value instanceof Double) return ['double', 'number'];
  if (value instanceof Decimal128) return ['decimal', 'number'];
  if (value instanceof ObjectId) return ['objectId'];
  if (value instanceof Date) return ['date'];
  if (value instanceof Binary) return ['binData'];
  if (value instanceof Timestamp) return ['timestamp'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'object') return ['object'];
  return [typeof value];
}

function isDocument(value: unknown): value is Document {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    numeric(value) === undefined &&
    !(value instanceof ObjectId) &&
    !(value instanceof Date) &&
    !(value instanceof Binary) &&
    !(value instanceof Timestamp)
  );
}

function bytesOf(value: unknown): string {
  return Buffer.from(BSON.serialize({ v: value })).toString('hex');
}

/** The unified format's "Evaluating Matches": extra fields are allowed only at the root. */
export function matches(
  expected: unknown,
  actual: unknown,
  root: boolean,
  lsids: Map<string, Document>,
  path: string,
  entities: Map<string, unknown>,
): void {
  // The driver sends some documents as a Map to keep their key order (createIndexes' `key`): compare it as the document it is.
  if (actual instanceof Map) actual = Object.fromEntries(actual);
  if (isDocument(expected)) {
    const keys = Object.keys(expected);
    const operator = keys.length === 1 && keys[0]?.startsWith('$$') ? keys[0] : undefined;
    if (operator !== undefined) {
      const operand = expected[operator];
      switch (operator) {
        case '$$unsetOrMatches':
          if (actual !== undefined) matches(operand, actual, root, lsids, path, entities);
          return;
        case '$$exists':
          expect(actual !== undefined, `${path} exists`).to.equal(operand);
          return;
        case '$$type': {
          const types = Array.isArray(operand) ? operand : [operand];
          expect(
            typeOf(actual).some((t) => types.includes(t)),
            `${path} type ${typeOf(actual).join('/')} in ${types.join('/')}`,
          ).to.equal(true);
          return;
        }
        case '$$sessionLsid': {
          const lsid = lsids.get(operand);
          expect(lsid, `session ${operand}`).not.to.equal(undefined);
          expect(bytesOf(actual), `${path} is the lsid of ${operand}`).to.equal(bytesOf(lsid));
          return;
        }
        case '$$matchesEntity':
          matches(entities.get(operand), actual, root, lsids, path, entities);
          return;
        case '$$lte':
          expect(numeric(actual), path).to.be.at.most(operand);
          return;
        case '$$matchAsDocument':
          matches(operand, typeof actual === 'string' ? BSON.EJSON.parse(actual) : actual, false, lsids, path, entities);
          return;
        case '$$matchAsRoot':
          matches(operand, actual, true, lsids, path, entities);
          return;
        default:
          throw new Unsupported(`matcher ${operator}`);
      }
    }
    expect(isDocument(actual), `${path} is a document (got ${String(actual)})`).to.equal(true);
    const actualDocument = actual as Document;
    for (const key of keys) {
      const want = expected[key];
      if (isDocument(want) && Object.keys(want).length === 1 && '$$exists' in want) {
        expect(actualDocument[key] !== undefined, `${path}.${key} exists`).to.equal(want['$$exists']);
        continue;
      }
      if (isDocument(want) && Object.keys(want).length === 1 && '$$unsetOrMatches' in want && actualDocument[key] === undefined) continue;
      expect(key in actualDocument || actualDocument[key] !== undefined, `${path}.${key} present`).to.equal(true);
      matches(want, actualDocument[key], false, lsids, `${path}.${key}`, entities);
    }
    if (!root) {
      const extra = Object.keys(actualDocument).filter((key) => !keys.includes(key) && actualDocument[key] !== undefined);
      expect(extra, `${path}: no extra fields`).to.deep.equal([]);
    }
    return;
  }
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), `${path} is an array`).to.equal(true);
    const list = actual as unknown[];
    expect(list.length, `${path} length`).to.equal(expected.length);
    expected.forEach((item, index) => matches(item, list[index], false, lsids, `${path}[${index}]`, entities));
    return;
  }
  const expectedNumber = numeric(expected);
  if (expectedNumber !== undefined) {
    expect(numeric(actual), path).to.equal(expectedNumber);
    return;
  }
  if (expected === null || typeof expected !== 'object') {
    expect(actual, path).to.equal(expected);
    return;
  }
  expect(bytesOf(actual), path).to.equal(bytesOf(expected));
}
