/**
 * Multi-document transactions with snapshot isolation, as MongoDB runs them
 * on a replica set (https://www.mongodb.com/docs/manual/core/transactions/).
 *
 * - Snapshot: a transaction sees the data as it was when it started, plus its
 *   own writes. Each collection it touches is copied on first touch; a
 *   collection the live store is about to change is copied first for every
 *   transaction that has not touched it yet, so the copy is always the
 *   starting state. Documents are immutable, so a copy shares them.
 * - Write conflicts: writing a document takes its lock. A transaction that
 *   writes a document locked by another transaction, or written (committed)
 *   by anyone after its snapshot, fails with WriteConflict (112) and the
 *   label TransientTransactionError, and is aborted, as MongoDB does.
 * - A write outside a transaction to a document a transaction holds waits
 *   until that transaction ends (committed, aborted, or expired), as on
 *   MongoDB. It is first tried on a scratch copy to find whether it would.
 * - Commit applies the transaction's writes to copies of the live
 *   collections and installs them together: all become visible at once, or,
 *   if one fails (a unique key taken meanwhile), none, and the commit answers
 *   WriteConflict with TransientTransactionError.
 * - Collections and indexes (MongoDB 4.4+): a transaction may create a
 *   collection that does not exist in its snapshot (`create`, or implicitly by
 *   a write or `createIndexes`), and indexes on a collection it created while
 *   that is still empty. Nobody else sees them until commit; abort drops
 *   them. If someone else created the collection meanwhile, the commit (or
 *   createIndexes) answers WriteConflict, as on MongoDB. The other cases are
 *   refused in command-dispatch.ts and admin-commands.ts.
 * - A transaction older than `transactionLifetimeLimitSeconds` is aborted and
 *   releases its locks.
 * - Simplification: documents are locked, unique index keys are not, so a key
 *   taken meanwhile by another writer fails this transaction at commit
 *   (WriteConflict) instead of making that writer wait.
 */
import type { Document } from 'mongodb';
import { CommandError } from './command-error.js';
import { MemoryCollection, type CollectionHooks, type MemoryStore, type StoreHooks, type StoreView } from './memory-store.js';

export const TRANSIENT_TRANSACTION_ERROR = 'TransientTransactionError';

/** A transaction lost a write conflict: the command fails (never a per-statement write error) and the transaction is aborted. */
export class WriteConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WriteConflictError';
  }

  toReply(): Document {
    return { ok: 0, errmsg: this.message, code: 112, codeName: 'WriteConflict', errorLabels: [TRANSIENT_TRANSACTION_ERROR] };
  }
}

/** A write outside a transaction hit a document a transaction holds: it waits for `until`. */
export class BlockedByTransaction extends Error {
  constructor(readonly until: Promise<void>) {
    super('blocked by a transaction');
  }
}

type TransactionState = 'inProgress' | 'committed' | 'aborted';

const namespaceOf = (database: string, name: string): string => `${database}.${name}`;
const lockKey = (collection: MemoryCollection, idKey: string): string => `${collection.namespace}\u0000${idKey}`;

export class Transaction implements StoreView {
  state: TransactionState = 'inProgress';
  /** Why it was aborted (for NoSuchTransaction's message). */
  abortReason = '';
  /** The reply of a successful commit, answered again to a retried commitTransaction. */
  commitReply: Document | undefined;
  /** Namespace → this transaction's copy (null: the collection did not exist at the snapshot). */
  readonly snapshots = new Map<string, MemoryCollection | null>();
  /** Namespace → id keys of the documents this transaction wrote. */
  readonly written = new Map<string, Set<string>>();
  /** Namespaces this transaction created (explicitly or implicitly): they did not exist in its snapshot. */
  readonly created = new Set<string>();
  /** The transaction's readConcern level, as its first command (startTransaction) gave it; undefined: the default (local). */
  readConcernLevel: string | undefined;
  readonly #hooks: CollectionHooks;

