/**
 * Events recorded by the use cases (docs/decisions/webhooks.md), with no HTTP: the event is
 * stored in the latest shape and rendered in the version asked for through the
 * versioning registry (docs/decisions/versioning.md), and a change that fails records nothing.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { createApplication, makeVersioning, idOf, renameField, type DomainError, type Timestamp } from '@debtkit/core';
import { sequentialSecrets } from '@debtkit/core/testing';
import { SandboxCreditBureau, createMemoryStore } from '../src/index.js';

const clock = { now: () => new Date('2026-03-15T12:00:00.000Z') };
const run = async <A>(te: TE.TaskEither<DomainError, A>): Promise<A> => {
  const r = await te();
  if (E.isLeft(r)) throw new Error(`expected Right, got ${JSON.stringify(r.left)}`);
  return r.right;
};

/** A registry where 2025-01-01 renamed the account's `alias` to `nickname`. */
const registry = makeVersioning([
  { version: '2024-07-01', changes: [] },
  {
    version: '2025-01-01',
    changes: [{ version: '2025-01-01', description: 'alias → nickname', transforms: { account: renameField('nickname', 'alias') } }],
  },
]);

describe('events recorded by the use cases', () => {
  const setUp = async (pinned: string) => {
    const store = createMemoryStore();
    const app = createApplication({
      ...store,
      clock,
      bureau: new SandboxCreditBureau(),
      secrets: sequentialSecrets(),
      versioning: registry,
    });
    const client = await run(
      store.clients.create({ name: 'c', environment: 'sandbox', api_version: pinned, created_at: '2026-03-15T12:00:00.000Z' as Timestamp }),
    );
    const user = await run(app.createUser(client.id, { last_name: 'Doe' }));
    return { store, app, scope: { clientId: client.id, userId: user.id } };
  };
  const body = { name: 'Card', type: 'loan' as const, subtype: 'credit_card_loan' as const, balance: 100 as never, nickname: 'Main' };

  it('stores the event in the latest shape and renders it in the version asked for, saying which', async () => {
    const old = await setUp('2024-07-01');
    const account = await run(old.app.linkAccount(old.scope, body));
    expect(account).to.have.property('nickname', 'Main');
    const [stored] = (await run(old.store.events.list(old.scope.clientId, { limit: 5 }, {}, clock.now()))).items;
    expect(stored).to.include({ api_version: '2025-01-01' }).and.to.have.deep.property('render_context', {});
    expect(stored?.data.object).to.include({ nickname: 'Main' });
    const [event] = (await run(old.app.listEvents(old.scope.clientId, {}, '2024-07-01'))).items;
    expect(event?.api_version).to.equal('2024-07-01');
    expect(event?.data.object).to.include({ alias: 'Main', id: account.id }).and.not.have.property('nickname');
    expect(await run(old.app.getEvent(old.scope.clientId, event!.id, '2024-07-01'))).to.deep.equal(event);

    const [latest] = (await run(old.app.listEvents(old.scope.clientId, {}, '2025-01-01'))).items;
    expect(latest?.api_version).to.equal('2025-01-01');
    expect(latest?.data.object).to.include({ nickname: 'Main' }).and.not.have.property('alias');
  });

  it('an event stored before events had a render context is served as stored, in the version it names', async () => {
    const { store, app, scope } = await setUp('2024-07-01');
    // As releases before 2026-11-26 stored it: already rendered in the client's version, no render context.
    const legacy = await run(
      store.events.append({
        client_id: scope.clientId,
        type: 'account.created',
        created_at: clock.now().toISOString() as Timestamp,
        api_version: '2024-07-01',
        data: { user_id: scope.userId, object: { id: 9, alias: 'Old' } },
        expires_at: '2026-04-14T12:00:00.000Z' as Timestamp,
      }),
    );
    for (const version of ['2024-07-01', '2025-01-01']) {
      expect(await run(app.getEvent(scope.clientId, legacy.id, version)), version).to.deep.equal({
        id: legacy.id,
        type: 'account.created',
        created_at: legacy.created_at,
        api_version: '2024-07-01',
        data: { user_id: scope.userId, object: { id: 9, alias: 'Old' } },
      });
    }
  });

  it('a change that fails records no event; closing is account.closed only', async () => {
    const { app, scope } = await setUp('2025-01-01');
    const account = await run(app.linkAccount(scope, body));
    expect(E.isLeft(await app.updateAccount(scope, idOf('account', 999), { nickname: 'x' })())).to.equal(true);
    expect(E.isLeft(await app.deletePaymentPlan(scope, idOf('payment_plan', 5))())).to.equal(true);
    expect(E.isLeft(await app.deleteUser({ ...scope, userId: idOf('user', 77) })())).to.equal(true);
    await run(app.updateAccount(scope, account.id, { status: 'closed' }));
    expect(E.isLeft(await app.updateAccount(scope, account.id, { status: 'active' })())).to.equal(true);
    const types = (await run(app.listEvents(scope.clientId, {}, '2025-01-01'))).items.map((e) => e.type);
    expect(types).to.deep.equal(['account.created', 'account.closed']);
  });
});
