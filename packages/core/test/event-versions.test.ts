/**
 * Events through versions (docs/decisions/versioning.md, docs/decisions/webhooks.md): a change to a resource changes the
 * events carrying it (`withEventObjectTransforms`, by `EVENT_OBJECT_KIND`);
 * `renderEvent` renders a stored event for a reader's version, or serves an
 * event stored before render contexts as stored; 2026-11-26's `user.deleted`
 * carries ids only and 2024-07-01 keeps the emptied user byte for byte.
 */
import { expect } from 'chai';
import {
  EVENT_OBJECT_KIND,
  EVENT_TYPES,
  ResponseKind,
  erasedUserView,
  makeVersioning,
  renameField,
  renderEvent,
  userDeletedEvent,
  versioning,
  type EventRecord,
  idOf,
  type Timestamp,
  type User,
} from '../src/index.js';

const stored = (overrides: Partial<EventRecord>): EventRecord => ({
  id: idOf('event', 5),
  type: 'account.created',
  created_at: '2026-11-26T10:00:00.000Z' as Timestamp,
  api_version: '2025-01-01',
  data: { user_id: idOf('user', 3), object: { id: 9, nickname: 'Main' } },
  client_id: idOf('client', 1),
  expires_at: '2026-12-26T10:00:00.000Z' as Timestamp,
  fanned_out: true,
  render_context: {},
  ...overrides,
});

/** 2025-01-01 renamed the account's `alias` to `nickname`. */
const registry = makeVersioning([
  { version: '2024-07-01', changes: [] },
  {
    version: '2025-01-01',
    changes: [{ version: '2025-01-01', description: 'alias → nickname', transforms: { account: renameField('nickname', 'alias') } }],
  },
]);

describe('events through versions', () => {
  it('every event type names a response kind', () => {
    expect(Object.keys(EVENT_OBJECT_KIND)).to.have.members([...EVENT_TYPES]);
    for (const kind of Object.values(EVENT_OBJECT_KIND)) expect(ResponseKind.is(kind), kind).to.equal(true);
  });

  it("a change to a resource's kind transforms the object of the events that carry it, and no other", () => {
    const account = stored({});
    expect(renderEvent(registry, account, '2024-07-01')).to.deep.equal({
      id: 5,
      type: 'account.created',
      created_at: account.created_at,
      api_version: '2024-07-01',
      data: { user_id: 3, object: { id: 9, alias: 'Main' } },
    });
    const plan = stored({ type: 'payment_plan.created', data: { user_id: idOf('user', 3), object: { id: 2, nickname: 'kept' } } });
    expect(renderEvent(registry, plan, '2024-07-01').data.object).to.deep.equal({ id: 2, nickname: 'kept' });
    // The latest version: the stored event itself (its view).
    expect(renderEvent(registry, account, '2025-01-01').data.object).to.deep.equal({ id: 9, nickname: 'Main' });
  });

  it('an event stored before render contexts is served as stored, in the version it names, whatever is asked', () => {
    const { render_context: _none, ...legacyRecord } = stored({
      api_version: '2024-07-01',
      data: { user_id: idOf('user', 3), object: { id: 9, alias: 'Old' } },
    });
    for (const version of ['2024-07-01', '2025-01-01']) {
      const view = renderEvent(registry, legacyRecord, version);
      expect(view.api_version, version).to.equal('2024-07-01');
      expect(view.data.object, version).to.deep.equal({ id: 9, alias: 'Old' });
    }
  });

  describe('2026-11-26: user.deleted carries ids only', () => {
    const user: User = {
      id: idOf('user', 42),
      first_name: 'Jane',
      last_name: 'Doe',
      email: 'jane@example.com',
      date_of_birth: '1990-12-10' as never,
      phone: '+15550100',
      created_at: '2026-01-02T03:04:05.000Z' as Timestamp,
    };
    const { object, context } = userDeletedEvent(erasedUserView(user));
    const event = stored({
      type: 'user.deleted',
      api_version: '2026-11-26',
      data: { user_id: idOf('user', 42), object },
      render_context: context,
    });

    it('is { id } in 2026-11-26, and its context holds nothing personal', () => {
      expect(renderEvent(versioning, event, '2026-11-26').data.object).to.deep.equal({ id: 42 });
      expect(JSON.stringify(context)).not.to.match(/Jane|Doe|jane@|1990|5550100/);
    });

    it('is the emptied user in 2024-07-01, byte for byte as before the release', () => {
      const old = renderEvent(versioning, event, '2024-07-01');
      expect(old.api_version).to.equal('2024-07-01');
      expect(JSON.stringify(old.data.object)).to.equal(JSON.stringify(erasedUserView(user)));
      expect(JSON.stringify(old.data.object)).to.equal(
        '{"id":42,"first_name":null,"last_name":"","email":null,"date_of_birth":null,"phone":null,"created_at":"2026-01-02T03:04:05.000Z"}',
      );
    });

    it('other event types pass the change untouched', () => {
      const account = stored({ api_version: '2026-11-26' });
      expect(renderEvent(versioning, account, '2024-07-01').data.object).to.deep.equal(account.data.object);
    });
  });
});
