/**
 * `IdempotencyStore` on MongoDB (docs/decisions/idempotency.md): collection `idempotency_keys`,
 * one document per (client, key) with `_id` = "<client id>:<key>", so that the
 * `_id` index lets exactly one of two processes insert a new key. Every later
 * change is a compare-and-set on the document's `rev`. Documents carry
 * `expires_at` for the TTL index that removes them once they expire; until the
 * server gets round to it, an expired key is treated as free.
 */
import { inject, injectable } from 'inversify';
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Collection } from 'mongodb';
import {
  IDEMPOTENCY_KEY_TTL_MS,
  decideClaim,
  pendingRecord,
  toDetails,
  type ClientId,
  type StoreError,
  type IdempotencyClaim,
  type IdempotencyClaimRequest,
  type IdempotencyRecord,
  type IdempotencyStore,
  type StoredResponse,
} from '@debtkit/core';
import { COLLECTION_NAMES } from './mongo-collection-names.js';
import { MONGO_CONTEXT, commandOptions, type MongoContext } from './mongo-context.js';
import { StoredDocumentError, isDuplicateKeyError, mongoTask } from './mongo-errors.js';

interface KeyDocument {
  _id: string;
  client_id: number;
  method: string;
  path: string;
  body_hash: string;
  claim_id: string;
  claimed_at: Date;
  expires_at: Date;
  response: { status: number; body: string; api_version: string | null } | null;
  /** Increases with every change: the compare-and-set token. */
  rev: number;
}

const BsonDate = new t.Type<Date, Date, unknown>(
  'Date',
  (u): u is Date => u instanceof Date,
  (u, c) => (u instanceof Date && !Number.isNaN(u.getTime()) ? t.success(u) : t.failure(u, c)),
  (d) => d,
);

const KeyDocumentCodec = t.type({
  _id: t.string,
  client_id: t.number,
  method: t.string,
  path: t.string,
  body_hash: t.string,
  claim_id: t.string,
  claimed_at: BsonDate,
  expires_at: BsonDate,
  response: t.union([t.null, t.type({ status: t.number, body: t.string, api_version: t.union([t.string, t.null]) })]),
  rev: t.number,
});

const decodeDocument = (document: unknown): KeyDocument => {
  const result = KeyDocumentCodec.decode(document);
  if (E.isLeft(result))
    throw new StoredDocumentError(COLLECTION_NAMES.idempotencyKeys, (document as { _id?: unknown })._id, toDetails(result.left));
  return result.right;
};

const toRecord = (d: KeyDocument): IdempotencyRecord => ({
  fingerprint: { method: d.method, path: d.path, bodyHash: d.body_hash },
  claimId: d.claim_id,
  claimedAt: d.claimed_at.getTime(),
  expiresAt: d.expires_at.getTime(),
  response: d.response === null ? null : { status: d.response.status, body: d.response.body, apiVersion: d.response.api_version },
});

const idOf = (clientId: ClientId, key: string): string => `${clientId}:${key}`;

/** How often a claim re-reads a key whose document changed under it before it answers `in_progress`. */
const CLAIM_ATTEMPTS = 5;

@injectable()
export class MongoIdempotencyStore implements IdempotencyStore {
  private readonly keys: Collection<KeyDocument>;

  constructor(@inject(MONGO_CONTEXT) private readonly ctx: MongoContext) {
    this.keys = ctx.db.collection<KeyDocument>(COLLECTION_NAMES.idempotencyKeys);
  }

  private task<A>(run: () => Promise<A>): TE.TaskEither<StoreError, A> {
    return mongoTask(this.ctx.ready, run, 'The idempotency key is taken');
  }

  /**
   * Outside a transaction a new key costs one command: the insert is tried
   * first, and only a key that exists is read (then replaced if it may be
   * taken). In a transaction a failed insert would abort it, so the key is read first.
   */
  claim(request: IdempotencyClaimRequest): TE.TaskEither<StoreError, IdempotencyClaim> {
    const _id = idOf(request.clientId, request.key);
    const options = commandOptions(this.ctx);
    const documentOf = (rev: number): KeyDocument => {
      const pending = pendingRecord(request, IDEMPOTENCY_KEY_TTL_MS);
      return {
        _id,
        client_id: request.clientId,
        method: pending.fingerprint.method,
        path: pending.fingerprint.path,
        body_hash: pending.fingerprint.bodyHash,
        claim_id: pending.claimId,
        claimed_at: new Date(pending.claimedAt),
        expires_at: new Date(pending.expiresAt),
        response: null,
        rev,
      };
    };
    /** Whether the key was new and is now ours; false when it exists already. */
    const insert = async (): Promise<boolean> => {
      try {
        await this.keys.insertOne(documentOf(1), options);
        return true;
      } catch (error) {
        // Another request holds the key (or held it): read what it holds.
        if (!isDuplicateKeyError(error)) throw error;
        return false;
      }
    };
    return this.task(async (): Promise<IdempotencyClaim> => {
      if (this.ctx.session === undefined && (await insert())) return { _tag: 'claimed' };
      for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
        const found = await this.keys.findOne({ _id }, options);
        const existing = found === null ? undefined : decodeDocument(found);
        const decision = decideClaim(existing === undefined ? undefined : toRecord(existing), request);
        if (decision._tag !== 'take') return decision;
        if (existing === undefined) {
          if (await insert()) return { _tag: 'claimed' };
          continue;
        }
        const replaced = await this.keys.replaceOne({ _id, rev: existing.rev }, documentOf(existing.rev + 1), options);
        if (replaced.matchedCount === 1) return { _tag: 'claimed' };
      }
      // Lost every race for it: someone else holds the key right now.
      return { _tag: 'in_progress' };
    });
  }

  complete(clientId: ClientId, key: string, claimId: string, response: StoredResponse, now: Date): TE.TaskEither<StoreError, void> {
    return this.task(async () => {
      await this.keys.updateOne(
        { _id: idOf(clientId, key), claim_id: claimId },
        {
          $set: {
            response: { status: response.status, body: response.body, api_version: response.apiVersion },
            expires_at: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
          },
          $inc: { rev: 1 },
        },
        commandOptions(this.ctx),
      );
    });
  }

  release(clientId: ClientId, key: string, claimId: string): TE.TaskEither<StoreError, void> {
    return this.task(async () => {
      await this.keys.deleteOne({ _id: idOf(clientId, key), claim_id: claimId }, commandOptions(this.ctx));
    });
  }
}