  constructor(
    readonly registry: TransactionRegistry,
    readonly txnNumber: bigint,
    readonly startedAt: number,
    readonly snapshotSequence: number,
    /** A scratch run of a write outside any transaction: it only finds out whether it would wait on a lock. */
    readonly scratch = false,
  ) {
    this.#hooks = {
      beforeChange: () => undefined,
      beforeWrite: (collection, idKey) => (scratch ? registry.checkUnlocked(collection, idKey) : registry.lock(this, collection, idKey)),
    };
  }

  get active(): boolean {
    return this.state === 'inProgress' && !this.scratch;
  }

  /** Keeps `existing` (the live collection about to change) as this transaction's snapshot, if it has none yet. */
  preserve(namespace: string, existing: MemoryCollection | undefined): void {
    if (!this.snapshots.has(namespace)) this.snapshots.set(namespace, existing === undefined ? null : existing.clone(this.#hooks));
  }

  collection(database: string, name: string): MemoryCollection | undefined {
    const namespace = namespaceOf(database, name);
    if (!this.snapshots.has(namespace)) this.preserve(namespace, this.registry.store.collection(database, name));
    return this.snapshots.get(namespace) ?? undefined;
  }

  ensureCollection(database: string, name: string, options: Document = {}): { collection: MemoryCollection; created: boolean } {
    const existing = this.collection(database, name);
    if (existing !== undefined) return { collection: existing, created: false };
    const collection = new MemoryCollection(database, name, options, this.#hooks);
    this.snapshots.set(namespaceOf(database, name), collection);
    this.written.set(collection.namespace, this.written.get(collection.namespace) ?? new Set());
    this.created.add(collection.namespace);
    return { collection, created: true };
  }

  dropCollection(): MemoryCollection | undefined {
    throw notInTransaction('drop');
  }

  dropDatabase(): void {
    throw notInTransaction('dropDatabase');
  }

  collections(): MemoryCollection[] {
    throw notInTransaction('listCollections');
  }

  databaseNames(): string[] {
    throw notInTransaction('listDatabases');
  }

  recordWrite(collection: MemoryCollection, idKey: string): void {
    let ids = this.written.get(collection.namespace);
    if (ids === undefined) {
      ids = new Set();
      this.written.set(collection.namespace, ids);
    }
    ids.add(idKey);
  }
}

function notInTransaction(command: string): CommandError {
  return new CommandError('OperationNotSupportedInTransaction', `Cannot run '${command}' in a multi-document transaction.`);
}

/** The server's transactions, document locks and commit sequence. */
export class TransactionRegistry {
  readonly #active = new Set<Transaction>();
  /** `namespace \0 idKey` → the transaction holding the document. */
  readonly #locks = new Map<string, Transaction>();
  /** `namespace \0 idKey` → the sequence number of its last committed write (kept only while transactions are active). */
  readonly #lastWrite = new Map<string, number>();
  #sequence = 0;
  #waiters: Array<() => void> = [];

  constructor(readonly store: MemoryStore) {
    const collectionHooks: CollectionHooks = {
      beforeChange: (collection) => this.#preserve(collection.namespace, collection),
      beforeWrite: (collection, idKey) => {
        if (this.#active.size > 0) this.#lastWrite.set(lockKey(collection, idKey), ++this.#sequence);
      },
    };
    const storeHooks: StoreHooks = {
      collectionHooks,
      beforeNamespaceChange: (database, name, existing) => this.#preserve(namespaceOf(database, name), existing),
    };
    store.hooks = storeHooks;
  }

  get activeCount(): number {
    return this.#active.size;
  }

  get hasLocks(): boolean {
    return this.#locks.size > 0;
  }

  begin(txnNumber: bigint, now: number): Transaction {
    const transaction = new Transaction(this, txnNumber, now, this.#sequence);
    this.#active.add(transaction);
    return transaction;
  }

  /** A scratch view for trying a write outside a transaction (see BlockedByTransaction). */
  scratch(): Transaction {
    return new Transaction(this, -1n, 0, this.#sequence, true);
  }

  lock(transaction: Transaction, collection: MemoryCollection, idKey: string): void {
    const key = lockKey(collection, idKey);
    const holder = this.#locks.get(key);
    const conflict = (holder !== undefined && holder !== transaction) || (this.#lastWrite.get(key) ?? -1) > transaction.snapshotSequence;
    if (conflict) {
      throw new WriteConflictError(
        'Caused by :: Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
      );
    }
    this.#locks.set(key, transaction);
    transaction.recordWrite(collection, idKey);
  }

  checkUnlocked(collection: MemoryCollection, idKey: string): void {
    const holder = this.#locks.get(lockKey(collection, idKey));
    if (holder !== undefined) throw new BlockedByTransaction(this.#nextEnd());
  }

  /** Applies the transaction's writes to the live store, all or none. */
  commit(transaction: Transaction): void {
    for (const namespace of transaction.created) {
      const own = transaction.snapshots.get(namespace);
      if (own !== undefined && own !== null && this.store.collection(own.database, own.name) !== undefined) {
        this.abort(transaction, `commit failed: ${namespace} was created meanwhile`);
        throw new WriteConflictError(
          `Write conflict at commit: collection ${namespace} was created by another operation after this transaction started`,
        );
      }
    }
    const installs: MemoryCollection[] = [];
    try {
      for (const [namespace, ids] of transaction.written) {
        const own = transaction.snapshots.get(namespace);
        if (own === undefined || own === null) continue;
        const live = this.store.collection(own.database, own.name);
        if (live === undefined) {
          installs.push(own.clone(undefined));
          continue;
        }
        const next = live.clone(undefined);
        const ownById = own.byIdKey();
        const liveById = next.byIdKey();
        for (const id of ids) {
          const mine = ownById.get(id);
          const theirs = liveById.get(id);
          if (mine !== undefined && theirs !== undefined) next.replace(theirs, mine);
          else if (mine !== undefined) next.insert(mine);
          else if (theirs !== undefined) next.remove(theirs);
        }
        installs.push(next);
      }
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      this.abort(transaction, `commit failed: ${error.message}`);
      throw new WriteConflictError(`Write conflict at commit: ${error.message}`);
    }
    for (const collection of installs) this.store.install(collection);
    for (const [namespace, ids] of transaction.written) {
      for (const id of ids) this.#lastWrite.set(`${namespace}\u0000${id}`, ++this.#sequence);
    }
    this.#end(transaction, 'committed');
  }

  abort(transaction: Transaction, reason: string): void {
    if (transaction.state !== 'inProgress') return;
    transaction.abortReason = reason;
    this.#end(transaction, 'aborted');
  }

  /** Aborts every transaction older than `limitMs` at `now`; answers how many. */
  expire(now: number, limitMs: number): number {
    let expired = 0;
    for (const transaction of [...this.#active]) {
      if (now - transaction.startedAt >= limitMs) {
        this.abort(transaction, 'it exceeded transactionLifetimeLimitSeconds');
        expired += 1;
      }
    }
    return expired;
  }

  clear(): void {
    for (const transaction of [...this.#active]) this.abort(transaction, 'the server was reset');
    this.#lastWrite.clear();
  }

  #end(transaction: Transaction, state: TransactionState): void {
    transaction.state = state;
    this.#active.delete(transaction);
    for (const [key, holder] of this.#locks) if (holder === transaction) this.#locks.delete(key);
    transaction.snapshots.clear();
    if (this.#active.size === 0) this.#lastWrite.clear();
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  #nextEnd(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #preserve(namespace: string, existing: MemoryCollection | undefined): void {
    for (const transaction of this.#active) transaction.preserve(namespace, existing);
  }
}
