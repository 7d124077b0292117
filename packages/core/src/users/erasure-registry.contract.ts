/**
 * The erasure marker port's contract (docs/decisions/tenancy.md), run against every store
 * adapter: a marker is the client's own, recording it twice changes nothing,
 * and it is part of the transaction that records it (an aborted delete leaves
 * no marker).
 */
import { expect } from 'chai';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { validationError } from '../shared/errors.js';
import { ErasureMarker, erasureMarker } from './erasure.js';
import { StoreContractOptions, StoreFactory, expectLeft, expectRight, useFreshStore } from '../testing/contract-harness.js';
import { anId } from '../testing/record-mothers.js';

const CLIENT = anId('client', 1);
const OTHER_CLIENT = anId('client', 2);
/** Far in the future, so a TTL monitor running by the wall clock removes nothing while the test runs. */
const NOW = new Date('2100-01-01T00:00:00.000Z');

export function erasureRegistryContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} ErasureRegistry contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('a recorded user is erased for its client only; other users and an empty list are not', async () => {
      const marker = erasureMarker(CLIENT, anId('user', 7), NOW);
      expect(ErasureMarker.is(marker)).to.equal(true);
      await expectRight(store().erasures.record(marker));
      expect([
        ...(await expectRight(store().erasures.erasedAmong(CLIENT, [anId('user', 6), anId('user', 7), anId('user', 8)]))),
      ]).to.deep.equal([7]);
      expect([...(await expectRight(store().erasures.erasedAmong(OTHER_CLIENT, [anId('user', 7)])))]).to.deep.equal([]);
      expect([...(await expectRight(store().erasures.erasedAmong(CLIENT, [])))]).to.deep.equal([]);
    });

    it('recording a user twice changes nothing and fails nothing, in or out of a transaction', async () => {
      await expectRight(store().erasures.record(erasureMarker(CLIENT, anId('user', 7), NOW)));
      await expectRight(store().erasures.record(erasureMarker(CLIENT, anId('user', 7), new Date(NOW.getTime() + 1000))));
      await expectRight(store().unitOfWork.run((tx) => tx.erasures.record(erasureMarker(CLIENT, anId('user', 7), NOW))));
      await expectRight(store().erasures.record(erasureMarker(CLIENT, anId('user', 9), NOW)));
      expect([...(await expectRight(store().erasures.erasedAmong(CLIENT, [anId('user', 9), anId('user', 7)])))].sort()).to.deep.equal([
        7, 9,
      ]);
    });

    it('a marker is part of its transaction: aborted, none; committed, seen by the next read', async () => {
      await expectLeft(
        store().unitOfWork.run((tx) =>
          pipe(
            tx.erasures.record(erasureMarker(CLIENT, anId('user', 7), NOW)),
            TE.chainW(() => TE.left(validationError('abort'))),
          ),
        ),
        'validation_error',
      );
      expect((await expectRight(store().erasures.erasedAmong(CLIENT, [anId('user', 7)]))).size).to.equal(0);
      const seenInside = await expectRight(
        store().unitOfWork.run((tx) =>
          pipe(
            tx.erasures.record(erasureMarker(CLIENT, anId('user', 7), NOW)),
            TE.chain(() => tx.erasures.erasedAmong(CLIENT, [anId('user', 7)])),
          ),
        ),
      );
      expect([...seenInside], 'the transaction reads its own marker').to.deep.equal([7]);
      expect([...(await expectRight(store().erasures.erasedAmong(CLIENT, [anId('user', 7)])))]).to.deep.equal([7]);
    });
  });
}
