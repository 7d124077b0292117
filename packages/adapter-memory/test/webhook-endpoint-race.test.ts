/**
 * docs/decisions/transactions.md on the memory store with forced interleaving: another update lands
 * between the use case's read of a webhook endpoint and its write. Its
 * transaction loses (first writer wins), runs again from a fresh snapshot, and
 * neither change is lost; a race lost every time is `conflict`.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { createApplication, type DomainError, type Timestamp, type WebhookEndpointRepository } from '@debtkit/core';
import { sequentialSecrets } from '@debtkit/core/testing';
import { MemoryDatabase, SandboxCreditBureau, createMemoryStore } from '../src/index.js';

const clock = { now: () => new Date('2026-03-15T12:00:00.000Z') };
const run = async <A>(te: TE.TaskEither<DomainError, A>): Promise<A> => {
  const r = await te();
  if (E.isLeft(r)) throw new Error(`expected Right, got ${JSON.stringify(r.left)}`);
  return r.right;
};

/** The store's endpoints, with `interfere` run after each read completes and before the caller goes on. */
const interleaved = (inner: WebhookEndpointRepository, interfere: () => Promise<void>): WebhookEndpointRepository => ({
  create: (e) => inner.create(e),
  list: (c, p) => inner.list(c, p),
  listEnabled: (c) => inner.listEnabled(c),
  update: (c, id, v, p) => inner.update(c, id, v, p),
  delete: (c, id) => inner.delete(c, id),
  countForClient: (c) => inner.countForClient(c),
  get: (c, id) => async () => {
    const read = await inner.get(c, id)();
    await interfere();
    return read;
  },
});

describe('webhook endpoint update under forced interleaving (memory store)', () => {
  const setUp = async (interferences: number) => {
    const db = new MemoryDatabase();
    // A clock that moves 1 ms per reading and no random wait: the racing change gives up after its 50 ms deadline, deterministically.
    let ms = 0;
    const store = createMemoryStore(db, { deadlineMs: 50, now: () => ms++, random: () => 0 });
    // Another process on the same database: its changes are transactions of their own, never joined to the racing one.
    const elsewhere = createMemoryStore(db);
    const client = await run(
      store.clients.create({
        name: 'c',
        environment: 'sandbox',
        api_version: '2024-07-01',
        created_at: '2026-03-15T12:00:00.000Z' as Timestamp,
      }),
    );
    const plain = createApplication({ ...elsewhere, clock, bureau: new SandboxCreditBureau(), secrets: sequentialSecrets() });
    const endpoint = await run(plain.createWebhookEndpoint(client.id, { url: 'https://example.com/h' }));
    let left = interferences;
    let n = 0;
    const interfere = async (): Promise<void> => {
      if (left-- > 0) await run(plain.updateWebhookEndpoint(client.id, endpoint.id, { description: `other ${++n}` }));
    };
    // The racing use case's transaction reads through the interfering port; the other update commits in between.
    const racing = createApplication({
      ...store,
      unitOfWork: {
        run: (work) =>
          store.unitOfWork.run((ports) => work({ ...ports, webhookEndpoints: interleaved(ports.webhookEndpoints, interfere) })),
      },
      clock,
      bureau: new SandboxCreditBureau(),
      secrets: sequentialSecrets(),
    });
    return { store, client, endpoint, racing };
  };

  it('a write that lands between the read and the write is kept: the use case retries from the new version', async () => {
    const { store, client, endpoint, racing } = await setUp(1);
    const result = await run(racing.updateWebhookEndpoint(client.id, endpoint.id, { status: 'disabled' }));
    expect(result).to.include({ status: 'disabled', description: 'other 1' });
    const stored = await store.webhookEndpoints.get(client.id, endpoint.id)();
    expect(E.isRight(stored) && stored.right._tag === 'Some' ? stored.right.value : undefined).to.include({
      status: 'disabled',
      description: 'other 1',
      version: 3,
    });
  });

  it('a race lost on every try is 409 conflict, and its change is not applied', async () => {
    const { store, client, endpoint, racing } = await setUp(100);
    const result = await racing.updateWebhookEndpoint(client.id, endpoint.id, { status: 'disabled' })();
    expect(E.isLeft(result) ? result.left._tag : 'right').to.equal('conflict');
    const stored = await store.webhookEndpoints.get(client.id, endpoint.id)();
    expect(E.isRight(stored) && stored.right._tag === 'Some' ? stored.right.value.status : undefined).to.equal('enabled');
  });
});
