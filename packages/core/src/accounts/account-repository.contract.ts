/**
 * Contract of `AccountRepository`: run against every store adapter. An account
 * is only ever reachable through the user that owns it (docs/decisions/tenancy.md).
 */
import { expect } from 'chai';
import { AccountRecord } from './account.js';
import type { AccountPatch } from './account-repository.js';
import type { PaymentCode } from './payment-history.js';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import {
  StoreContractOptions,
  StoreFactory,
  expectAscending,
  expectLeft,
  expectNone,
  expectRight,
  expectSome,
  idsOf,
  run,
  tryToChange,
  useFreshStore,
} from '../testing/contract-harness.js';
import { itPagesAscendingById } from '../testing/paging.contract.js';
import { aSegmentedCard, anAccount } from './record-mothers.js';
import { anId, cents, isoDate, timestamp } from '../testing/record-mothers.js';

const USER = anId('user', 1);
const OTHER_USER = anId('user', 2);

export function accountRepositoryContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} AccountRepository contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('create returns the account with a new id; get reads back exactly what was stored', async () => {
      const input = anAccount(USER, { created_at: timestamp('2024-05-06T07:08:09.010Z') });
      const created = await expectRight(store().accounts.create(input));
      expect(AccountRecord.is(created)).to.equal(true);
      expect(created).to.deep.equal({ ...input, id: created.id, version: 1 });
      const found = await expectSome(store().accounts.get(USER, created.id));
      expect(AccountRecord.is(found)).to.equal(true);
      expect(found).to.deep.equal(created);
    });

    it('round-trips an account with every optional field null and an empty history', async () => {
      const input = anAccount(USER, {
        type: 'depository',
        subtype: 'checking',
        mask: null,
        apr: null,
        minimum_payment: null,
        limit: null,
        last_payment_amount: null,
        last_payment_date: null,
        opened_at: null,
        institution_name: null,
        next_payment_due_date: null,
        first_time_payment: null,
        payments_history: [],
        balance: cents(0),
      });
      const created = await expectRight(store().accounts.create(input));
      const found = await expectSome(store().accounts.get(USER, created.id));
      expect(AccountRecord.is(found)).to.equal(true);
      expect(found).to.deep.equal({ ...input, id: created.id, version: 1 });
    });

    it('round-trips an account with every field set', async () => {
      const input = anAccount(USER, {
        nickname: 'Travel card',
        user_apr: 12.5,
        user_minimum_payment: cents(10_000),
        original_loan_amount: cents(2_000_000),
        closed_at: isoDate('2024-06-30'),
        status: 'closed',
        institution_logo: 'https://bank.example/logo.png',
        user_next_payment_date: isoDate('2024-07-20'),
        first_time_payment: true,
        payments_history: Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? '1' : i % 3 === 1 ? 'E' : '9')),
      });
      const created = await expectRight(store().accounts.create(input));
      expect(await expectSome(store().accounts.get(USER, created.id))).to.deep.equal({ ...input, id: created.id, version: 1 });
    });

    it('get of an unknown id → none', async () => {
      await expectNone(store().accounts.get(USER, anId('account', 1)));
      const created = await expectRight(store().accounts.create(anAccount(USER)));
      await expectNone(store().accounts.get(USER, anId('account', created.id + 1000)));
    });

    it('allocates ascending ids across users: each new id is greater than every earlier one', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await expectRight(store().accounts.create(anAccount(i % 2 === 0 ? USER : OTHER_USER)))).id);
      expectAscending(ids);
    });

    it("ownership: another user's account is not found, not listed, not updated, not deleted", async () => {
      const theirs = await expectRight(store().accounts.create(anAccount(OTHER_USER, { name: 'Theirs' })));
      const mine = await expectRight(store().accounts.create(anAccount(USER, { name: 'Mine' })));
      await expectNone(store().accounts.get(USER, theirs.id));
      expect(await expectRight(store().accounts.list(USER, { limit: 100 }, {}))).to.deep.equal({ items: [mine], hasMore: false });
      expect(await expectRight(store().accounts.listAll(USER))).to.deep.equal([mine]);
      await expectNone(store().accounts.update(USER, theirs.id, theirs.version, { nickname: 'Hijacked' }));
      expect(await expectRight(store().accounts.deleteAllForUser(USER))).to.equal(1);
      expect(await expectSome(store().accounts.get(OTHER_USER, theirs.id))).to.deep.equal(theirs);
    });

    itPagesAscendingById(store, {
      create: async (s) => (await expectRight(s.accounts.create(anAccount(USER)))).id,
      createOther: async (s) => (await expectRight(s.accounts.create(anAccount(OTHER_USER)))).id,
      list: (s, page) => expectRight(s.accounts.list(USER, page, {})),
    });

    it("list returns the user's accounts exactly, each decoding as an AccountRecord", async () => {
      const a = await expectRight(store().accounts.create(anAccount(USER)));
      const b = await expectRight(
        store().accounts.create(anAccount(USER, { type: 'depository', subtype: 'savings', payments_history: [] })),
      );
      const page = await expectRight(store().accounts.list(USER, { limit: 20 }, {}));
      expect(page).to.deep.equal({ items: [a, b], hasMore: false });
      for (const x of page.items) expect(AccountRecord.is(x)).to.equal(true);
    });

    describe('filters', () => {
      const seed = async () => {
        const s = store();
        const create = (o: Parameters<typeof anAccount>[1]) => expectRight(s.accounts.create(anAccount(USER, o)));
        const loanActive = await create({ type: 'loan', status: 'active' });
        const loanClosed = await create({ type: 'loan', status: 'closed', closed_at: isoDate('2024-06-01') });
        const depositoryActive = await create({ type: 'depository', subtype: 'checking', status: 'active' });
        const loanDisabled = await create({ type: 'loan', status: 'disabled' });
        const investmentActive = await create({ type: 'investment', subtype: 'savings', status: 'active' });
        // Another user's loans must never count, not even for `hasMore`.
        await expectRight(s.accounts.create(anAccount(OTHER_USER, { type: 'loan', status: 'active' })));
        return { loanActive, loanClosed, depositoryActive, loanDisabled, investmentActive };
      };

      it('by type', async () => {
        const a = await seed();
        const loans = await expectRight(store().accounts.list(USER, { limit: 20 }, { type: 'loan' }));
        expect(loans).to.deep.equal({ items: [a.loanActive, a.loanClosed, a.loanDisabled], hasMore: false });
        expect(idsOf((await expectRight(store().accounts.list(USER, { limit: 20 }, { type: 'other' }))).items)).to.deep.equal([]);
      });

      it('by status', async () => {
        const a = await seed();
        const active = await expectRight(store().accounts.list(USER, { limit: 20 }, { status: 'active' }));
        expect(idsOf(active.items)).to.deep.equal(idsOf([a.loanActive, a.depositoryActive, a.investmentActive]));
      });

      it('by type and status together', async () => {
        const a = await seed();
        const page = await expectRight(store().accounts.list(USER, { limit: 20 }, { type: 'loan', status: 'active' }));
        expect(page).to.deep.equal({ items: [a.loanActive], hasMore: false });
      });

      it('paging counts only matching accounts: `hasMore` false when exactly `limit` matches are left', async () => {
        const a = await seed();
        const first = await expectRight(store().accounts.list(USER, { limit: 2 }, { type: 'loan' }));
        expect({ ids: idsOf(first.items), hasMore: first.hasMore }).to.deep.equal({
          ids: idsOf([a.loanActive, a.loanClosed]),
          hasMore: true,
        });
        const rest = await expectRight(store().accounts.list(USER, { limit: 1, startingAfter: a.loanClosed.id }, { type: 'loan' }));
        expect({ ids: idsOf(rest.items), hasMore: rest.hasMore }).to.deep.equal({ ids: [a.loanDisabled.id], hasMore: false });
        const all = await expectRight(store().accounts.list(USER, { limit: 3 }, { type: 'loan' }));
        expect(all.hasMore).to.equal(false);
        const disabled = await expectRight(store().accounts.list(USER, { limit: 1 }, { status: 'disabled' }));
        expect({ ids: idsOf(disabled.items), hasMore: disabled.hasMore }).to.deep.equal({ ids: [a.loanDisabled.id], hasMore: false });
      });
    });

    it('listAll returns every account of the user ascending by id, beyond any page size', async () => {
      const created: AccountRecord[] = [];
      for (let i = 0; i < 105; i++) created.push(await expectRight(store().accounts.create(anAccount(i % 7 === 3 ? OTHER_USER : USER))));
      const all = await expectRight(store().accounts.listAll(USER));
      expect(all).to.deep.equal(created.filter((a) => a.user_id === USER));
      expect(await expectRight(store().accounts.listAll(anId('user', 99)))).to.deep.equal([]);
    });

    it('update returns the updated account and changes only the given fields', async () => {
      const account = await expectRight(store().accounts.create(anAccount(USER)));
      const patch: AccountPatch = { nickname: 'Groceries', user_apr: 9.9, status: 'disabled', balance: cents(100) };
      const updated = await expectSome(store().accounts.update(USER, account.id, account.version, patch));
      expect(AccountRecord.is(updated)).to.equal(true);
      expect(updated).to.deep.equal({ ...account, ...patch, version: account.version + 1 });
      expect(await expectSome(store().accounts.get(USER, account.id))).to.deep.equal(updated);
    });

    it('update can set a field to null and replace the payment history; an empty patch changes nothing', async () => {
      const account = await expectRight(store().accounts.create(anAccount(USER, { nickname: 'Old' })));
      const patch: AccountPatch = { nickname: null, last_payment_date: isoDate('2024-07-01'), payments_history: ['2', '1'] };
      const updated = await expectSome(store().accounts.update(USER, account.id, account.version, patch));
      expect(updated).to.deep.equal({ ...account, ...patch, version: 2 });
      expect(await expectSome(store().accounts.update(USER, account.id, updated.version, {}))).to.deep.equal({ ...updated, version: 3 });
    });

    it('update: a patch key whose value is undefined leaves that field unchanged', async () => {
      const account = await expectRight(store().accounts.create(anAccount(USER, { nickname: 'Keep' })));
      const updated = await expectSome(
        store().accounts.update(USER, account.id, account.version, { nickname: undefined, status: 'disabled' }),
      );
      expect(updated).to.deep.equal({ ...account, status: 'disabled', version: 2 });
    });

    it('update of an unknown id → none', async () => {
      await expectNone(store().accounts.update(USER, anId('account', 7), 1, { nickname: 'Ghost' }));
      await expectNone(store().accounts.get(USER, anId('account', 7)));
    });

    it('update does not change the other accounts, and keeps the list order', async () => {
      const a = await expectRight(store().accounts.create(anAccount(USER)));
      const b = await expectRight(store().accounts.create(anAccount(USER)));
      const updated = await expectSome(
        store().accounts.update(USER, a.id, a.version, { status: 'closed', closed_at: isoDate('2024-07-01') }),
      );
      expect(await expectRight(store().accounts.listAll(USER))).to.deep.equal([updated, b]);
    });

    it("deleteAllForUser removes only that user's accounts and counts them", async () => {
      const mine1 = await expectRight(store().accounts.create(anAccount(USER)));
      const theirs = await expectRight(store().accounts.create(anAccount(OTHER_USER)));
      await expectRight(store().accounts.create(anAccount(USER)));
      expect(await expectRight(store().accounts.deleteAllForUser(USER))).to.equal(2);
      await expectNone(store().accounts.get(USER, mine1.id));
      expect(await expectRight(store().accounts.listAll(USER))).to.deep.equal([]);
      expect(await expectRight(store().accounts.list(USER, { limit: 20 }, {}))).to.deep.equal({ items: [], hasMore: false });
      expect(await expectRight(store().accounts.listAll(OTHER_USER))).to.deep.equal([theirs]);
      expect(await expectRight(store().accounts.deleteAllForUser(USER))).to.equal(0);
    });

    it('ids are not reused after deleteAllForUser', async () => {
      const a = await expectRight(store().accounts.create(anAccount(USER)));
      await expectRight(store().accounts.deleteAllForUser(USER));
      const b = await expectRight(store().accounts.create(anAccount(USER)));
      expectAscending([a.id, b.id]);
    });

    it('a returned account is a copy or frozen: changing it (or the input) does not change the store', async () => {
      const input = anAccount(USER);
      const history = [...input.payments_history];
      const account = await expectRight(store().accounts.create(input));
      input.payments_history.push('9');
      tryToChange(() => account.payments_history.push('8'));
      tryToChange(() => (account.balance = cents(1)));
      const found = await expectSome(store().accounts.get(USER, account.id));
      tryToChange(() => (found.payments_history[0] = '7'));
      tryToChange(() => (found.nickname = 'changed read'));
      const listed = await expectRight(store().accounts.listAll(USER));
      tryToChange(() => listed[0]?.payments_history.pop());
      const updated = await expectSome(store().accounts.update(USER, account.id, 1, { status: 'disabled' }));
      tryToChange(() => (updated.payments_history.length = 0));
      const expected = { ...anAccount(USER), id: account.id, status: 'disabled', payments_history: history, version: 2 };
      expect(await expectSome(store().accounts.get(USER, account.id))).to.deep.equal(expected);
    });

    it('a patch is copied: changing its array afterwards does not change the store', async () => {
      const account = await expectRight(store().accounts.create(anAccount(USER)));
      const patch: { payments_history: PaymentCode[] } = { payments_history: ['1', '2'] };
      await expectSome(store().accounts.update(USER, account.id, account.version, patch));
      patch.payments_history.push('3');
      expect((await expectSome(store().accounts.get(USER, account.id))).payments_history).to.deep.equal(['1', '2']);
    });

    it('update is a compare-and-set: a stale version is a conflict and changes nothing', async () => {
      const account = await expectRight(store().accounts.create(anAccount(USER)));
      const closed = await expectSome(
        store().accounts.update(USER, account.id, account.version, { status: 'closed', closed_at: isoDate('2024-07-01') }),
      );
      // A writer that read version 1 before the close must not undo it.
      await expectLeft(store().accounts.update(USER, account.id, account.version, { status: 'active', nickname: 'x' }), 'conflict');
      expect(await expectSome(store().accounts.get(USER, account.id))).to.deep.equal(closed);
      await expectLeft(store().accounts.update(USER, account.id, closed.version + 1, { nickname: 'x' }), 'conflict');
    });

    it('update: of concurrent writers from one version exactly one wins', async () => {
      const account = await expectRight(store().accounts.create(anAccount(USER)));
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => run(store().accounts.update(USER, account.id, account.version, { nickname: `writer ${i}` }))),
      );
      const winners = results.filter(E.isRight);
      expect(winners).to.have.length(1);
      expect(results.filter((r) => E.isLeft(r) && r.left._tag === 'conflict')).to.have.length(7);
      const stored = await expectSome(store().accounts.get(USER, account.id));
      expect(stored.version).to.equal(2);
      expect(winners[0]?.right).to.deep.equal(O.some(stored));
    });

    it('applyPayment lowers the balance, sets the last payment, bumps the version; never below 0', async () => {
      const account = await expectRight(store().accounts.create(anAccount(USER, { balance: cents(1_000) })));
      const payment = { amount: cents(300), date: isoDate('2024-07-02'), updatedOn: isoDate('2024-07-03') };
      const paid = await expectSome(store().accounts.applyPayment(USER, account.id, payment));
      expect(paid).to.deep.equal({
        ...account,
        balance: 700,
        last_payment_amount: 300,
        last_payment_date: '2024-07-02',
        last_updated_at: '2024-07-03',
        version: 2,
      });
      const emptied = await expectSome(store().accounts.applyPayment(USER, account.id, { ...payment, amount: cents(5_000) }));
      expect(emptied.balance).to.equal(0);
      expect(emptied.last_payment_amount).to.equal(5_000);
      expect(await expectSome(store().accounts.get(USER, account.id))).to.deep.equal(emptied);
      await expectNone(store().accounts.applyPayment(USER, anId('account', 404), payment));
      await expectNone(store().accounts.applyPayment(OTHER_USER, account.id, payment));
    });

    it('applyPayment: N concurrent payments lower the balance by exactly their sum (no lost update)', async () => {
      const account = await expectRight(store().accounts.create(anAccount(USER, { balance: cents(100_000) })));
      const payment = { amount: cents(100), date: isoDate('2024-07-02'), updatedOn: isoDate('2024-07-02') };
      await Promise.all(Array.from({ length: 40 }, () => expectSome(store().accounts.applyPayment(USER, account.id, payment))));
      const stored = await expectSome(store().accounts.get(USER, account.id));
      expect(stored.balance).to.equal(100_000 - 40 * 100);
      expect(stored.version).to.equal(41);
    });

    it('round-trips the statement terms (docs/decisions/payoff-and-outlook.md), and a record without them has none of their keys', async () => {
      const card = await expectRight(store().accounts.create(aSegmentedCard(USER, { escrow_payment: null })));
      expect(await expectSome(store().accounts.get(USER, card.id))).to.deep.equal(card);
      expect(card.apr_segments).to.have.length(2);
      const plain = await expectRight(store().accounts.create(anAccount(USER)));
      expect(await expectSome(store().accounts.get(USER, plain.id))).to.not.have.any.keys(
        'interest_method',
        'minimum_payment_formula',
        'apr_segments',
        'escrow_payment',
        'accrued_interest',
      );
    });

    it('applyPayment leaves an account with segments or accrued interest as stored and answers it (the caller allocates, docs/decisions/payoff-and-outlook.md)', async () => {
      const card = await expectRight(store().accounts.create(aSegmentedCard(USER)));
      const loan = await expectRight(store().accounts.create(anAccount(USER, { subtype: 'student_loan', accrued_interest: cents(1_200) })));
      const payment = { amount: cents(300), date: isoDate('2024-07-02'), updatedOn: isoDate('2024-07-03') };
      expect(await expectSome(store().accounts.applyPayment(USER, card.id, payment))).to.deep.equal(card);
      expect(await expectSome(store().accounts.applyPayment(USER, loan.id, payment))).to.deep.equal(loan);
      expect(await expectSome(store().accounts.get(USER, card.id))).to.deep.equal(card);
      // Accrued interest of 0 is nothing to allocate: the plain step.
      const none = await expectRight(store().accounts.create(anAccount(USER, { accrued_interest: cents(0), balance: cents(1_000) })));
      expect((await expectSome(store().accounts.applyPayment(USER, none.id, payment))).balance).to.equal(700);
    });

    it('update writes segments with their balance: of concurrent writers from one version exactly one wins, and balance stays their sum', async () => {
      const card = await expectRight(store().accounts.create(aSegmentedCard(USER)));
      const writes = [100, 200, 300].map((paid) => {
        const [purchase, transfer] = card.apr_segments!;
        return store().accounts.update(USER, card.id, card.version, {
          balance: cents(card.balance - paid),
          apr_segments: [{ ...purchase!, balance: cents(purchase!.balance - paid) }, transfer!],
        });
      });
      const results = await Promise.all(writes.map(run));
      expect(results.filter(E.isRight)).to.have.length(1);
      const stored = await expectSome(store().accounts.get(USER, card.id));
      expect(stored.balance).to.equal(stored.apr_segments!.reduce((sum, s) => sum + s.balance, 0));
      expect(stored.version).to.equal(card.version + 1);
    });

    it('applyPayment: concurrent payments over the balance stop at exactly 0', async () => {
      const account = await expectRight(store().accounts.create(anAccount(USER, { balance: cents(250) })));
      const payment = { amount: cents(100), date: isoDate('2024-07-02'), updatedOn: isoDate('2024-07-02') };
      await Promise.all(Array.from({ length: 6 }, () => expectSome(store().accounts.applyPayment(USER, account.id, payment))));
      expect((await expectSome(store().accounts.get(USER, account.id))).balance).to.equal(0);
    });
  });
}
