/**
 * `TokenRepository` in memory. Every API request looks its token up by hash, so
 * tokens are indexed by hash as well as by id.
 */
import { injectable } from 'inversify';
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { conflict } from '@debtkit/core';
import type { ClientId, DomainError, Timestamp, TokenId, TokenRecord, TokenRepository } from '@debtkit/core';
import { IdSequence, lazyEither, lazyRight } from './memory-collection.js';

const copyToken = (t: TokenRecord): TokenRecord => ({
  id: t.id,
  client_id: t.client_id,
  hash: t.hash,
  created_at: t.created_at,
  revoked_at: t.revoked_at,
});

@injectable()
export class MemoryTokenRepository implements TokenRepository {
  // Both maps hold the same record objects; records never leave the store uncopied.
  private readonly byHash = new Map<string, TokenRecord>();
  private readonly byId = new Map<TokenId, TokenRecord>();
  private readonly ids = new IdSequence();

  create(clientId: ClientId, hash: string, createdAt: Timestamp): TE.TaskEither<DomainError, TokenRecord> {
    return lazyEither(() => {
      // The unique index of the mongo adapter, as a value: a duplicate is a Left, not a throw.
      if (this.byHash.has(hash)) return E.left(conflict('A token with this hash already exists'));
      const record: TokenRecord = { id: this.ids.next(), client_id: clientId, hash, created_at: createdAt, revoked_at: null };
      this.byHash.set(hash, record);
      this.byId.set(record.id, record);
      return E.right(copyToken(record));
    });
  }

  findByHash(hash: string): TE.TaskEither<DomainError, O.Option<TokenRecord>> {
    return lazyRight(() => {
      const found = this.byHash.get(hash);
      return found === undefined ? O.none : O.some(copyToken(found));
    });
  }

  revoke(id: TokenId, revokedAt: Timestamp): TE.TaskEither<DomainError, O.Option<TokenRecord>> {
    return lazyRight(() => {
      const found = this.byId.get(id);
      if (found === undefined) return O.none;
      if (found.revoked_at === null) found.revoked_at = revokedAt;
      return O.some(copyToken(found));
    });
  }
}
