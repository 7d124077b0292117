/**
 * What every contract suite shares: the store factory it is parameterised by,
 * a fresh store per test, and assertions that run a TaskEither.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError, ErrorTag } from '../shared/errors.js';
import type { StorePorts } from '../shared/unit-of-work.js';

/** Makes a new, empty store. Called once per test. */
export type StoreFactory = () => Promise<StorePorts>;

/** A contract suite over a store: registers its `describe` blocks. */
export type StoreContract = (name: string, makeStore: StoreFactory, opts: StoreContractOptions) => void;

/**
 * A feature's contract suites (docs/adding-a-resource.md): the suite of each store port in `Ports` (its
 * manifest's `storePorts`), so a port of the feature does not compile without one, and the suites over
 * the store as a whole it brings (`storeWide`: the demo seed). Exported by the feature's `testing.ts`
 * as `<feature>Contracts` (camel case: `creditScoresContracts`); `runStoreContracts` runs every one.
 */
export interface FeatureContracts<Ports> {
  readonly ports: { readonly [K in keyof Ports]: StoreContract };
  readonly storeWide?: ReadonlyArray<StoreContract>;
}

export interface StoreContractOptions {
  /** Runs after each test, before `close()` (e.g. drop the test database). */
  readonly cleanup?: (store: StorePorts) => Promise<void>;
  /**
   * Holds the store's next write of an event or a webhook delivery (the insert,
   * after its id was taken) until `release()`, so that the event and delivery
   * contracts can make a later append land first. Leave it out for a store that
   * takes the id and stores the record in one step (memory): there those cases
   * run without the overtaking, which cannot happen. Answers undefined where the
   * adapter has such a window but the test cannot hold it (a real MongoDB): the
   * cases are skipped.
   */
  readonly holdNextWrite?: (of: 'event' | 'delivery') => WriteHold | undefined;
  /**
   * Write a webhook endpoint straight into `store` as an older release stored
   * it (no repository code in between), to prove that what is stored still
   * decodes after a record gained fields (docs/decisions/tenancy.md's `disabled_reason`).
   */
  readonly writeStoredEndpoint?: (store: StorePorts, record: Readonly<Record<string, unknown>>) => Promise<void>;
  /**
   * Store a token record of the shape written before tokens had `expires_at`
   * (docs/operations.md, round 4) straight into the store, bypassing the repository, so
   * the token contract can check that it still reads and works. Every store
   * that can hold records from an older release passes one.
   */
  readonly writeLegacyToken?: (store: StorePorts, record: LegacyTokenRecord) => Promise<void>;
}

/** A token record as stored before `expires_at` existed. */
export interface LegacyTokenRecord {
  readonly id: number;
  readonly client_id: number;
  readonly hash: string;
  readonly created_at: string;
  readonly revoked_at: string | null;
}

export interface WriteHold {
  /** Resolves once the write has reached the store and is being held. */
  readonly held: Promise<void>;
  /** Let the held write go on. */
  release(): void;
}

/**
 * Register `beforeEach`/`afterEach` hooks in the calling `describe` that give
 * each test a fresh store and close it afterwards. Returns the accessor for the
 * current test's store.
 */
export const useFreshStore = (makeStore: StoreFactory, opts: StoreContractOptions = {}): (() => StorePorts) => {
  let current: StorePorts | undefined;
  beforeEach(async () => {
    current = await makeStore();
  });
  afterEach(async () => {
    const store = current;
    current = undefined;
    if (store === undefined) return;
    try {
      if (opts.cleanup !== undefined) await opts.cleanup(store);
    } finally {
      await store.close();
    }
  });
  return () => {
    if (current === undefined) throw new Error('no store: the accessor was used outside a test');
    return current;
  };
};

/**
 * Run a TaskEither. A rejected promise fails the test with a clear message:
 * adapters must return `Left` for recoverable errors, never throw.
 */
export const run = async <A>(task: TE.TaskEither<DomainError, A>): Promise<E.Either<DomainError, A>> => {
  try {
    return await task();
  } catch (e) {
    throw new Error(`the TaskEither rejected instead of returning a Left: ${e instanceof Error ? e.message : String(e)}`);
  }
};

/** Run the task, assert `Right`, return its value. */
export const expectRight = async <A>(task: TE.TaskEither<DomainError, A>): Promise<A> => {
  const r = await run(task);
  if (E.isLeft(r)) expect.fail(`expected Right, got Left ${JSON.stringify(r.left)}`);
  return r.right;
};

/** Run the task, assert `Left` (with `tag` when given), return the error. */
export const expectLeft = async <A>(task: TE.TaskEither<DomainError, A>, tag?: ErrorTag): Promise<DomainError> => {
  const r = await run(task);
  if (E.isRight(r)) expect.fail(`expected Left${tag === undefined ? '' : ` ${tag}`}, got Right ${JSON.stringify(r.right)}`);
  if (tag !== undefined) expect(r.left._tag).to.equal(tag);
  expect(r.left.message).to.be.a('string');
  return r.left;
};

/** Run the task, assert `Right(some(a))`, return `a`. */
export const expectSome = async <A>(task: TE.TaskEither<DomainError, O.Option<A>>): Promise<A> => {
  const o = await expectRight(task);
  if (O.isNone(o)) expect.fail('expected some, got none');
  return o.value;
};

/** Run the task, assert `Right(none)`. */
export const expectNone = async <A>(task: TE.TaskEither<DomainError, O.Option<A>>): Promise<void> => {
  const o = await expectRight(task);
  if (O.isSome(o)) expect.fail(`expected none, got some ${JSON.stringify(o.value)}`);
};

/** The ids of a list of records, in order. */
export const idsOf = (items: ReadonlyArray<{ readonly id: number }>): number[] => items.map((i) => i.id);

/** Assert that each id is greater than every id before it. */
export const expectAscending = (ids: ReadonlyArray<number>): void => {
  for (let i = 1; i < ids.length; i++) {
    expect(ids[i], `id #${i} (${String(ids[i])}) after ${JSON.stringify(ids.slice(0, i))}`).to.be.greaterThan(Math.max(...ids.slice(0, i)));
  }
};

/**
 * Try to change a record a store returned. A store may hand out copies (the
 * change lands on the copy) or frozen records (the change throws a TypeError);
 * either is fine, as long as the store does not see the change: the caller
 * checks that after.
 */
export const tryToChange = (change: () => void): void => {
  try {
    change();
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
};
