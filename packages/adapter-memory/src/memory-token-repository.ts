/**
 * `TokenRepository` in memory. Every API request looks its token up by hash, so
 * tokens are indexed by hash as well as by id. A record kept before tokens had
 * `expires_at` (none in memory outlives a process, but a copied database could
 * hold one) reads as `expires_at: null`.
 */
import { inject, injectable } from 'inversify';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { conflict } from '@debtkit/core';
import type { ClientId, StoreError, Page, PageRequest, Timestamp, TokenId, TokenRecord, TokenRepository } from '@debtkit/core';
import { MEMORY_SESSION, lazyEither, lazyRight, pageOf } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

const copyToken = (t: TokenRecord): TokenRecord => ({
  id: t.id,
  client_id: t.client_id,
  hash: t.hash,
  created_at: t.created_at,
  revoked_at: t.revoked_at,
  // `??`: a record stored before the field existed has none.
  expires_at: t.expires_at ?? null,
});

/** Tokens are one partition per lookup (by hash, by id); both hold the same records. */
const ALL = 0;

@injectable()
export class MemoryTokenRepository implements TokenRepository {
  private readonly byHash;
  private readonly byId;
  private readonly ids;

  constructor(@inject(MEMORY_SESSION) private readonly s: MemorySession) {
    this.byHash = s.db.table<number, string, TokenRecord>('tokens.byHash');
    this.byId = s.db.table<number, TokenId, TokenRecord>('tokens');
    this.ids = s.db.ids('tokens');
  }

  create(clientId: ClientId, hash: string, createdAt: Timestamp): TE.TaskEither<StoreError, TokenRecord> {
    return lazyEither(() => {
      // The unique index of the mongo adapter, as a value: a duplicate is a Left, not a throw.
      if (this.byHash.get(this.s, ALL, hash) !== undefined) return E.left(conflict('A token with this hash already exists'));
      const record: TokenRecord = {
        id: this.ids.next(),
        client_id: clientId,
        hash,
        created_at: createdAt,
        revoked_at: null,
        expires_at: null,
      };
      return this.store(record);
    });
  }

  findByHash(hash: string): TE.TaskEither<StoreError, O.Option<TokenRecord>> {
    return lazyRight(() => {
      const found = this.byHash.get(this.s, ALL, hash);
      return found === undefined ? O.none : O.some(copyToken(found));
    });
  }

  findById(id: TokenId): TE.TaskEither<StoreError, O.Option<TokenRecord>> {
    return lazyRight(() => {
      const found = this.byId.get(this.s, ALL, id);
      return found === undefined ? O.none : O.some(copyToken(found));
    });
  }

  listByClient(clientId: ClientId, page: PageRequest): TE.TaskEither<StoreError, Page<TokenRecord>> {
    return lazyRight(() => pageOf(this.byId.values(this.s, ALL), page, copyToken, (t) => t.client_id === clientId));
  }

  expire(id: TokenId, expiresAt: Timestamp): TE.TaskEither<StoreError, O.Option<TokenRecord>> {
    return lazyEither(() => {
      const found = this.byId.get(this.s, ALL, id);
      if (found === undefined) return E.right(O.none);
      // Only a live token without an expiry takes one: the first roll wins, as the first revocation does.
      if (found.revoked_at !== null || (found.expires_at ?? null) !== null) return E.right(O.some(copyToken(found)));
      const done = this.store({ ...copyToken(found), expires_at: expiresAt });
      return E.isLeft(done) ? done : E.right(O.some(done.right));
    });
  }

  revoke(id: TokenId, revokedAt: Timestamp): TE.TaskEither<StoreError, O.Option<TokenRecord>> {
    return lazyEither(() => {
      const found = this.byId.get(this.s, ALL, id);
      if (found === undefined) return E.right(O.none);
      if (found.revoked_at !== null) return E.right(O.some(copyToken(found)));
      const done = this.store({ ...copyToken(found), revoked_at: revokedAt });
      return E.isLeft(done) ? done : E.right(O.some(done.right));
    });
  }

  private store(record: TokenRecord): E.Either<StoreError, TokenRecord> {
    const byHash = this.byHash.set(this.s, ALL, record.hash, record);
    if (E.isLeft(byHash)) return byHash;
    const byId = this.byId.set(this.s, ALL, record.id, record);
    return E.isLeft(byId) ? byId : E.right(copyToken(record));
  }
}
