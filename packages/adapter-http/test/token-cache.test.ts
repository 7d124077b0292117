/**
 * The token → client cache (src/main/token-cache.ts) over a fake `ClientAccess`
 * that counts store lookups, on an injected time source: hits within the TTL,
 * a fresh lookup after it, immediate invalidation on revoke in this process,
 * nothing kept for unknown tokens or store failures, and a bounded size.
 */
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Client, ClientAccess, Unavailable, Timestamp } from '@debtkit/core';
import { TOKEN_CACHE_TTL_MS, withTokenCache } from '../src/main/token-cache.js';

const client = (id: number): Client =>
  ({
    id,
    name: `client ${id}`,
    environment: 'sandbox',
    api_version: '2024-01-01',
    created_at: '2026-01-01T00:00:00.000Z',
  }) as unknown as Client;

interface Fake {
  readonly access: ClientAccess;
  /** token → [token id, client]: what the store holds. */
  readonly tokens: Map<string, [number, Client]>;
  lookups: number;
  failing: boolean;
  /** When set, the next lookup waits for this before answering. */
  gate?: Promise<void>;
  /** token → its `expires_at` (a rolled token); absent: it does not expire. */
  readonly expiries: Map<string, Timestamp>;
}

const fakeAccess = (): Fake => {
  const fake: Fake = {
    tokens: new Map(),
    expiries: new Map(),
    lookups: 0,
    failing: false,
    access: {
      createClient: () => TE.left({ kind: 'internal', message: 'unused' } as never),
      listClients: () => TE.left({ kind: 'internal', message: 'unused' } as never),
      issueToken: () => TE.left({ kind: 'internal', message: 'unused' } as never),
      authenticateTokenWithExpiry: (_environment, token) => async () => {
        fake.lookups += 1;
        const answer = fake.tokens.get(token);
        if (fake.gate !== undefined) await fake.gate;
        if (fake.failing) return E.left({ kind: 'store_unavailable', message: 'down' } as unknown as Unavailable);
        return E.right(answer === undefined ? O.none : O.some({ client: answer[1], expiresAt: fake.expiries.get(token) ?? null }));
      },
      revokeToken: (tokenId) => async () => {
        for (const [token, [id]] of fake.tokens) if (id === tokenId) fake.tokens.delete(token);
        return E.right(undefined);
      },
    } satisfies Partial<ClientAccess> as unknown as ClientAccess,
  };
  return fake;
};

