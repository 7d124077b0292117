/**
 * Contract of `BureauFlowRepository`: run against every store adapter.
 * `save` is a compare-and-set on the version, so that of two concurrent
 * transitions from the same state exactly one wins (docs/api/reference.md).
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { BureauFlowRecord, BureauFlowState, INITIAL_STATE } from './bureau-flow.machine.js';
import {
  StoreContractOptions,
  StoreFactory,
  expectLeft,
  expectNone,
  expectRight,
  expectSome,
  run,
  useFreshStore,
} from '../testing/contract-harness.js';
import { BUREAU_STATES } from './record-mothers.js';
import { CREATED_AT, anId, timestamp } from '../testing/record-mothers.js';

const USER = anId('user', 1);
const OTHER_USER = anId('user', 2);
const LATER = timestamp('2024-07-01T12:05:00.000Z');

const CONSENT: BureauFlowState = { _tag: 'consent' };
const OTP: BureauFlowState = { _tag: 'validate_otp', consentOnFile: false, otpFailures: 0 };
const IDENTITY: BureauFlowState = { _tag: 'identity', consentOnFile: true };

export function bureauFlowRepositoryContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} BureauFlowRepository contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('get of a user without a flow → none', async () => {
      await expectNone(store().bureauFlows.get(USER));
    });

    it('save with expectedVersion 0 creates version 1; get reads back exactly what was stored', async () => {
      const saved = await expectRight(store().bureauFlows.save(USER, 0, CONSENT, CREATED_AT));
      expect(BureauFlowRecord.is(saved)).to.equal(true);
      expect(saved).to.deep.equal({ user_id: USER, version: 1, state: CONSENT, updated_at: CREATED_AT });
      const found = await expectSome(store().bureauFlows.get(USER));
      expect(BureauFlowRecord.is(found)).to.equal(true);
      expect(found).to.deep.equal(saved);
    });

    it('each save from the stored version increments it by one', async () => {
      await expectRight(store().bureauFlows.save(USER, 0, CONSENT, CREATED_AT));
      const second = await expectRight(store().bureauFlows.save(USER, 1, OTP, LATER));
      expect(second).to.deep.equal({ user_id: USER, version: 2, state: OTP, updated_at: LATER });
      const third = await expectRight(store().bureauFlows.save(USER, 2, IDENTITY, LATER));
      expect(third.version).to.equal(3);
      expect(await expectSome(store().bureauFlows.get(USER))).to.deep.equal(third);
    });

    it('round-trips every kind of state', async () => {
      let version = 0;
      for (const state of BUREAU_STATES) {
        const saved = await expectRight(store().bureauFlows.save(USER, version, state, CREATED_AT));
        version = saved.version;
        const found = await expectSome(store().bureauFlows.get(USER));
        expect(BureauFlowRecord.is(found)).to.equal(true);
        expect(found.state).to.deep.equal(state);
      }
      expect(version).to.equal(BUREAU_STATES.length);
    });

    it('a stale expectedVersion → Left conflict, and the stored flow is unchanged', async () => {
      await expectRight(store().bureauFlows.save(USER, 0, CONSENT, CREATED_AT));
      const current = await expectRight(store().bureauFlows.save(USER, 1, OTP, LATER));
      await expectLeft(store().bureauFlows.save(USER, 1, IDENTITY, LATER), 'conflict');
      await expectLeft(store().bureauFlows.save(USER, 0, IDENTITY, LATER), 'conflict');
      await expectLeft(store().bureauFlows.save(USER, 3, IDENTITY, LATER), 'conflict');
      expect(await expectSome(store().bureauFlows.get(USER))).to.deep.equal(current);
    });

    it('an expectedVersion other than 0 when no flow is stored → Left conflict, nothing stored', async () => {
      await expectLeft(store().bureauFlows.save(USER, 1, CONSENT, CREATED_AT), 'conflict');
      await expectNone(store().bureauFlows.get(USER));
    });

    it('two concurrent saves from the same version: exactly one wins, the other is a conflict', async () => {
      await expectRight(store().bureauFlows.save(USER, 0, CONSENT, CREATED_AT));
      const a: BureauFlowState = { _tag: 'validate_otp', consentOnFile: false, otpFailures: 0 };
      const b: BureauFlowState = { _tag: 'initial', consentOnFile: false };
      const results = await Promise.all([
        run(store().bureauFlows.save(USER, 1, a, LATER)),
        run(store().bureauFlows.save(USER, 1, b, LATER)),
      ]);
      const wins = results.filter(E.isRight);
      const losses = results.filter(E.isLeft);
      expect(wins).to.have.length(1);
      expect(losses).to.have.length(1);
      expect(losses[0]?.left._tag).to.equal('conflict');
      const winner = wins[0]?.right;
      expect(winner?.version).to.equal(2);
      expect(await expectSome(store().bureauFlows.get(USER))).to.deep.equal(winner);
    });

    it('two concurrent creates (expectedVersion 0): exactly one wins, the other is a conflict', async () => {
      const results = await Promise.all([
        run(store().bureauFlows.save(USER, 0, CONSENT, CREATED_AT)),
        run(store().bureauFlows.save(USER, 0, OTP, CREATED_AT)),
      ]);
      expect(results.filter(E.isRight)).to.have.length(1);
      const loss = results.find(E.isLeft);
      expect(loss?.left._tag).to.equal('conflict');
      expect((await expectSome(store().bureauFlows.get(USER))).version).to.equal(1);
    });

    it('many concurrent saves from the same version: exactly one wins', async () => {
      await expectRight(store().bureauFlows.save(USER, 0, INITIAL_STATE, CREATED_AT));
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          run(store().bureauFlows.save(USER, 1, { _tag: 'validate_otp', consentOnFile: false, otpFailures: i }, LATER)),
        ),
      );
      expect(results.filter(E.isRight)).to.have.length(1);
      for (const r of results.filter(E.isLeft)) expect(r.left._tag).to.equal('conflict');
      expect((await expectSome(store().bureauFlows.get(USER))).version).to.equal(2);
    });

    it("ownership: flows are per user; saving or deleting one user's flow leaves the others alone", async () => {
      const theirs = await expectRight(store().bureauFlows.save(OTHER_USER, 0, IDENTITY, CREATED_AT));
      await expectNone(store().bureauFlows.get(USER));
      expect(await expectRight(store().bureauFlows.deleteForUser(USER))).to.equal(false);
      // The other user's version does not count for this user: a first save is version 0 → 1.
      await expectLeft(store().bureauFlows.save(USER, 1, CONSENT, LATER), 'conflict');
      const mine = await expectRight(store().bureauFlows.save(USER, 0, CONSENT, LATER));
      expect(mine.version).to.equal(1);
      expect(await expectRight(store().bureauFlows.deleteForUser(USER))).to.equal(true);
      expect(await expectSome(store().bureauFlows.get(OTHER_USER))).to.deep.equal(theirs);
    });

    it('deleteForUser removes the flow: true, then none and false; a new flow starts again at version 1', async () => {
      await expectRight(store().bureauFlows.save(USER, 0, CONSENT, CREATED_AT));
      await expectRight(store().bureauFlows.save(USER, 1, OTP, CREATED_AT));
      expect(await expectRight(store().bureauFlows.deleteForUser(USER))).to.equal(true);
      await expectNone(store().bureauFlows.get(USER));
      expect(await expectRight(store().bureauFlows.deleteForUser(USER))).to.equal(false);
      await expectLeft(store().bureauFlows.save(USER, 2, IDENTITY, LATER), 'conflict');
      const restarted = await expectRight(store().bureauFlows.save(USER, 0, CONSENT, LATER));
      expect(restarted).to.deep.equal({ user_id: USER, version: 1, state: CONSENT, updated_at: LATER });
    });

    it('a returned flow is a copy: changing it (or the saved state) does not change the store', async () => {
      const state: BureauFlowState = { _tag: 'validate_otp', consentOnFile: true, otpFailures: 1 };
      const saved = await expectRight(store().bureauFlows.save(USER, 0, state, CREATED_AT));
      (state as { otpFailures: number }).otpFailures = 4;
      saved.version = 99;
      (saved.state as { otpFailures: number }).otpFailures = 3;
      const found = await expectSome(store().bureauFlows.get(USER));
      found.state = { _tag: 'authenticated' };
      expect(await expectSome(store().bureauFlows.get(USER))).to.deep.equal({
        user_id: USER,
        version: 1,
        state: { _tag: 'validate_otp', consentOnFile: true, otpFailures: 1 },
        updated_at: CREATED_AT,
      });
    });
  });
}
