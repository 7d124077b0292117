import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { StoreError } from '../shared/errors.js';
import type { TokenRecord } from './client.js';
import type { ClientId, Timestamp, TokenId } from '../shared/primitives.js';
import type { Page, PageRequest } from '../shared/paging.js';

export interface TokenRepository {
  /** Store the SHA-256 hash (hex) of a new token; the hash is unique. */
  create(clientId: ClientId, hash: string, createdAt: Timestamp): TE.TaskEither<StoreError, TokenRecord>;
  /** The token with this hash, revoked or not. */
  findByHash(hash: string): TE.TaskEither<StoreError, O.Option<TokenRecord>>;
  /** The token with this id, revoked, expired or not. */
  findById(id: TokenId): TE.TaskEither<StoreError, O.Option<TokenRecord>>;
  /** The client's tokens (revoked and expired ones too), ascending by id. */
  listByClient(clientId: ClientId, page: PageRequest): TE.TaskEither<StoreError, Page<TokenRecord>>;
  /**
   * Set the token's `expires_at` (a roll, docs/operations.md), only when it is not revoked
   * and has none yet: the record after, as stored (unchanged when it was
   * revoked or already expiring); `none` when there is no such token.
   */
  expire(id: TokenId, expiresAt: Timestamp): TE.TaskEither<StoreError, O.Option<TokenRecord>>;
  /** Mark a token revoked; `none` when there is no such token. Revoking twice keeps the first time. */
  revoke(id: TokenId, revokedAt: Timestamp): TE.TaskEither<StoreError, O.Option<TokenRecord>>;
}
