/**
 * Contract of `StoreHealth` (`/readyz`): run against every store adapter.
 */
import { expect } from 'chai';
import { StoreContractOptions, StoreFactory, expectRight, useFreshStore } from './contract-harness.js';

export function storeHealthContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} StoreHealth contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('ping → Right while the store answers, every time', async () => {
      expect(await expectRight(store().health.ping())).to.equal(undefined);
      expect(await expectRight(store().health.ping())).to.equal(undefined);
    });
  });
}
