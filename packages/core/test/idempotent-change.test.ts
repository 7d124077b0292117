/**
 * One owner for the transaction (application/deps.ts, idempotent-change.ts):
 * a use case's `Change` commits when called; a change can commit and still
 * answer an error; under an Idempotency-Key core claims the key, runs the
 * change and keeps the rendered answer in the change's own transaction, keeps
 * an aborted change's error by a write of its own, and releases the key for
 * what a retry may not meet.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { notFound, unavailable, validationError, type DomainError } from '../src/shared/errors.js';
import type { IdempotencyClaim, StoredResponse } from '../src/shared/idempotency.js';
import type { ClientId, UserId } from '../src/shared/primitives.js';
import { inTransaction, inUserTransactionAnswering, noChange, type Change } from '../src/shared/deps.js';
import { runKeyed, type AnswerRenderer } from '../src/shared/idempotent-change.js';
import { transactionRunner } from '../src/shared/transactions.js';
import type { IdempotencyStore } from '../src/shared/idempotency-store.js';
import type { StoreTransaction, TransactionDriver, TransactionPorts } from '../src/shared/unit-of-work.js';

/** An idempotency store that records what is asked of it; `claim` answers `claimWith`. */
const recordingStore = (claimWith: IdempotencyClaim = { _tag: 'claimed' }) => {
  const calls: string[] = [];
  const store: IdempotencyStore = {
    claim: () => TE.right(claimWith),
    complete: (_c, key, _id, response) => {
      calls.push(`complete ${key} ${response.status}`);
      return TE.right(undefined);
    },
    release: (_c, key) => {
      calls.push(`release ${key}`);
      return TE.right(undefined);
    },
  };
  return { store, calls };
};

/** A runner whose transactions log begin, commit and abort, with the transaction's own idempotency store. */
const loggingRunner = () => {
  const log: string[] = [];
  const inTx = recordingStore();
  const driver: TransactionDriver<TransactionPorts> = {
    begin: async () => {
      log.push('begin');
      const tx: StoreTransaction<TransactionPorts> = {
        ports: { idempotency: inTx.store } as unknown as TransactionPorts,
        commit: async () => (log.push('commit'), E.right(undefined)),
        abort: async () => void log.push('abort'),
      };
      return E.right(tx);
    },
  };
  return { unitOfWork: transactionRunner(driver), log, inTx: inTx.calls };
};

const scope = { clientId: 1 as ClientId, userId: 2 as UserId };
/** What this test's renderer is told about an answer besides itself: its success status (an adapter's own data). */
interface Form {
  readonly status: number;
}
const request = {
  clientId: 1 as ClientId,
  key: 'k',
  claimId: 'c',
  fingerprint: { method: 'POST', path: '/p', bodyHash: 'h' },
  form: { status: 201 },
  apiVersion: '2026-01-01',
};
const clock = { now: () => new Date('2026-01-01T00:00:00Z') };
/** The port: a pure function of the answer, the request's form and its version. */
const renderer: AnswerRenderer<Form> = {
  render: (answer, form, apiVersion) =>
    E.isRight(answer)
      ? { status: form.status, body: JSON.stringify(answer.right), apiVersion }
      : { status: answer.left._tag === 'not_found' ? 404 : 400, body: '{}', apiVersion },
};
/** The rule bound once, as the composition binds it, over `idempotency`. */
const keyed = (idempotency: IdempotencyStore) => runKeyed({ idempotency, clock, renderer });

describe("a use case's change, run by core", () => {
  it('calling the change commits it as one transaction', async () => {
    const { unitOfWork, log } = loggingRunner();
    const change: Change<string> = inTransaction({ unitOfWork }, () => TE.right('done'));
    expect(await change()).to.deep.equal(E.right('done'));
    expect(log).to.deep.equal(['begin', 'commit']);
  });

  it('a change can commit and still answer an error', async () => {
    const { unitOfWork, log } = loggingRunner();
    const wrongCode = validationError('Wrong one-time code');
    const change = inUserTransactionAnswering({ unitOfWork }, scope, () => TE.right(E.left(wrongCode)));
    expect(await change()).to.deep.equal(E.left(wrongCode));
    expect(log).to.deep.equal(['begin', 'commit']);
  });

  it('a Left aborts', async () => {
    const { unitOfWork, log } = loggingRunner();
    expect(await inTransaction({ unitOfWork }, () => TE.left(notFound('gone')))()).to.deep.equal(E.left(notFound('gone')));
    expect(log).to.deep.equal(['begin', 'abort']);
  });
});

