/**
 * Contract of the owned reads (shared/owned-read.ts) of `CreditScoreRepository`,
 * `AccountRepository` and `PaymentPlanRepository`: run against every store adapter. An owned read
 * checks the user exactly as `UserRepository.get` does, in the same read, so
 * each test sets up real users; `none` = the client has no such user (missing,
 * another client's, or being deleted), `some` = what the user owns.
 */
import { expect } from 'chai';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { DomainError } from '../../shared/errors.js';
import type { AccountId, ClientId, PaymentPlanId, UserId } from '../../shared/primitives.js';
import type { UserRecord } from '../../users/user.js';
import type { OwnedRead } from '../../shared/owned-read.js';
import type { StorePorts } from '../../shared/unit-of-work.js';
import { StoreContractOptions, StoreFactory, expectRight, expectSome, useFreshStore } from '../../testing/contract-harness.js';
import { itPagesAscendingById } from '../../testing/paging.contract.js';
import { aCreditScore } from '../../credit-scores/record-mothers.js';
import { aPaymentPlan } from '../../payment-plans/record-mothers.js';
import { aUser } from '../../users/record-mothers.js';
import { anAccount } from '../../accounts/record-mothers.js';
import { anId, isoDate } from '../../testing/record-mothers.js';

const CLIENT = anId('client', 1);
const OTHER_CLIENT = anId('client', 2);
/** An id no test gives a user. */
const NO_USER = anId('user', 999_999);

/** Run an owned read, assert the user was found (`some`), return what it owns. */
const expectOwned = <A>(task: TE.TaskEither<DomainError, OwnedRead<A>>): Promise<A> => expectSome(task);

/** Run an owned read, assert the client has no such user (`none`). */
const expectNoUser = async <A>(task: TE.TaskEither<DomainError, OwnedRead<A>>): Promise<void> => {
  const read = await expectRight(task);
  if (O.isSome(read)) expect.fail(`expected no user (none), got some ${JSON.stringify(read.value)}`);
};

