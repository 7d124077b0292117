import type * as TE from 'fp-ts/lib/TaskEither.js';
import type * as O from 'fp-ts/lib/Option.js';
import type { DomainError } from '../domain/errors.js';
import type { TokenRecord } from '../domain/client.js';
import type { ClientId, Timestamp, TokenId } from '../domain/primitives.js';

export interface TokenRepository {
  /** Store the SHA-256 hash (hex) of a new token; the hash is unique. */
  create(clientId: ClientId, hash: string, createdAt: Timestamp): TE.TaskEither<DomainError, TokenRecord>;
  /** The token with this hash, revoked or not. */
  findByHash(hash: string): TE.TaskEither<DomainError, O.Option<TokenRecord>>;
  /** Mark a token revoked; `none` when there is no such token. Revoking twice keeps the first time. */
  revoke(id: TokenId, revokedAt: Timestamp): TE.TaskEither<DomainError, O.Option<TokenRecord>>;
}
