/** How the mothers make a branded value (not exported by `@debtkit/core/testing`). */
import type * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';

/** Decode `value` with `codec` or throw: a mother handing out an invalid value is a bug in the test. */
export const make = <A>(codec: t.Type<A, unknown, unknown>, value: unknown): A => {
  const r = codec.decode(value);
  if (E.isLeft(r)) throw new Error(`test data is not a valid ${codec.name}: ${JSON.stringify(value)}`);
  return r.right;
};