export function ownedReadsContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} owned reads contract (the user checked in the same read)`, () => {
    const store = useFreshStore(makeStore, opts);
    const aStoredUser = (clientId: ClientId = CLIENT): Promise<UserRecord> => expectRight(store().users.create(aUser(clientId)));

    describe('CreditScoreRepository latestOwned / historyOwned', () => {
      it("the user's latest score and its history, newest first, exactly as latest and history read them", async () => {
        const user = await aStoredUser();
        const first = await expectRight(store().creditScores.add(aCreditScore(user.id, { score: 600 })));
        const second = await expectRight(store().creditScores.add(aCreditScore(user.id, { score: 650, increase: 50 })));
        expect(await expectOwned(store().creditScores.latestOwned(CLIENT, user.id))).to.deep.equal(O.some(second));
        expect(await expectOwned(store().creditScores.historyOwned(CLIENT, user.id))).to.deep.equal([second, first]);
      });

      it('a user without scores: some(none) and some([]), not "no user"', async () => {
        const user = await aStoredUser();
        const other = await aStoredUser();
        await expectRight(store().creditScores.add(aCreditScore(other.id)));
        expect(await expectOwned(store().creditScores.latestOwned(CLIENT, user.id))).to.deep.equal(O.none);
        expect(await expectOwned(store().creditScores.historyOwned(CLIENT, user.id))).to.deep.equal([]);
      });

      it("tenant isolation: another client's user → none, though it has scores", async () => {
        const theirs = await aStoredUser(OTHER_CLIENT);
        await expectRight(store().creditScores.add(aCreditScore(theirs.id)));
        await expectNoUser(store().creditScores.latestOwned(CLIENT, theirs.id));
        await expectNoUser(store().creditScores.historyOwned(CLIENT, theirs.id));
      });

      it('no such user → none, even when scores name its id', async () => {
        await expectRight(store().creditScores.add(aCreditScore(NO_USER)));
        await expectNoUser(store().creditScores.latestOwned(CLIENT, NO_USER));
        await expectNoUser(store().creditScores.historyOwned(CLIENT, NO_USER));
      });

      it('a deleted user → none while its scores still exist, as UserRepository.get', async () => {
        const user = await aStoredUser();
        await expectRight(store().creditScores.add(aCreditScore(user.id)));
        expect(await expectRight(store().users.delete(CLIENT, user.id))).to.equal(true);
        await expectNoUser(store().creditScores.latestOwned(CLIENT, user.id));
        await expectNoUser(store().creditScores.historyOwned(CLIENT, user.id));
        expect(O.isSome(await expectRight(store().creditScores.latest(user.id))), 'the score is still stored').to.equal(true);
      });

      it("history beyond a cursor's first batch (more than 101 scores) comes back whole and in order", async () => {
        const user = await aStoredUser();
        const ids: number[] = [];
        for (let i = 0; i < 105; i++) ids.push((await expectRight(store().creditScores.add(aCreditScore(user.id)))).id);
        const history = await expectOwned(store().creditScores.historyOwned(CLIENT, user.id));
        expect(history.map((s) => s.id)).to.deep.equal(ids.reverse());
      });
    });

    describe('AccountRepository getOwned / listOwned', () => {
      it("the user's account, exactly as get reads it", async () => {
        const user = await aStoredUser();
        const created = await expectRight(store().accounts.create(anAccount(user.id)));
        expect(await expectOwned(store().accounts.getOwned(CLIENT, user.id, created.id))).to.deep.equal(O.some(created));
      });

      it('an unknown account, or another user\'s of the same client: some(none), not "no user"', async () => {
        const user = await aStoredUser();
        const other = await aStoredUser();
        const theirs = await expectRight(store().accounts.create(anAccount(other.id)));
        expect(await expectOwned(store().accounts.getOwned(CLIENT, user.id, theirs.id))).to.deep.equal(O.none);
        expect(await expectOwned(store().accounts.getOwned(CLIENT, user.id, anId('account', 424_242)))).to.deep.equal(O.none);
        expect(await expectOwned(store().accounts.listOwned(CLIENT, user.id, { limit: 20 }, {}))).to.deep.equal({
          items: [],
          hasMore: false,
        });
      });

      it("tenant isolation: another client's user → none, for its own account too", async () => {
        const theirs = await aStoredUser(OTHER_CLIENT);
        const account = await expectRight(store().accounts.create(anAccount(theirs.id)));
        await expectNoUser(store().accounts.getOwned(CLIENT, theirs.id, account.id));
        await expectNoUser(store().accounts.listOwned(CLIENT, theirs.id, { limit: 20 }, {}));
        expect(await expectOwned(store().accounts.getOwned(OTHER_CLIENT, theirs.id, account.id))).to.deep.equal(O.some(account));
      });

      it('no such user → none, even when an account names its id', async () => {
        const account = await expectRight(store().accounts.create(anAccount(NO_USER)));
        await expectNoUser(store().accounts.getOwned(CLIENT, NO_USER, account.id));
        await expectNoUser(store().accounts.listOwned(CLIENT, NO_USER, { limit: 20 }, {}));
      });

      it('a deleted user → none while its accounts still exist, as UserRepository.get', async () => {
        const user = await aStoredUser();
        const account = await expectRight(store().accounts.create(anAccount(user.id)));
        expect(await expectRight(store().users.delete(CLIENT, user.id))).to.equal(true);
        await expectNoUser(store().accounts.getOwned(CLIENT, user.id, account.id));
        await expectNoUser(store().accounts.listOwned(CLIENT, user.id, { limit: 20 }, {}));
        expect(await expectSome(store().accounts.get(user.id, account.id)), 'the account is still stored').to.deep.equal(account);
      });

      it("a record written after its user was deleted (outside a use case's transaction) is not served", async () => {
        const user = await aStoredUser();
        expect(await expectRight(store().users.delete(CLIENT, user.id))).to.equal(true);
        const late = await expectRight(store().accounts.create(anAccount(user.id)));
        await expectRight(store().creditScores.add(aCreditScore(user.id)));
        await expectNoUser(store().accounts.getOwned(CLIENT, user.id, late.id));
        await expectNoUser(store().accounts.listOwned(CLIENT, user.id, { limit: 20 }, {}));
        await expectNoUser(store().creditScores.latestOwned(CLIENT, user.id));
      });

      it('listOwned filters by type and status and pages the matches, exactly as list does', async () => {
        const user = await aStoredUser();
        const create = (o: Parameters<typeof anAccount>[1]) => expectRight(store().accounts.create(anAccount(user.id, o)));
        const loanActive = await create({ type: 'loan', status: 'active' });
        const loanClosed = await create({ type: 'loan', status: 'closed', closed_at: isoDate('2024-06-01') });
        await create({ type: 'depository', subtype: 'checking', status: 'active' });
        const loanDisabled = await create({ type: 'loan', status: 'disabled' });
        const cases = [
          { page: { limit: 2 }, filter: { type: 'loan' as const } },
          { page: { limit: 2, startingAfter: loanActive.id }, filter: { type: 'loan' as const } },
          { page: { limit: 20 }, filter: { status: 'active' as const } },
          { page: { limit: 1 }, filter: { type: 'loan' as const, status: 'disabled' as const } },
          { page: { limit: 20 }, filter: {} },
        ];
        for (const { page, filter } of cases) {
          const listed = await expectRight(store().accounts.list(user.id, page, filter));
          expect(
            await expectOwned(store().accounts.listOwned(CLIENT, user.id, page, filter)),
            JSON.stringify({ page, filter }),
          ).to.deep.equal(listed);
        }
        expect(await expectOwned(store().accounts.listOwned(CLIENT, user.id, { limit: 2 }, { type: 'loan' }))).to.deep.equal({
          items: [loanActive, loanClosed],
          hasMore: true,
        });
        expect(
          await expectOwned(store().accounts.listOwned(CLIENT, user.id, { limit: 1, startingAfter: loanClosed.id }, { type: 'loan' })),
        ).to.deep.equal({
          items: [loanDisabled],
          hasMore: false,
        });
      });

      describe('listOwned paging', () => {
        // The owner must be a stored user: made on first use in each test's store.
        const owners = new WeakMap<StorePorts, { mine: UserRecord; other: UserRecord }>();
        const ownersOf = async (s: StorePorts) => {
          let found = owners.get(s);
          if (found === undefined) {
            found = { mine: await expectRight(s.users.create(aUser(CLIENT))), other: await expectRight(s.users.create(aUser(CLIENT))) };
            owners.set(s, found);
          }
          return found;
        };
        itPagesAscendingById(store, {
          create: async (s) => (await expectRight(s.accounts.create(anAccount((await ownersOf(s)).mine.id)))).id,
          createOther: async (s) => (await expectRight(s.accounts.create(anAccount((await ownersOf(s)).other.id)))).id,
          list: async (s, page) => expectOwned(s.accounts.listOwned(CLIENT, (await ownersOf(s)).mine.id, page, {})),
        });
      });
    });

    describe('PaymentPlanRepository getOwned / listOwned', () => {
      it("the user's plan and plans, exactly as get and list read them", async () => {
        const user = await aStoredUser();
        const first = await expectRight(store().paymentPlans.create(aPaymentPlan(user.id)));
        const second = await expectRight(store().paymentPlans.create(aPaymentPlan(user.id, { strategy: 'snowball' })));
        expect(await expectOwned(store().paymentPlans.getOwned(CLIENT, user.id, second.id))).to.deep.equal(O.some(second));
        expect(await expectOwned(store().paymentPlans.listOwned(CLIENT, user.id, { limit: 1 }))).to.deep.equal({
          items: [first],
          hasMore: true,
        });
        expect(await expectOwned(store().paymentPlans.listOwned(CLIENT, user.id, { limit: 1, startingAfter: first.id }))).to.deep.equal({
          items: [second],
          hasMore: false,
        });
      });

      it("a deleted plan, an unknown one or another user's: some(none), and not listed", async () => {
        const user = await aStoredUser();
        const other = await aStoredUser();
        const kept = await expectRight(store().paymentPlans.create(aPaymentPlan(user.id)));
        const going = await expectRight(store().paymentPlans.create(aPaymentPlan(user.id)));
        const theirs = await expectRight(store().paymentPlans.create(aPaymentPlan(other.id)));
        expect(await expectRight(store().paymentPlans.delete(user.id, going.id))).to.equal(true);
        expect(await expectOwned(store().paymentPlans.getOwned(CLIENT, user.id, going.id))).to.deep.equal(O.none);
        expect(await expectOwned(store().paymentPlans.getOwned(CLIENT, user.id, theirs.id))).to.deep.equal(O.none);
        expect(await expectOwned(store().paymentPlans.getOwned(CLIENT, user.id, anId('payment_plan', 424_242)))).to.deep.equal(O.none);
        expect(await expectOwned(store().paymentPlans.listOwned(CLIENT, user.id, { limit: 20 }))).to.deep.equal({
          items: [kept],
          hasMore: false,
        });
      });

      it('tenant isolation, no such user, a deleted user: none', async () => {
        const theirs = await aStoredUser(OTHER_CLIENT);
        const theirPlan = await expectRight(store().paymentPlans.create(aPaymentPlan(theirs.id)));
        await expectNoUser(store().paymentPlans.getOwned(CLIENT, theirs.id, theirPlan.id));
        await expectNoUser(store().paymentPlans.listOwned(CLIENT, theirs.id, { limit: 20 }));
        const orphan = await expectRight(store().paymentPlans.create(aPaymentPlan(NO_USER)));
        await expectNoUser(store().paymentPlans.getOwned(CLIENT, NO_USER, orphan.id));
        const user = await aStoredUser();
        const plan = await expectRight(store().paymentPlans.create(aPaymentPlan(user.id)));
        expect(await expectRight(store().users.delete(CLIENT, user.id))).to.equal(true);
        await expectNoUser(store().paymentPlans.getOwned(CLIENT, user.id, plan.id));
        await expectNoUser(store().paymentPlans.listOwned(CLIENT, user.id, { limit: 20 }));
      });

      it("getScheduleOwned answers the plan's months after a month, at most a count, as getOwned's schedule has them", async () => {
        // Optional in the port (a store written for core 2.0 lacks it, and the use case then cuts the page from the whole plan); this contract asks for it.
        const getScheduleOwned = store().paymentPlans.getScheduleOwned?.bind(store().paymentPlans);
        if (getScheduleOwned === undefined)
          expect.fail('PaymentPlanRepository.getScheduleOwned is missing: the schedule page would read the whole plan');
        const user = await aStoredUser();
        const other = await aStoredUser(OTHER_CLIENT);
        const base = aPaymentPlan(user.id);
        // Five months: the mother's two, and three more like its last, numbered on.
        const last = base.schedule[base.schedule.length - 1]!;
        const schedule = [...base.schedule, ...[3, 4, 5].map((month) => ({ ...last, month }))];
        const plan = await expectRight(store().paymentPlans.create({ ...base, months: 5, schedule }));
        const expected = (after: number, count: number) => O.some(schedule.filter((m) => m.month > after).slice(0, count));
        for (const [after, count] of [
          [0, 2],
          [0, 10],
          [2, 2],
          [3, 1],
          [4, 5],
          [5, 3],
          [9, 3],
        ] as const) {
          expect(await expectOwned(getScheduleOwned(CLIENT, user.id, plan.id, after, count)), `after ${after}, ${count}`).to.deep.equal(
            expected(after, count),
          );
        }
        expect(await expectOwned(getScheduleOwned(CLIENT, user.id, anId('payment_plan', 424_242), 0, 12))).to.deep.equal(O.none);
        await expectNoUser(getScheduleOwned(OTHER_CLIENT, user.id, plan.id, 0, 12));
        await expectNoUser(getScheduleOwned(CLIENT, NO_USER, plan.id, 0, 12));
        const theirs = await expectRight(store().paymentPlans.create(aPaymentPlan(other.id)));
        expect(await expectOwned(getScheduleOwned(CLIENT, user.id, theirs.id, 0, 12)), "another user's plan").to.deep.equal(O.none);
        expect(await expectRight(store().paymentPlans.delete(user.id, plan.id))).to.equal(true);
        expect(await expectOwned(getScheduleOwned(CLIENT, user.id, plan.id, 0, 12)), 'a deleted plan').to.deep.equal(O.none);
      });

      it('touchOwned answers what getOwned answers, for plans stored with their owner and without (older plans)', async () => {
        const user = await aStoredUser();
        const withOwner = await expectRight(store().paymentPlans.create(aPaymentPlan(user.id), CLIENT));
        const without = await expectRight(store().paymentPlans.create(aPaymentPlan(user.id, { strategy: 'snowball' })));
        expect(await expectOwned(store().paymentPlans.touchOwned(CLIENT, user.id, withOwner.id))).to.deep.equal(O.some(withOwner));
        expect(await expectOwned(store().paymentPlans.touchOwned(CLIENT, user.id, without.id))).to.deep.equal(O.some(without));
        // The bump changes nothing the plan answers.
        expect(await expectOwned(store().paymentPlans.getOwned(CLIENT, user.id, withOwner.id))).to.deep.equal(O.some(withOwner));
        expect(await expectOwned(store().paymentPlans.touchOwned(CLIENT, user.id, anId('payment_plan', 424_242)))).to.deep.equal(O.none);
        const theirs = await aStoredUser(OTHER_CLIENT);
        const theirPlan = await expectRight(store().paymentPlans.create(aPaymentPlan(theirs.id), OTHER_CLIENT));
        await expectNoUser(store().paymentPlans.touchOwned(CLIENT, theirs.id, theirPlan.id));
        // Another user's plan, named under this client's user: not this user's.
        expect(await expectOwned(store().paymentPlans.touchOwned(CLIENT, user.id, theirPlan.id))).to.deep.equal(O.none);
        expect(await expectOwned(store().paymentPlans.touchOwned(OTHER_CLIENT, theirs.id, theirPlan.id))).to.deep.equal(O.some(theirPlan));
      });
    });

    describe("the owner's sandbox clock (docs/sandbox-over-time.md), read in the same read", () => {
      /** Run an owned read, assert the user was found, return what it read of the user. */
      const ownerOf = async <A>(task: TE.TaskEither<DomainError, OwnedRead<A>>) => {
        const read = await expectRight(task);
        if (read._tag === 'None') return expect.fail('expected the user (some), got none');
        return read.owner;
      };
      const everyOwnedRead = (
        userId: UserId,
        accountId: AccountId,
        planId: PaymentPlanId,
      ): ReadonlyArray<TE.TaskEither<DomainError, OwnedRead<unknown>>> => [
        store().accounts.getOwned(CLIENT, userId, accountId),
        store().accounts.listOwned(CLIENT, userId, { limit: 20 }, {}),
        store().creditScores.latestOwned(CLIENT, userId),
        store().creditScores.historyOwned(CLIENT, userId),
        store().paymentPlans.getOwned(CLIENT, userId, planId),
        store().paymentPlans.listOwned(CLIENT, userId, { limit: 20 }),
        store().paymentPlans.touchOwned(CLIENT, userId, planId),
      ];

      it('a user stored without the clock fields (before they existed) reads as never advanced: sandboxDate null', async () => {
        const user = await aStoredUser();
        expect(user).not.to.have.property('sandbox_date');
        const account = await expectRight(store().accounts.create(anAccount(user.id)));
        const plan = await expectRight(store().paymentPlans.create(aPaymentPlan(user.id), CLIENT, { sandboxDate: null }));
        for (const read of everyOwnedRead(user.id, account.id, plan.id)) expect(await ownerOf(read)).to.deep.equal({ sandboxDate: null });
      });

      it("every owned read, touchOwned included (plans stored with their owner's clock or without), answers the date the user's clock was moved to", async () => {
        const user = await aStoredUser();
        const account = await expectRight(store().accounts.create(anAccount(user.id)));
        const kept = await expectRight(store().paymentPlans.create(aPaymentPlan(user.id), CLIENT, { sandboxDate: null }));
        const older = await expectRight(store().paymentPlans.create(aPaymentPlan(user.id, { strategy: 'snowball' })));
        const moved = await expectRight(store().users.update(CLIENT, user.id, { sandbox_date: isoDate('2027-01-31') }));
        expect(O.isSome(moved) && moved.value.sandbox_date).to.equal('2027-01-31');
        for (const planId of [kept.id, older.id]) {
          for (const read of everyOwnedRead(user.id, account.id, planId))
            expect(await ownerOf(read)).to.deep.equal({ sandboxDate: '2027-01-31' });
        }
        // A plan created after the move keeps the date it was created with, and follows the next move.
        const later = await expectRight(store().paymentPlans.create(aPaymentPlan(user.id), CLIENT, { sandboxDate: isoDate('2027-01-31') }));
        await expectRight(store().users.update(CLIENT, user.id, { sandbox_date: isoDate('2027-02-28') }));
        expect(await ownerOf(store().paymentPlans.touchOwned(CLIENT, user.id, later.id))).to.deep.equal({ sandboxDate: '2027-02-28' });
      });

      it("touchAndGet writes the user (the owner bump) and answers it with its clock; none for another client's or a missing user", async () => {
        const user = await aStoredUser();
        await expectRight(store().users.update(CLIENT, user.id, { sandbox_date: isoDate('2026-12-01') }));
        const bumped = await expectSome(store().users.touchAndGet(CLIENT, user.id));
        expect(bumped).to.include({ id: user.id, last_name: user.last_name, sandbox_date: '2026-12-01' });
        expect(await expectRight(store().users.touchAndGet(OTHER_CLIENT, user.id))).to.deep.equal(O.none);
        expect(await expectRight(store().users.touchAndGet(CLIENT, NO_USER))).to.deep.equal(O.none);
      });
    });
  });
}
