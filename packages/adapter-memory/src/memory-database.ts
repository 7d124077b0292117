/**
 * The memory store's records, with transactions at MongoDB's isolation level
 * (docs/decisions/transactions.md): snapshot isolation with first-writer-wins, per record.
 *
 * - A transaction reads the records as they were committed when it began (its
 *   snapshot), plus its own writes.
 * - The first transaction to write a record holds it until it commits or
 *   aborts: a second transaction writing the same record gets `writeConflict`
 *   at once, and so does one writing a record committed after its snapshot
 *   (MongoDB's WriteConflict, code 112). Commit checks the same again.
 * - Transactions are NOT run one at a time: two of them that only READ what
 *   the other writes both commit (write skew), exactly as on MongoDB; the use
 *   cases close that by writing what their decision depends on (the owner bump).
 * - Outside a transaction (a session with no `tx`), a read sees the latest
 *   commit and a write commits on its own at once.
 *
 * Records are kept in tables, each partitioned (by owning user, client…) with
 * the records of a partition in insertion order. Ids come from sequences that
 * are not transactional (taken outside the transaction, as on mongo), so a
 * record is inserted in ascending id order and a partition stays sorted by id.
 * Each record keeps the versions an open snapshot may still read.
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  writeConflict,
  type StoreError,
  type Id,
  type AccountId,
  type ClientId,
  type CreditScoreId,
  type EventId,
  type PaymentPlanId,
  type PlanPaymentId,
  type TokenId,
  type UserId,
  type WebhookDeliveryId,
  type WebhookEndpointId,
} from '@debtkit/core';

interface Version<V> {
  /** `undefined`: deleted. */
  readonly value: V | undefined;
  readonly seq: number;
  older: Version<V> | undefined;
}

/** One record's history and who holds it. */
interface Entry<V> {
  /** Newest committed version first; `undefined`: inserted by a transaction not yet committed. */
  head: Version<V> | undefined;
  lock: MemoryTransaction | undefined;
  /** Drop this entry from its partition (when it holds nothing any snapshot can see). */
  readonly drop: () => void;
}

/** A transaction's own state: its snapshot and the records it wrote. */
export class MemoryTransaction {
  readonly writes = new Map<Entry<unknown>, { readonly value: unknown }>();
  /** Run, in order, once its writes are visible (an index of committed records follows them). */
  readonly afterCommit: Array<() => void> = [];
  open = true;
  constructor(readonly snapshot: number) {}
}

/** What a repository reads and writes through: the database, and the transaction (none: each call on its own). */
export interface MemorySession {
  readonly db: MemoryDatabase;
  readonly tx: MemoryTransaction | undefined;
}

const LATEST = Number.POSITIVE_INFINITY;

export class MemoryDatabase {
  /** The sequence number of the last commit. */
  private seq = 0;
  private readonly active = new Set<MemoryTransaction>();
  private readonly tables = new Map<string, MemoryTable<unknown, unknown, unknown>>();
  private readonly sequences = new Map<string, IdSequence>();
  /** Records keeping older versions for an open snapshot: trimmed once no transaction is open. */
  private readonly withHistory = new Set<Entry<unknown>>();

  /** The session outside any transaction. */
  readonly autocommit: MemorySession = { db: this, tx: undefined };

  /** The table named `name` (one per name and database). */
  table<P, K, V>(name: string): MemoryTable<P, K, V> {
    let found = this.tables.get(name);
    if (found === undefined) {
      found = new MemoryTable<unknown, unknown, unknown>(this);
      this.tables.set(name, found);
    }
    return found as MemoryTable<P, K, V>;
  }

  /** The id sequence named `name`, minting ids of its kind: not transactional, an id taken by an aborted transaction is skipped. */
  ids<N extends keyof SequenceKinds>(name: N): IdSequence<SequenceKinds[N]> {
    let found = this.sequences.get(name);
    if (found === undefined) {
      found = new IdSequence();
      this.sequences.set(name, found);
    }
    return found as IdSequence<SequenceKinds[N]>;
  }

  begin(): MemoryTransaction {
    const tx = new MemoryTransaction(this.seq);
    this.active.add(tx);
    return tx;
  }

  /** All of `tx`'s writes become visible at once, or none (`writeConflict` when another commit wrote one of its records since its snapshot). */
  commit(tx: MemoryTransaction): E.Either<StoreError, void> {
    if (!tx.open) return E.left(writeConflict('The transaction has ended'));
    for (const entry of tx.writes.keys()) {
      if (entry.head !== undefined && entry.head.seq > tx.snapshot) {
        this.abort(tx);
        return E.left(writeConflict());
      }
    }
    const seq = ++this.seq;
    this.end(tx);
    const horizon = this.oldestSnapshot();
    for (const [entry, write] of tx.writes) this.install(entry, write.value, seq, horizon);
    for (const then of tx.afterCommit) then();
    return E.right(undefined);
  }

