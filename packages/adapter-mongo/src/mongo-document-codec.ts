/**
 * Persistence codecs: how a record is stored as a document, and how a stored
 * document is checked on the way back (the driver's generics are not checked
 * at run time, docs/decisions/mongodb.md).
 *
 * A document is the record with its natural key moved to `_id`: the integer
 * `id` for everything that has one, `user_id` for a bureau flow (one per user).
 * The key then cannot be duplicated, needs no second unique index, and is what
 * paging sorts on. Reading renames `_id` back and decodes with the record's
 * core codec.
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import type { Document } from 'mongodb';
import { toDetails } from '@debtkit/core';
import { StoredDocumentError } from './mongo-errors.js';

/** A stored document: `_id` is a record's natural key (an integer id), or a counter's collection name. */
export interface StoredDocument extends Document {
  _id: number | string;
}

export interface DocumentCodec<A> {
  /** The collection, for error messages. */
  readonly collection: string;
  /** The record's field that is stored as `_id`. */
  readonly key: string;
  /** The document to store for `record` (nested values are shared, not copied). */
  readonly encode: (record: A) => StoredDocument;
  /** The record a stored document holds; throws `StoredDocumentError` when it does not decode (a bug). */
  readonly decode: (document: Document) => A;
}

/**
 * The persistence codec of `record`, stored in `collection` with `key` as `_id`.
 * @example
 *   const users = documentCodec('users', UserRecord, 'id');
 *   users.encode(user)                      // { _id: 7, client_id: 1, last_name: 'Doe', ... }
 *   users.decode({ _id: 7, client_id: 1, ... }) // UserRecord { id: 7, ... }
 */
export const documentCodec = <A extends Record<K, unknown>, K extends string>(
  collection: string,
  record: t.Decoder<unknown, A>,
  key: K,
): DocumentCodec<A> => ({
  collection,
  key,
  encode: (value) => {
    const { [key]: naturalKey, ...rest } = value;
    if (typeof naturalKey !== 'number' && typeof naturalKey !== 'string') {
      throw new TypeError(`${collection}: the key "${key}" must be a number or a string`);
    }
    return { _id: naturalKey, ...rest };
  },
  decode: (document) => {
    const { _id, ...rest } = document;
    // A `key` field next to `_id` would make two sources of truth: reject it.
    if (key in rest) throw new StoredDocumentError(collection, _id, [{ path: key, message: 'must not be stored beside _id' }]);
    // The key first, as every other store answers it.
    const result = record.decode({ [key]: _id, ...rest });
    if (E.isLeft(result)) throw new StoredDocumentError(collection, _id, toDetails(result.left));
    return result.right;
  },
});
