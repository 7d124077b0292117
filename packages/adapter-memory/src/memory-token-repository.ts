/**
 * `TokenRepository` in memory. Every API request looks its token up by hash, so
 * tokens are indexed by hash as well as by id.
 */
import { inject, injectable } from 'inversify';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { conflict } from '@debtkit/core';
import type { ClientId, DomainError, Timestamp, TokenId, TokenRecord, TokenRepository } from '@debtkit/core';
import { MEMORY_SESSION, lazyEither, lazyRight } from './memory-collection.js';
import type { MemorySession } from './memory-database.js';

const copyToken = (t: TokenRecord): TokenRecord => ({
  id: t.id,
  client_id: t.client_id,
  hash: t.hash,
  created_at: t.created_at,
  revoked_at: t.revoked_at,
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

  create(clientId: ClientId, hash: string, createdAt: Timestamp): TE.TaskEither<DomainError, TokenRecord> {
    return lazyEither(() => {
      // The unique index of the mongo adapter, as a value: a duplicate is a Left, not a throw.
      if (this.byHash.get(this.s, ALL, hash) !== undefined) return E.left(conflict('A token with this hash already exists'));
      const record: TokenRecord = { id: this.ids.next(), client_id: clientId, hash, created_at: createdAt, revoked_at: null };
      return this.store(record);
    });
  }

  findByHash(hash: string): TE.TaskEither<DomainError, O.Option<TokenRecord>> {
    return lazyRight(() => {
      const found = this.byHash.get(this.s, ALL, hash);
      return found === undefined ? O.none : O.some(copyToken(found));
    });
  }

  revoke(id: TokenId, revokedAt: Timestamp): TE.TaskEither<DomainError, O.Option<TokenRecord>> {
    return lazyEither(() => {
      const found = this.byId.get(this.s, ALL, id);
      if (found === undefined) return E.right(O.none);
      if (found.revoked_at !== null) return E.right(O.some(copyToken(found)));
      const done = this.store({ ...found, revoked_at: revokedAt });
      return E.isLeft(done) ? done : E.right(O.some(done.right));
    });
  }

  private store(record: TokenRecord): E.Either<DomainError, TokenRecord> {
    const byHash = this.byHash.set(this.s, ALL, record.hash, record);
    if (E.isLeft(byHash)) return byHash;
    const byId = this.byId.set(this.s, ALL, record.id, record);
    return E.isLeft(byId) ? byId : E.right(copyToken(record));
  }
}
