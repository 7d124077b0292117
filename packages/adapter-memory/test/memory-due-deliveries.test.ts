/**
 * A claim is not a scan (docs/decisions/tenancy.md, fair webhooks; issue 42): with many
 * deliveries stored and few armed, the memory store's claim reads the armed
 * ones (memory-due-deliveries.ts), not every delivery ever stored. Counted in
 * records read, not in time. And the index follows commits: a delivery a
 * transaction arms is claimable once it commits, never if it aborts.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { idOf, type DomainError, type Timestamp } from '@debtkit/core';
import { aDelivery } from '@debtkit/core/testing';
import { MemoryTable } from '../src/memory-database.js';
import { createMemoryStore } from '../src/index.js';

const T0 = new Date('2026-03-15T12:00:00.000Z');
const lease = (token: string) => ({ token, until: new Date(T0.getTime() + 60_000).toISOString() as Timestamp });
const ANY = { busyEndpoints: [], busyClients: [] };

const run = async <A>(te: TE.TaskEither<DomainError, A>): Promise<A> => {
  const r = await te();
  if (E.isLeft(r)) throw new Error(`expected Right, got ${JSON.stringify(r.left)}`);
  return r.right;
};

/** Records the memory tables hand out (by `get` and by iterating `values`) while `during` runs. */
const recordsRead = async (during: () => Promise<unknown>): Promise<number> => {
  const proto = MemoryTable.prototype as unknown as { get: (...a: unknown[]) => unknown; values: (...a: unknown[]) => Iterable<unknown> };
  const { get, values } = proto;
  let read = 0;
  proto.get = function countedGet(this: unknown, ...a: unknown[]) {
    read += 1;
    return get.apply(this, a);
  };
  proto.values = function* countedValues(this: unknown, ...a: unknown[]) {
    for (const v of values.apply(this, a)) {
      read += 1;
      yield v;
    }
  };
  try {
    await during();
  } finally {
    proto.get = get;
    proto.values = values;
  }
  return read;
};

describe('memory store: armed webhook deliveries are indexed', () => {
  it('a claim reads the armed deliveries, not the 20,000 delivered ones stored beside them', async () => {
    const store = createMemoryStore();
    const busy = idOf('client', 1);
    const light = idOf('client', 2);
    const many = Array.from({ length: 20_000 }, (_, i) =>
      aDelivery(busy, idOf('webhook_endpoint', 1), idOf('event', i + 1), {
        created_at: T0.toISOString() as Timestamp,
        next_attempt_at: T0.toISOString() as Timestamp,
      }),
    );
    await run(store.webhookDeliveries.createMany(many));
    // All sent: they stay stored (listed until they expire) but are no longer armed.
    for (;;) {
      const claimed = await run(store.webhookDeliveries.claimDue(T0, lease('w'), ANY));
      if (O.isNone(claimed)) break;
      await run(
        store.webhookDeliveries.complete(claimed.value.id, 'w', {
          status: 'succeeded',
          attempts: 1,
          last_response_status: 200,
          next_attempt_at: null,
        }),
      );
    }
    await run(
      store.webhookDeliveries.createMany([
        aDelivery(light, idOf('webhook_endpoint', 2), idOf('event', 1), { next_attempt_at: T0.toISOString() as Timestamp }),
      ]),
    );
    let claimed: O.Option<{ readonly client_id: number }> = O.none;
    const read = await recordsRead(async () => {
      claimed = await run(store.webhookDeliveries.claimDue(T0, lease('x'), ANY));
    });
    expect(O.isSome(claimed) && claimed.value.client_id).to.equal(light);
    expect(read, 'records read by one claim').to.be.at.most(5);
    expect(await run(store.webhookDeliveries.countArmed(light, T0))).to.equal(1);
    expect(await run(store.webhookDeliveries.countArmed(busy, T0))).to.equal(0);
  });

  it('a delivery armed in a transaction is claimable once it commits, never when it aborts', async () => {
    const store = createMemoryStore();
    const client = idOf('client', 1);
    const inTx = (eventId: number, outcome: 'commit' | 'abort') =>
      run(
        store.unitOfWork.run((tx) => async () => {
          const made = await tx.webhookDeliveries.createMany([
            aDelivery(client, idOf('webhook_endpoint', 1), idOf('event', eventId), { next_attempt_at: T0.toISOString() as Timestamp }),
          ])();
          return E.isLeft(made)
            ? made
            : outcome === 'commit'
              ? E.right(undefined)
              : E.left<DomainError>({ _tag: 'validation_error', message: 'abort' });
        }),
      ).catch(() => undefined);
    await inTx(1, 'abort');
    expect(O.isNone(await run(store.webhookDeliveries.claimDue(T0, lease('a'), ANY))), 'nothing from an aborted transaction').to.equal(
      true,
    );
    await inTx(2, 'commit');
    const claimed = await run(store.webhookDeliveries.claimDue(T0, lease('b'), ANY));
    expect(O.isSome(claimed) && claimed.value.event_id).to.equal(2);
  });
});
