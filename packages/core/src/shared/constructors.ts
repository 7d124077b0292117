/**
 * Plain values to branded ones, for a service that calls the use cases itself
 * (no HTTP in between): `cents(1234)`, `idOf('user', 7)`, `isoDate('2026-03-15')`.
 * The use cases take branded inputs (`Cents`, `Id`, `IsoDate`) so that an
 * unchecked number never reaches the domain; these constructors check one
 * value and brand it, or throw a `RangeError` saying what was expected.
 * A whole request body from outside is better decoded in one go, with every
 * problem listed: `decode(LinkAccountBody)(json)` (an `Either`).
 */
import * as t from 'io-ts';
import { Cents, Id, IsoDate, Timestamp, idCodecOf, type IdKind, type IdOf } from './primitives.js';

const construct =
  <A, I>(codec: t.Type<A, unknown, unknown>, expected: string) =>
  (value: I): A => {
    if (codec.is(value)) return value;
    throw new RangeError(`${codec.name}: expected ${expected}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
  };

/** @example cents(1234) // 12.34 in cents; cents(12.5) and cents(-1) throw */
export const cents: (amount: number) => Cents = construct(Cents, 'a whole number of cents (0 or more)');
/** @example id(7); id(0) throws. An id of no kind: a port or use case takes an id of one kind (`idOf`). */
export const id: (value: number) => Id = construct(Id, 'a positive integer id');
/**
 * An id of one kind, for an embedder or a test that has the number from
 * elsewhere (docs/decisions/ids.md); an id read from a request or a store has
 * its kind from its codec already.
 * @example idOf('user', 7) // a UserId; idOf('user', 0) throws
 */
export const idOf = <K extends IdKind>(kind: K, value: number): IdOf<K> => {
  const codec = idCodecOf(kind);
  if (codec.is(value)) return value;
  throw new RangeError(`${kind} id: expected a positive integer id, got ${String(value)}`);
};
/** @example isoDate('2026-03-15'); isoDate('2026-02-30') throws */
export const isoDate: (value: string) => IsoDate = construct(IsoDate, 'a YYYY-MM-DD date that exists');
/** @example timestamp('2026-03-15T12:00:00.000Z') */
export const timestamp: (value: string) => Timestamp = construct(Timestamp, 'an ISO-8601 UTC timestamp (YYYY-MM-DDTHH:MM:SS.sssZ)');
