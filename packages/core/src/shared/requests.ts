/**
 * The kernel's request codecs (each feature's own are in its `requests.ts`): the pieces every
 * feature's requests share (positive cents, names, page fields, query integers and ids) and the
 * ping body. Objects are strict: unknown fields are rejected.
 */
import * as t from 'io-ts';
import { Id, idCodecOf, type IdKind, type IdOf } from './primitives.js';
import { boundedString, strictObject } from './codec.js';

export const PingBody = strictObject('PingBody', { payload: boundedString(0, 1024, 'string(≤1024 chars)') });

/** A query-string integer: digits only, decoded to a number within bounds. */
export const QueryInt = (min: number, max: number) =>
  new t.Type<number, string, unknown>(
    `integer(${min}..${max})`,
    (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= min && u <= max,
    (u, c) => {
      if (typeof u !== 'string' || !/^[0-9]{1,16}$/.test(u)) return t.failure(u, c, `must be an integer ${min}..${max}`);
      const n = Number(u);
      return Number.isSafeInteger(n) && n >= min && n <= max ? t.success(n) : t.failure(u, c, `must be an integer ${min}..${max}`);
    },
    String,
  );

/** An id in a query string: digits without a leading zero, at most 2^53−1, checked by `is` (`Id`'s, or an id kind's). */
const queryIdCodec = <A extends Id>(is: (u: unknown) => u is A): t.Type<A, string, unknown> =>
  new t.Type<A, string, unknown>(
    'Id',
    is,
    (u, c) => {
      const n = typeof u === 'string' && /^[1-9][0-9]{0,15}$/.test(u) ? Number(u) : Number.NaN;
      return is(n) ? t.success(n) : t.failure(u, c, 'must be a positive integer id');
    },
    String,
  );
/** An id of no kind in a query string: a page cursor (`starting_after`), compared by number only. */
export const QueryId: t.Type<Id, string, unknown> = queryIdCodec(Id.is);
/** An id of one kind in a query string (`user_id` of the events list): `QueryId`, decoding to that kind. */
export const queryIdOf = <K extends IdKind>(kind: K): t.Type<IdOf<K>, string, unknown> => queryIdCodec(idCodecOf(kind).is);

export const pageFields = { limit: QueryInt(1, 100), starting_after: QueryId };
export const PageQuery = strictObject('PageQuery', {}, pageFields);
export type PageQuery = t.TypeOf<typeof PageQuery>;
export const DEFAULT_PAGE_LIMIT = 20;