  /** `then` once what `s` wrote so far is committed: at once outside a transaction, at its commit inside one (never if it aborts). */
  onCommit(s: MemorySession, then: () => void): void {
    if (s.tx === undefined) then();
    else s.tx.afterCommit.push(then);
  }

  private readonly singletons = new Map<string, unknown>();

  /** The one `T` named `name` in this database (an index a repository of every session shares). */
  shared<T>(name: string, make: () => T): T {
    if (!this.singletons.has(name)) this.singletons.set(name, make());
    return this.singletons.get(name) as T;
  }

  abort(tx: MemoryTransaction): void {
    if (!tx.open) return;
    this.end(tx);
    for (const entry of tx.writes.keys()) if (entry.head === undefined) entry.drop();
  }

  /** @internal A write outside any transaction: committed at once. */
  commitOne<V>(entry: Entry<V>, value: V | undefined): void {
    this.install(entry, value, ++this.seq, this.oldestSnapshot());
  }

  private end(tx: MemoryTransaction): void {
    tx.open = false;
    this.active.delete(tx);
    for (const entry of tx.writes.keys()) if (entry.lock === tx) entry.lock = undefined;
    if (this.active.size === 0 && this.withHistory.size > 0) {
      for (const entry of this.withHistory) {
        if (entry.head !== undefined) entry.head.older = undefined;
        if (entry.head?.value === undefined && entry.lock === undefined && entry.head !== undefined) entry.drop();
      }
      this.withHistory.clear();
    }
  }

  private install<V>(entry: Entry<V>, value: V | undefined, seq: number, horizon: number): void {
    entry.head = { value, seq, older: entry.head };
    // Keep the versions an open snapshot can still read: down to the newest at or before the oldest snapshot.
    let v: Version<V> = entry.head;
    while (v.seq > horizon && v.older !== undefined) v = v.older;
    v.older = undefined;
    if (entry.head.older !== undefined) this.withHistory.add(entry as Entry<unknown>);
    else if (entry.head.value === undefined && entry.lock === undefined) entry.drop();
  }

  private oldestSnapshot(): number {
    let oldest = this.seq;
    for (const tx of this.active) if (tx.snapshot < oldest) oldest = tx.snapshot;
    return oldest;
  }
}

/**
 * The id sequences and the kind of id each mints (docs/decisions/ids.md); audit
 * events' ids have no kind (nothing takes one as an argument).
 */
export interface SequenceKinds {
  readonly accounts: AccountId;
  readonly audit_events: Id;
  readonly clients: ClientId;
  readonly creditScores: CreditScoreId;
  readonly events: EventId;
  readonly paymentPlans: PaymentPlanId;
  readonly planPayments: PlanPaymentId;
  readonly tokens: TokenId;
  readonly users: UserId;
  readonly webhookDeliveries: WebhookDeliveryId;
  readonly webhookEndpoints: WebhookEndpointId;
}

/**
 * Ascending ids for one collection, starting at 1 and never reused (docs/decisions/api-conventions.md),
 * of the collection's kind `A`. The memory store's one unchecked step of the
 * id kinds (here and in `MemoryDatabase.ids`, which hands out the sequence of
 * a name with the kind `SequenceKinds` gives it).
 */
export class IdSequence<A extends Id = Id> {
  private last = 0;

  next(): A {
    this.last += 1;
    // A counter from 1 upwards is a valid Id by construction; decoding it on every insert would be wasted work.
    return this.last as A;
  }
}

/**
 * Records of one kind, partition → key → record. Every method takes the session
 * it runs in; writes answer `Left(writeConflict)` when a transaction loses (first writer wins).
 */
export class MemoryTable<P, K, V> {
  private readonly partitions = new Map<P, Map<K, Entry<V>>>();

  constructor(private readonly db: MemoryDatabase) {}

  get(s: MemorySession, partition: P, key: K): V | undefined {
    const entry = this.partitions.get(partition)?.get(key);
    return entry === undefined ? undefined : visible(s, entry);
  }

  /** The partition's records the session sees, in insertion (= id) order. */
  *values(s: MemorySession, partition: P): IterableIterator<V> {
    const entries = this.partitions.get(partition);
    if (entries === undefined) return;
    for (const entry of entries.values()) {
      const value = visible(s, entry);
      if (value !== undefined) yield value;
    }
  }

