import { expect } from 'chai';
import { Account, toAccountView } from '../src/accounts/account.js';
import { User } from '../src/users/user.js';
import { redactEvent, redactObject, erasedUserView, deliverableAfterErasure } from '../src/index.js';
import { EVENT_TYPES, type WebhookEvent } from '../src/webhooks/webhook.js';
import { anAccount } from '../src/accounts/record-mothers.js';
import { anId, CREATED_AT, TODAY } from '../src/testing/record-mothers.js';

const user: User = {
  id: anId('user', 7),
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.org',
  date_of_birth: '1815-12-10' as User['date_of_birth'],
  phone: '+44 20 7946 0000',
  created_at: CREATED_AT,
};

describe('erasure redaction (docs/decisions/tenancy.md)', () => {
  it('user.deleted in 2024-07-01: "" for last_name, null for the other personal fields, ids and created_at kept', () => {
    expect(erasedUserView(user)).to.deep.equal({
      id: 7,
      first_name: null,
      last_name: '',
      email: null,
      date_of_birth: null,
      phone: null,
      created_at: CREATED_AT,
    });
    expect(User.is(erasedUserView(user))).to.equal(true);
    expect(user.last_name, 'the argument is not changed').to.equal('Lovelace');
  });

  it('an account keeps its id, type, subtype, status and last_updated_at; the rest is emptied and still an Account', () => {
    const record = {
      ...anAccount(anId('user', 7), {
        name: 'Card',
        mask: '1234' as never,
        nickname: 'Mine',
        institution_name: 'Bank',
        payments_history: ['1', '2'] as never,
      }),
      id: anId('account', 3),
      version: 1,
    };
    const view = toAccountView(record as never, TODAY);
    const redacted = redactObject('account', view);
    expect(Account.is(redacted), JSON.stringify(redacted)).to.equal(true);
    expect(Object.keys(redacted)).to.deep.equal(Object.keys(view));
    expect(redacted).to.include({
      id: 3,
      type: view.type,
      subtype: view.subtype,
      status: view.status,
      last_updated_at: view.last_updated_at,
      name: '',
      mask: null,
      nickname: null,
      balance: 0,
      institution_name: null,
    });
    expect(redacted.payments_history).to.deep.equal([]);
  });

  it('an event of a kind without personal fields passes unchanged; a credit score loses its last_name only', () => {
    const event = (type: WebhookEvent['type'], object: Record<string, unknown>): WebhookEvent => ({
      id: anId('event', 1),
      type,
      created_at: CREATED_AT,
      api_version: '2024-07-01',
      data: { user_id: anId('user', 7), object },
    });
    const plan = event('payment_plan.created', { id: 1, monthly_payment: 500 });
    expect(redactEvent(plan)).to.equal(plan);
    expect(redactEvent(event('credit_score.created', { id: 1, last_name: 'Lovelace', score: 700 })).data.object).to.deep.equal({
      id: 1,
      last_name: null,
      score: 700,
    });
    // A field an older version's shape lacks stays absent.
    expect(redactEvent(event('user.deleted', { id: 7, last_name: 'Lovelace' })).data.object).to.deep.equal({ id: 7, last_name: '' });
  });

  it("only the erasure's own user.deleted is delivered after it", () => {
    expect(EVENT_TYPES.filter(deliverableAfterErasure)).to.deep.equal(['user.deleted']);
  });
});