describe('the Idempotency-Key rule (runKeyed)', () => {
  it("keeps the rendered answer in the change's own transaction, then commits", async () => {
    const { unitOfWork, log, inTx } = loggingRunner();
    const outside = recordingStore();
    const outcome = await keyed(outside.store)(
      request,
      inTransaction({ unitOfWork }, () => TE.right('made')),
    )();
    expect(outcome).to.deep.equal(
      E.right({ _tag: 'answered', response: { status: 201, body: '"made"', apiVersion: '2026-01-01' }, kept: true }),
    );
    expect(inTx).to.deep.equal(['complete k 201']);
    expect(outside.calls).to.deep.equal([]);
    expect(log).to.deep.equal(['begin', 'commit']);
  });

  it('keeps a committed error with the writes that answer it', async () => {
    const { unitOfWork, log, inTx } = loggingRunner();
    const outside = recordingStore();
    const change = inUserTransactionAnswering({ unitOfWork }, scope, () =>
      TE.right(E.left<DomainError, string>(validationError('Wrong one-time code'))),
    );
    const outcome = await keyed(outside.store)(request, change)();
    expect(E.isRight(outcome) && outcome.right._tag === 'answered' && outcome.right.response.status).to.equal(400);
    expect(inTx).to.deep.equal(['complete k 400']);
    expect(log).to.deep.equal(['begin', 'commit']);
  });

  it("an aborted change's error is kept by a write of its own", async () => {
    const { unitOfWork, log, inTx } = loggingRunner();
    const outside = recordingStore();
    const outcome = await keyed(outside.store)(
      request,
      inTransaction({ unitOfWork }, () => TE.left<DomainError, string>(notFound('gone'))),
    )();
    expect(E.isRight(outcome) && outcome.right._tag === 'answered' && outcome.right.kept).to.equal(true);
    expect(log).to.deep.equal(['begin', 'abort']);
    expect(inTx).to.deep.equal([]);
    expect(outside.calls).to.deep.equal(['complete k 404']);
  });

  it('an outage is not kept: the key is released and the outage answered', async () => {
    const { unitOfWork } = loggingRunner();
    const outside = recordingStore();
    const outcome = await keyed(outside.store)(
      request,
      inTransaction({ unitOfWork }, () => TE.left<DomainError, string>(unavailable('down'))),
    )();
    expect(outcome).to.deep.equal(E.left(unavailable('down')));
    expect(outside.calls).to.deep.equal(['release k']);
  });

  it('a change that throws releases the key and the throw goes on', async () => {
    const { unitOfWork, log } = loggingRunner();
    const outside = recordingStore();
    const boom = inTransaction({ unitOfWork }, (): TE.TaskEither<DomainError, string> => () => Promise.reject(new Error('boom')));
    let thrown: unknown;
    await keyed(outside.store)(request, boom)().catch((err: unknown) => (thrown = err));
    expect(thrown).to.be.instanceOf(Error);
    expect(log).to.deep.equal(['begin', 'abort']);
    expect(outside.calls).to.deep.equal(['release k']);
  });

  it('an answer that changes nothing is kept by a write of its own, with no transaction', async () => {
    const { log } = loggingRunner();
    const outside = recordingStore();
    const outcome = await keyed(outside.store)(request, noChange(TE.right('computed')))();
    expect(E.isRight(outcome) && outcome.right._tag).to.equal('answered');
    expect(log).to.deep.equal([]);
    expect(outside.calls).to.deep.equal(['complete k 201']);
  });

  it('a key already answered, in use or used for another request runs nothing', async () => {
    const kept: StoredResponse = { status: 201, body: '"made"', apiVersion: '2024-01-01' };
    for (const [claim, expected] of [
      [
        { _tag: 'completed', response: kept },
        { _tag: 'replayed', response: kept },
      ],
      [{ _tag: 'in_progress' }, { _tag: 'in_use' }],
      [{ _tag: 'mismatch' }, { _tag: 'reused' }],
    ] as const) {
      const { unitOfWork, log } = loggingRunner();
      const outcome = await keyed(recordingStore(claim).store)(
        request,
        inTransaction({ unitOfWork }, () => TE.right('made')),
      )();
      expect(outcome).to.deep.equal(E.right(expected));
      expect(log).to.deep.equal([]);
    }
  });
});
