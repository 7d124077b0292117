/**
 * `TokenRepository` on MongoDB: collection `tokens`, `_id` = the token id, a
 * unique index on `hash` (looked up on every API request).
 */
import { inject, injectable } from 'inversify';
import * as O from 'fp-ts/lib/Option.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import { TokenRecord, type ClientId, type DomainError, type Timestamp, type TokenId, type TokenRepository } from '@debtkit/core';
import { COLLECTIONS } from './mongo-collections.js';
import { type MongoContext, MONGO_CONTEXT } from './mongo-context.js';
import { documentCodec } from './mongo-document-codec.js';
import { MongoRecordCollection } from './mongo-record-collection.js';

export const TokenDocument = documentCodec(COLLECTIONS.tokens, TokenRecord, 'id');

@injectable()
export class MongoTokenRepository implements TokenRepository {
  private readonly tokens: MongoRecordCollection<TokenRecord>;

  constructor(@inject(MONGO_CONTEXT) ctx: MongoContext) {
    this.tokens = new MongoRecordCollection(ctx, COLLECTIONS.tokens, TokenDocument);
  }

  create(clientId: ClientId, hash: string, createdAt: Timestamp): TE.TaskEither<DomainError, TokenRecord> {
    return this.tokens.task(
      async () => this.tokens.insert({ id: await this.tokens.nextId(), client_id: clientId, hash, created_at: createdAt, revoked_at: null }),
      'A token with this hash already exists',
    );
  }

  findByHash(hash: string): TE.TaskEither<DomainError, O.Option<TokenRecord>> {
    return this.tokens.task(() => this.tokens.findOne({ hash }));
  }

  revoke(id: TokenId, revokedAt: Timestamp): TE.TaskEither<DomainError, O.Option<TokenRecord>> {
    return this.tokens.task(async () => {
      // Only an unrevoked token takes the time, so the first revocation wins, even between processes.
      const revoked = await this.tokens.update({ _id: id, revoked_at: null }, { revoked_at: revokedAt });
      return O.isSome(revoked) ? revoked : this.tokens.findOne({ _id: id });
    });
  }
}
