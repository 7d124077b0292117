/**
 * Decoding at the edge: io-ts errors become `validation_error` details, and
 * request objects are strict (an unknown field is an error, not silently dropped).
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { DomainError, ErrorDetail, validationError } from './errors.js';

const describe = (context: t.Context): string =>
  context
    .map((c) => c.key)
    .filter((k) => k !== '')
    .join('.');

const expected = (e: t.ValidationError): string => {
  if (e.message !== undefined) return e.message;
  const last = e.context[e.context.length - 1];
  const name = last?.type.name ?? 'a valid value';
  return e.value === undefined ? `is required (${name})` : `must be ${name}`;
};

/** Turn io-ts errors into `{path, message}` details, one per path. */
export const toDetails = (errors: t.Errors, root = ''): ErrorDetail[] => {
  const seen = new Map<string, string>();
  for (const e of errors) {
    const path = [root, describe(e.context)].filter((p) => p !== '').join('.');
    if (!seen.has(path)) seen.set(path, expected(e));
  }
  return [...seen].map(([path, message]) => ({ path: path === '' ? '(body)' : path, message }));
};

/** Decode `input` with `codec`, mapping failures to a `validation_error` with details. */
export const decode =
  <A, O>(codec: t.Type<A, O, unknown>, what = 'request body', root = '') =>
  (input: unknown): E.Either<DomainError, A> => {
    const result = codec.decode(input);
    return E.isRight(result)
      ? result
      : E.left(validationError(`Invalid ${what}`, toDetails(result.left, root)));
  };

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * An object codec with required and optional properties that rejects unknown
 * keys. Optional properties may be absent; whether `null` is allowed is up to
 * the property codec.
 */
export const strictObject = <R extends t.Props, O extends t.Props = {}>(
  name: string,
  required: R,
  optional: O = {} as O,
): t.Type<t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<O>>, unknown, unknown> => {
  const base = t.intersection([t.type(required), t.partial(optional)]);
  const known = new Set([...Object.keys(required), ...Object.keys(optional)]);
  type A = t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<O>>;
  return new t.Type<A, unknown, unknown>(
    name,
    (u): u is A => base.is(u) && Object.keys(u as object).every((k) => known.has(k)),
    (u, c) => {
      if (!isRecord(u)) return t.failure(u, c, 'must be a JSON object');
      const unknownKeys = Object.keys(u).filter((k) => !known.has(k));
      if (unknownKeys.length > 0) {
        return t.failures(
          unknownKeys.map((k) => ({
            value: u[k],
            context: [...c, { key: k, type: t.never, actual: u[k] }],
            message: 'is not a known field',
          })),
        );
      }
      const r = base.validate(u, c);
      if (E.isLeft(r)) return r;
      // Keep only the known keys, with their decoded values.
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(u)) out[k] = (r.right as Record<string, unknown>)[k];
      return t.success(out as A);
    },
    (a) => a,
  );
};

/** A string with a length within bounds (after no trimming). */
export const boundedString = (min: number, max: number, name = `string(${min}..${max})`) =>
  t.refinement(t.string, (s) => s.length >= min && s.length <= max, name);

/** A finite number within bounds. */
export const boundedNumber = (min: number, max: number, name = `number(${min}..${max})`) =>
  t.refinement(t.number, (n) => Number.isFinite(n) && n >= min && n <= max, name);

/** A safe integer within bounds. */
export const boundedInt = (min: number, max: number, name = `integer(${min}..${max})`) =>
  t.refinement(t.number, (n) => Number.isSafeInteger(n) && n >= min && n <= max, name);
