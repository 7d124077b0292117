/**
 * What this server does not implement, refused the way mongod refuses it
 * (code, codeName and the shape of mongod's message), so a test that relies on
 * it fails loudly instead of passing on a wrong answer (docs/decisions/mongodb.md):
 *
 * - a collation other than `simple` (mongod's collator factory: BadValue 2 for a
 *   locale its ICU does not know; FailedToParse 9 for a malformed spec). mingo
 *   compares strings with `Intl.Collator` where it compares them at all, and
 *   not in indexes, distinct or unique keys, so a locale would be honoured in
 *   some places and ignored in others;
 * - `readConcern: { level: 'snapshot' }` outside a multi-document transaction:
 *   on a read (find, aggregate, distinct) InvalidOptions 72, as mongod with a
 *   storage engine that keeps no snapshot history answers (this server keeps
 *   none outside transactions, so it would answer with current data); on any
 *   other command InvalidOptions 72, "Command does not support read concern",
 *   as every mongod answers;
 * - (in write-commands.ts) `sort` in an update statement, which MongoDB 8.0
 *   added: IDLUnknownField 40415, as the 7.0 this server advertises answers;
 * - views (`create` with `viewOn` or `pipeline`) and document validation
 *   (`validator`, `validationLevel`, `validationAction`): CommandNotSupported
 *   115, as this server answers `$out` and `$merge`; accepting them would
 *   create a plain collection (a view counting 0 documents) or a validator that
 *   never rejects.
 */
import { Binary, Long, ObjectId, type Document } from 'mongodb';
import { CommandError } from './command-error.js';
import { isPlainDocument } from './document-update.js';

/** mongod's `BSONObj::toString()` shape: `{ locale: "fr", strength: 1 }`, as its error messages quote a spec. */
export function bsonText(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[ ${value.map(bsonText).join(', ')} ]`;
  if (value instanceof ObjectId) return `ObjectId('${value.toHexString()}')`;
  if (Long.isLong(value)) return value.toString();
  if (value instanceof Binary) return `BinData(${value.sub_type}, ${Buffer.from(value.buffer).toString('hex').toUpperCase()})`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (isPlainDocument(value)) {
    const entries = Object.entries(value);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([key, field]) => `${key}: ${bsonText(field)}`).join(', ')} }`;
  }
  return String(value);
}

/**
 * The `collation` field of a command or a statement: absent, or `{ locale:
 * 'simple' }` (MongoDB's binary comparison, the only one this server
 * implements). Anything else is refused as mongod's collator factory refuses
 * a spec it cannot build.
 */
export function requireSimpleCollation(source: Document, field = 'collation'): void {
  const spec = source[field];
  if (spec === undefined || spec === null) return;
  if (!isPlainDocument(spec)) {
    throw new CommandError(
      'TypeMismatch',
      `BSON field '${field}' is the wrong type '${Array.isArray(spec) ? 'array' : typeof spec}', expected type 'object'`,
    );
  }
  const locale = spec['locale'];
  if (locale === undefined) throw new CommandError('FailedToParse', `Missing expected field "locale"`);
  if (typeof locale !== 'string') throw new CommandError('FailedToParse', `Field 'locale' must be of type string in: ${bsonText(spec)}`);
  if (locale === 'simple') {
    if (Object.keys(spec).length > 1)
      throw new CommandError('FailedToParse', `If locale=simple, no other fields should be present in: ${bsonText(spec)}`);
    return;
  }
  throw new CommandError(
    'BadValue',
    `Field 'locale' is not a valid ICU locale in: ${bsonText(spec)} (the wire test server implements only the simple collation)`,
  );
}

/** Commands mongod serves with `readConcern: snapshot` outside a transaction (MongoDB 5.0+). */
const SNAPSHOT_READS = new Set(['find', 'aggregate', 'distinct']);

/**
 * `readConcern: { level: 'snapshot' }` on a command outside a multi-document
 * transaction (no `autocommit` field): refused, see the module comment. Inside
 * a transaction it is the transaction's isolation, which this server has.
 */
export function refuseSnapshotOutsideTransaction(name: string, body: Document): void {
  if (body['autocommit'] !== undefined) return;
  const readConcern = body['readConcern'];
  if (!isPlainDocument(readConcern) || readConcern['level'] !== 'snapshot') return;
  if (SNAPSHOT_READS.has(name)) {
    throw new CommandError(
      'InvalidOptions',
      `Storage engine does not support read concern: ${bsonText(readConcern)} (the wire test server keeps no snapshot history outside a multi-document transaction)`,
    );
  }
  throw new CommandError('InvalidOptions', `Command does not support read concern ${bsonText(readConcern)}`);
}

/** Options of `create` this server does not implement (see the module comment). */
const UNIMPLEMENTED_CREATE_OPTIONS: ReadonlyMap<string, string> = new Map([
  ['viewOn', 'views are'],
  ['pipeline', 'views are'],
  ['validator', 'document validation is'],
  ['validationLevel', 'document validation is'],
  ['validationAction', 'document validation is'],
]);

/** `create`'s options: views and validators are refused; a collection's default collation must be simple. */
export function refuseUnimplementedCreateOptions(body: Document): void {
  for (const [option, what] of UNIMPLEMENTED_CREATE_OPTIONS) {
    if (body[option] !== undefined) {
      throw new CommandError('CommandNotSupported', `create with '${option}': ${what} not supported by the wire test server`);
    }
  }
  requireSimpleCollation(body);
}
