import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { AccountRecord, AccountStatus, Mask, accountViewKey, toAccountView, transitionStatus } from '../src/accounts/account.js';
import { IsoDate } from '../src/shared/primitives.js';

const record = (over: Partial<AccountRecord> = {}): AccountRecord => {
  const base = {
    id: 3,
    user_id: 1,
    name: 'Loan',
    type: 'loan',
    subtype: 'personal_loan',
    mask: '0042',
    status: 'active',
    nickname: null,
    apr: 12,
    minimum_payment: 10_000,
    user_apr: null,
    user_minimum_payment: null,
    original_loan_amount: null,
    balance: 100_000,
    limit: null,
    last_payment_amount: null,
    last_payment_date: null,
    opened_at: null,
    closed_at: null,
    institution_name: null,
    institution_logo: null,
    next_payment_due_date: null,
    user_next_payment_date: null,
    first_time_payment: null,
    payments_history: ['1', '2'],
    last_updated_at: '2026-01-31',
    created_at: '2026-01-31T00:00:00.000Z',
    version: 1,
    ...over,
  };
  if (!AccountRecord.is(base)) throw new Error('invalid test record');
  return base;
};

describe('account', () => {
  describe('status transitions (active ⇄ disabled, → closed terminal)', () => {
    const table: ReadonlyArray<[AccountStatus, AccountStatus, AccountStatus | 'conflict']> = [
      ['active', 'active', 'active'],
      ['active', 'disabled', 'disabled'],
      ['active', 'closed', 'closed'],
      ['disabled', 'active', 'active'],
      ['disabled', 'disabled', 'disabled'],
      ['disabled', 'closed', 'closed'],
      ['closed', 'active', 'conflict'],
      ['closed', 'disabled', 'conflict'],
      ['closed', 'closed', 'closed'],
    ];
    for (const [from, to, expected] of table) {
      it(`${from} → ${to}: ${expected}`, () => {
        const r = transitionStatus(from, to);
        if (expected === 'conflict') expect(E.isLeft(r) && r.left._tag).to.equal('conflict');
        else expect(r).to.deep.equal(E.right(expected));
      });
    }
  });

  it('accepts a 4-digit mask only', () => {
    expect(['0000', '1234'].map(Mask.is)).to.deep.equal([true, true]);
    expect(['123', '12345', '12a4', ' 123', ''].map(Mask.is)).to.deep.equal([false, false, false, false, false]);
  });

  describe('the API view', () => {
    const today = '2026-01-31' as IsoDate;

    it('is named by its key: the account, its version and the day (a write or a new day is another key)', () => {
      const a = record();
      const key = accountViewKey(a, today);
      expect(key).to.equal(`${a.id}@${a.version}@2026-01-31`);
      expect(accountViewKey({ ...a, version: a.version + 1 } as AccountRecord, today)).to.not.equal(key);
      expect(accountViewKey(a, '2026-02-01' as IsoDate)).to.not.equal(key);
      expect(accountViewKey({ ...a, id: (a.id + 1) as never } as AccountRecord, today)).to.not.equal(key);
    });
    it("prefers the user's APR and minimum over the institution's", () => {
      const view = toAccountView(record({ user_apr: 5, user_minimum_payment: 20_000 as never }), today);
      expect(view).to.deep.include({ effective_apr: 5, effective_minimum_payment: 20_000 });
    });

    it('projects the payoff date paying only the minimum, the day clamped to month end', () => {
      // 100,000 at 12% (1%/month) paying 10,000: 11 months (the last one smaller).
      expect(toAccountView(record(), today).expected_payoff_date).to.equal('2026-12-31');
    });

    it('has no payoff date without data, with a zero balance, or when it never pays off', () => {
      expect(toAccountView(record({ apr: null }), today).expected_payoff_date).to.equal(null);
      expect(toAccountView(record({ minimum_payment: null }), today).expected_payoff_date).to.equal(null);
      expect(toAccountView(record({ balance: 0 as never }), today).expected_payoff_date).to.equal(null);
      expect(toAccountView(record({ minimum_payment: 1_000 as never }), today).expected_payoff_date).to.equal(null);
    });

    it('lists every spec field and nothing internal', () => {
      const view = toAccountView(record(), today);
      expect(view).not.to.have.any.keys('user_id', 'created_at', 'apr', 'minimum_payment', 'version');
      // The spec's 26 fields, and the institution's terms under their Account names (2026-11-26, docs/api/changelog.md).
      expect(view).to.include.keys('institution_apr', 'institution_minimum_payment');
      // And the statement terms of docs/decisions/payoff-and-outlook.md, null when absent.
      expect(view).to.deep.include({
        interest_method: null,
        minimum_payment_formula: null,
        apr_segments: null,
        escrow_payment: null,
        accrued_interest: null,
      });
      expect(Object.keys(view)).to.have.length(33);
    });
  });
});