  /** The partition's keys and records the session sees, in insertion order. */
  *entries(s: MemorySession, partition: P): IterableIterator<[K, V]> {
    const entries = this.partitions.get(partition);
    if (entries === undefined) return;
    for (const [key, entry] of entries) {
      const value = visible(s, entry);
      if (value !== undefined) yield [key, value];
    }
  }

  /**
   * Like `values`, but stops at the first record inserted by a transaction that
   * has not committed yet: a reader paging by id never skips a record that
   * commits late (the visible-sequence horizon, docs/decisions/transactions.md).
   */
  *committedPrefix(s: MemorySession, partition: P): IterableIterator<V> {
    const entries = this.partitions.get(partition);
    if (entries === undefined) return;
    for (const entry of entries.values()) {
      if (entry.head === undefined && entry.lock !== undefined && entry.lock !== s.tx) return;
      const value = visible(s, entry);
      if (value !== undefined) yield value;
    }
  }

  /** How many records of the partition the session sees. */
  count(s: MemorySession, partition: P): number {
    let n = 0;
    for (const _ of this.values(s, partition)) n += 1;
    return n;
  }

  /**
   * Retention, as a TTL monitor does it (outside any transaction): delete the
   * partition's records from its front, in insertion order, while `expired` holds;
   * the first record it does not hold for ends the scan. For records that expire
   * in about their insertion order (events, audit records), a write then costs the
   * records it drops, not every record kept.
   */
  dropExpiredFront(partition: P, expired: (value: V) => boolean): void {
    const outside = this.db.autocommit;
    const keys: K[] = [];
    for (const [key, value] of this.entries(outside, partition)) {
      if (!expired(value)) break;
      keys.push(key);
    }
    for (const key of keys) this.delete(outside, partition, key);
  }

  /** The partitions that hold any entry (for scans across owners). */
  partitionKeys(): IterableIterator<P> {
    return this.partitions.keys();
  }

  set(s: MemorySession, partition: P, key: K, value: V): E.Either<StoreError, void> {
    return this.write(s, partition, key, value);
  }

  /** Delete the record; `Right(false)` when the session sees none. */
  delete(s: MemorySession, partition: P, key: K): E.Either<StoreError, boolean> {
    if (this.get(s, partition, key) === undefined) return E.right(false);
    const done = this.write(s, partition, key, undefined);
    return E.isLeft(done) ? done : E.right(true);
  }

  /** Delete every record of the partition the session sees; the count. */
  deleteAll(s: MemorySession, partition: P): E.Either<StoreError, number> {
    const entries = this.partitions.get(partition);
    if (entries === undefined) return E.right(0);
    let count = 0;
    for (const [key, entry] of [...entries]) {
      if (visible(s, entry) === undefined) continue;
      const done = this.write(s, partition, key, undefined);
      if (E.isLeft(done)) return done;
      count += 1;
    }
    return E.right(count);
  }

  private write(s: MemorySession, partition: P, key: K, value: V | undefined): E.Either<StoreError, void> {
    let entries = this.partitions.get(partition);
    if (entries === undefined) {
      entries = new Map();
      this.partitions.set(partition, entries);
    }
    let entry = entries.get(key);
    if (entry === undefined) {
      const owner = entries;
      entry = {
        head: undefined,
        lock: undefined,
        drop: () => {
          owner.delete(key);
          if (owner.size === 0 && this.partitions.get(partition) === owner) this.partitions.delete(partition);
        },
      };
      entries.set(key, entry);
    }
    const { tx } = s;
    if (tx === undefined) {
      this.db.commitOne(entry, value);
      return E.right(undefined);
    }
    if (!tx.open) return E.left(writeConflict('The transaction has ended'));
    // First writer wins: a record held by another open transaction, or committed after this snapshot, is lost.
    if ((entry.lock !== undefined && entry.lock !== tx) || (entry.head !== undefined && entry.head.seq > tx.snapshot)) {
      if (entry.head === undefined && entry.lock === undefined) entry.drop();
      return E.left(writeConflict());
    }
    entry.lock = tx;
    tx.writes.set(entry as Entry<unknown>, { value });
    return E.right(undefined);
  }
}

/** The record as the session sees it: its own write, else the newest version of its snapshot. */
const visible = <V>(s: MemorySession, entry: Entry<V>): V | undefined => {
  const { tx } = s;
  if (tx !== undefined) {
    const own = tx.writes.get(entry as Entry<unknown>);
    if (own !== undefined) return own.value as V | undefined;
  }
  const at = tx === undefined ? LATEST : tx.snapshot;
  let v = entry.head;
  while (v !== undefined && v.seq > at) v = v.older;
  return v?.value;
};
