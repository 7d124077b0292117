/**
 * Contract of `AuditLog` (docs/operations.md): run against every store adapter.
 * Appended in order, listed ascending by id across everything, filtered by
 * action, expired records never answered, and part of the transaction it is
 * appended in (an aborted change leaves no record).
 */
import { expect } from 'chai';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { pipe } from 'fp-ts/lib/function.js';
import { AuditRecord, type AuditAction } from './audit.js';
import { validationError } from '../shared/errors.js';
import type { NewAuditRecord } from './audit-log.js';
import {
  StoreContractOptions,
  StoreFactory,
  expectAscending,
  expectLeft,
  expectRight,
  tryToChange,
  useFreshStore,
} from '../testing/contract-harness.js';
import { anId, timestamp } from '../testing/record-mothers.js';
import type { Id } from '../shared/primitives.js';

const AT = timestamp('2026-03-15T12:00:00.000Z');
const A_YEAR_LATER = timestamp('2027-03-15T12:00:00.000Z');
const NOW = new Date(AT);

const aRecord = (action: AuditAction, id: number, overrides: Partial<NewAuditRecord> = {}): NewAuditRecord => ({
  at: AT,
  action,
  target: { type: action.startsWith('client') ? 'client' : 'token', id: anId(action.startsWith('client') ? 'client' : 'token', id) },
  request_id: `req-${id}`,
  ip: '203.0.113.9',
  expires_at: A_YEAR_LATER,
  ...overrides,
});

export function auditLogContract(name: string, makeStore: StoreFactory, opts: StoreContractOptions = {}): void {
  describe(`${name} AuditLog contract`, () => {
    const store = useFreshStore(makeStore, opts);

    it('append stores a record with a new id and lists it back exactly', async () => {
      const appended = await expectRight(store().audit.append(aRecord('client.created', 1)));
      expect(AuditRecord.is(appended)).to.equal(true);
      expect(appended).to.deep.equal({ id: appended.id, ...aRecord('client.created', 1) });
      const cli = await expectRight(store().audit.append(aRecord('token.issued', 2, { request_id: null, ip: null })));
      const page = await expectRight(store().audit.list({ limit: 10 }, {}, NOW));
      expect(page).to.deep.equal({ items: [appended, cli], hasMore: false });
    });

    it('lists ascending by id, paged, and filtered by action', async () => {
      const actions: AuditAction[] = ['client.created', 'token.issued', 'token.rolled', 'token.issued', 'token.revoked', 'token.issued'];
      const ids: Id[] = [];
      for (const [i, action] of actions.entries()) ids.push((await expectRight(store().audit.append(aRecord(action, i + 1)))).id);
      expectAscending(ids);
      const first = await expectRight(store().audit.list({ limit: 4 }, {}, NOW));
      expect([first.items.map((r) => r.id), first.hasMore]).to.deep.equal([ids.slice(0, 4), true]);
      const rest = await expectRight(store().audit.list({ limit: 4, startingAfter: ids[3]! }, {}, NOW));
      expect([rest.items.map((r) => r.id), rest.hasMore]).to.deep.equal([ids.slice(4), false]);
      const issued = await expectRight(store().audit.list({ limit: 2 }, { action: 'token.issued' }, NOW));
      expect([issued.items.map((r) => r.id), issued.hasMore]).to.deep.equal([[ids[1], ids[3]], true]);
      const lastIssued = await expectRight(store().audit.list({ limit: 2, startingAfter: ids[3]! }, { action: 'token.issued' }, NOW));
      expect(lastIssued.items.map((r) => r.id)).to.deep.equal([ids[5]]);
    });

    it('a record is not answered once expired at `now` (kept a year)', async () => {
      const old = await expectRight(
        store().audit.append(aRecord('token.revoked', 1, { expires_at: timestamp('2026-03-15T12:00:01.000Z') })),
      );
      const kept = await expectRight(store().audit.append(aRecord('token.revoked', 2)));
      expect((await expectRight(store().audit.list({ limit: 10 }, {}, NOW))).items.map((r) => r.id)).to.deep.equal([old.id, kept.id]);
      const later = new Date('2026-03-15T12:00:01.000Z');
      expect((await expectRight(store().audit.list({ limit: 10 }, {}, later))).items.map((r) => r.id)).to.deep.equal([kept.id]);
      expect((await expectRight(store().audit.list({ limit: 10 }, {}, new Date(A_YEAR_LATER)))).items).to.deep.equal([]);
    });

    it('is part of the transaction it is appended in: an aborted change leaves no record, a committed one its record', async () => {
      await expectLeft(
        store().unitOfWork.run((tx) =>
          pipe(
            tx.audit.append(aRecord('token.revoked', 1)),
            TE.chainW(() => TE.left(validationError('the change fails after its audit record'))),
          ),
        ),
        'validation_error',
      );
      expect((await expectRight(store().audit.list({ limit: 10 }, {}, NOW))).items).to.deep.equal([]);
      const committed = await expectRight(store().unitOfWork.run((tx) => tx.audit.append(aRecord('token.revoked', 2))));
      expect((await expectRight(store().audit.list({ limit: 10 }, {}, NOW))).items).to.deep.equal([committed]);
    });

    it('a returned record is a copy: changing it does not change the store', async () => {
      const appended = await expectRight(store().audit.append(aRecord('client.created', 1)));
      tryToChange(() => ((appended.target as { id: number }).id = 99));
      const [listed] = (await expectRight(store().audit.list({ limit: 1 }, {}, NOW))).items;
      tryToChange(() => ((listed as { action: string }).action = 'token.rolled'));
      expect((await expectRight(store().audit.list({ limit: 1 }, {}, NOW))).items).to.deep.equal([
        { id: appended.id, ...aRecord('client.created', 1) },
      ]);
    });
  });
}