describe('token → client cache', () => {
  let time: number;
  const now = (): number => time;
  beforeEach(() => {
    time = 1_000;
  });

  const auth = async (access: ClientAccess, token: string): Promise<O.Option<Client>> => {
    const result = await access.authenticateToken('sandbox', token)();
    if (E.isLeft(result)) throw new Error(`store failure: ${result.left.message}`);
    return result.right;
  };

  it("keeps a rolled token's expiry: answers from the cache until exactly its expires_at on the injected clock, then asks the store", async () => {
    const fake = fakeAccess();
    fake.tokens.set('tok-e', [5, client(3)]);
    fake.expiries.set('tok-e', '2026-01-01T00:00:10.000Z' as Timestamp);
    let wall = Date.parse('2026-01-01T00:00:09.000Z');
    const cached = withTokenCache(fake.access, { now, clock: { now: () => new Date(wall) } });
    await auth(cached, 'tok-e');
    expect(fake.lookups).to.equal(1);
    wall = Date.parse('2026-01-01T00:00:09.999Z');
    expect(cached.knownClient('sandbox', 'tok-e'), 'a millisecond before').to.deep.equal(client(3));
    await auth(cached, 'tok-e');
    expect(fake.lookups, 'answered from the cache').to.equal(1);
    wall = Date.parse('2026-01-01T00:00:10.000Z');
    expect(cached.knownClient('sandbox', 'tok-e'), 'at expires_at, well within the TTL').to.equal(undefined);
    await auth(cached, 'tok-e');
    expect(fake.lookups, 'the store is asked').to.equal(2);
  });

  it('knownClient answers at once what the cache holds: nothing before a lookup, the client within the TTL, nothing after it or after a revoke', async () => {
    const fake = fakeAccess();
    fake.tokens.set('tok-k', [4, client(9)]);
    const cached = withTokenCache(fake.access, { now });
    expect(cached.knownClient('sandbox', 'tok-k')).to.equal(undefined);
    await auth(cached, 'tok-k');
    expect(cached.knownClient('sandbox', 'tok-k')).to.deep.equal(client(9));
    expect(cached.knownClient('production', 'tok-k'), 'another environment').to.equal(undefined);
    expect(fake.lookups).to.equal(1);
    time += TOKEN_CACHE_TTL_MS;
    expect(cached.knownClient('sandbox', 'tok-k'), 'expired').to.equal(undefined);
    await auth(cached, 'tok-k');
    expect(cached.knownClient('sandbox', 'tok-k')).to.deep.equal(client(9));
    const revoked = await cached.revokeToken(4 as never)();
    expect(E.isRight(revoked)).to.equal(true);
    expect(cached.knownClient('sandbox', 'tok-k'), 'revoked').to.equal(undefined);
  });

  it('answers a known token from the cache until the TTL (1 s) is over, then asks the store again', async () => {
    const fake = fakeAccess();
    fake.tokens.set('tok-a', [1, client(7)]);
    const cached = withTokenCache(fake.access, { now });
    expect(await auth(cached, 'tok-a')).to.deep.equal(O.some(client(7)));
    time += TOKEN_CACHE_TTL_MS - 1;
    expect(await auth(cached, 'tok-a')).to.deep.equal(O.some(client(7)));
    expect(fake.lookups).to.equal(1);
    time += 1;
    expect(await auth(cached, 'tok-a')).to.deep.equal(O.some(client(7)));
    expect(fake.lookups).to.equal(2);
  });

  it('bounded staleness: a token revoked elsewhere (in the store only) is refused once the TTL is over', async () => {
    const fake = fakeAccess();
    fake.tokens.set('tok-a', [1, client(7)]);
    const cached = withTokenCache(fake.access, { now });
    expect(O.isSome(await auth(cached, 'tok-a'))).to.equal(true);
    fake.tokens.delete('tok-a'); // another process revoked it
    time += TOKEN_CACHE_TTL_MS;
    expect(await auth(cached, 'tok-a')).to.deep.equal(O.none);
  });

  it('a revocation through this process takes effect at once', async () => {
    const fake = fakeAccess();
    fake.tokens.set('tok-a', [1, client(7)]);
    fake.tokens.set('tok-b', [2, client(8)]);
    const cached = withTokenCache(fake.access, { now });
    await auth(cached, 'tok-a');
    await auth(cached, 'tok-b');
    expect(E.isRight(await cached.revokeToken(1 as never)())).to.equal(true);
    expect(await auth(cached, 'tok-a')).to.deep.equal(O.none);
    expect(await auth(cached, 'tok-b')).to.deep.equal(O.some(client(8)));
  });

  it('a lookup that raced a revocation does not put the revoked token back', async () => {
    const fake = fakeAccess();
    fake.tokens.set('tok-a', [1, client(7)]);
    const cached = withTokenCache(fake.access, { now });
    let open!: () => void;
    fake.gate = new Promise((r) => (open = r));
    const racing = auth(cached, 'tok-a'); // read the token before the revocation
    await cached.revokeToken(1 as never)();
    open();
    expect(await racing).to.deep.equal(O.some(client(7))); // it was valid when read
    fake.gate = undefined;
    expect(await auth(cached, 'tok-a')).to.deep.equal(O.none);
  });

  it('keeps no unknown token (a token issued elsewhere works at once) and no store failure', async () => {
    const fake = fakeAccess();
    const cached = withTokenCache(fake.access, { now });
    expect(await auth(cached, 'tok-new')).to.deep.equal(O.none);
    fake.tokens.set('tok-new', [3, client(9)]);
    expect(await auth(cached, 'tok-new')).to.deep.equal(O.some(client(9)));

    fake.failing = true;
    time += TOKEN_CACHE_TTL_MS;
    expect(E.isLeft(await cached.authenticateToken('sandbox', 'tok-new')())).to.equal(true);
    fake.failing = false;
    const before = fake.lookups;
    expect(await auth(cached, 'tok-new')).to.deep.equal(O.some(client(9)));
    expect(fake.lookups).to.equal(before + 1);
  });

  it('is bounded: past `max` tokens the least recently used is looked up again', async () => {
    const fake = fakeAccess();
    for (let i = 1; i <= 3; i++) fake.tokens.set(`tok-${i}`, [i, client(i)]);
    const cached = withTokenCache(fake.access, { now, max: 2 });
    await auth(cached, 'tok-1');
    await auth(cached, 'tok-2');
    await auth(cached, 'tok-3');
    expect(fake.lookups).to.equal(3);
    await auth(cached, 'tok-3');
    await auth(cached, 'tok-2');
    expect(fake.lookups).to.equal(3);
    await auth(cached, 'tok-1');
    expect(fake.lookups).to.equal(4);
  });

  it('keys by environment too: the same token asked for another environment is looked up', async () => {
    const fake = fakeAccess();
    fake.tokens.set('tok-a', [1, client(7)]);
    const cached = withTokenCache(fake.access, { now });
    await auth(cached, 'tok-a');
    await cached.authenticateToken('production', 'tok-a')();
    expect(fake.lookups).to.equal(2);
  });
});
