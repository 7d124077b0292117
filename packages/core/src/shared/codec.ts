/**
 * Decoding at the edge: io-ts errors become `validation_error` details, and
 * request objects are strict (an unknown field is an error, not silently dropped).
 */
import * as t from 'io-ts';
import * as E from 'fp-ts/lib/Either.js';
import { ErrorDetail, validationError, type ValidationError } from './errors.js';

// Union and intersection members appear in the context under their index;
// they are not part of the path a client sees.
const isComposite = (type: t.Decoder<unknown, unknown> | undefined): boolean => {
  const tag = (type as { _tag?: unknown } | undefined)?._tag;
  return tag === 'UnionType' || tag === 'IntersectionType';
};

const describe = (context: t.Context): string =>
  context
    .filter((c, i) => c.key !== '' && !isComposite(context[i - 1]?.type))
    .map((c) => c.key)
    .join('.');

/** What a client must send, in words, for the codecs whose names say too little (`IsoDate`, `Category`). */
const DESCRIBED = new WeakMap<t.Decoder<unknown, unknown>, string>();

/**
 * Give `codec` the words a validation message uses for it ("must be <description>").
 * @example describedAs(IsoDate, 'a YYYY-MM-DD date') // a bad date: "must be a YYYY-MM-DD date"
 */
export const describedAs = <C extends t.Decoder<unknown, unknown>>(codec: C, description: string): C => {
  DESCRIBED.set(codec, description);
  return codec;
};

/** The words for a codec: its own description, the values of an enum or literal, else its name. */
const describeCodec = (type: t.Decoder<unknown, unknown> | undefined): string => {
  if (type === undefined) return 'a valid value';
  const described = DESCRIBED.get(type);
  if (described !== undefined) return described;
  const c = type as { _tag?: string; keys?: Record<string, unknown>; value?: unknown };
  if (c._tag === 'KeyofType' && c.keys !== undefined) return `one of ${Object.keys(c.keys).join(', ')}`;
  if (c._tag === 'LiteralType') return JSON.stringify(c.value);
  return type.name;
};

const expected = (e: t.ValidationError): string => {
  if (e.message !== undefined) return e.message;
  const last = e.context[e.context.length - 1];
  const description = describeCodec(last?.type);
  return e.value === undefined ? `is required (${description})` : `must be ${description}`;
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
  (input: unknown): E.Either<ValidationError, A> => {
    const result = codec.decode(input);
    return E.isRight(result) ? result : E.left(validationError(`Invalid ${what}`, toDetails(result.left, root)));
  };

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * The codec `strictObject` returns: a plain `t.Type` that also exposes its
 * property codecs, so tools that describe codecs (the OpenAPI generator) can
 * walk it like `t.type`/`t.partial`. `_tag` names it the way io-ts names its own
 * codec classes.
 */
export class StrictObjectType<R extends t.Props, O extends t.Props, A = unknown> extends t.Type<A, unknown, unknown> {
  readonly _tag = 'StrictObjectType' as const;
  constructor(
    name: string,
    is: t.Is<A>,
    validate: t.Validate<unknown, A>,
    encode: t.Encode<A, unknown>,
    /** The properties that must be present. */
    readonly required: R,
    /** The properties that may be absent. */
    readonly optional: O,
  ) {
    super(name, is, validate, encode);
  }
}

/**
 * An object codec with required and optional properties that rejects unknown
 * keys. Optional properties may be absent; whether `null` is allowed is up to
 * the property codec.
 * @example strictObject('PingBody', { payload: t.string }).decode({ payload: 'x', extra: 1 }) // Left: extra is not a known field
 */
export const strictObject = <R extends t.Props, O extends t.Props = {}>(
  name: string,
  required: R,
  optional: O = {} as O,
): StrictObjectType<R, O, t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<O>>> => {
  const base = t.intersection([t.type(required), t.partial(optional)]);
  const known = new Set([...Object.keys(required), ...Object.keys(optional)]);
  type A = t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<O>>;
  return new StrictObjectType<R, O, A>(
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
      // The intersection puts its member index ('0', '1') in each error's context:
      // drop it, so a detail's path reads `name`, not `0.name`.
      if (E.isLeft(r))
        return t.failures(r.left.map((e) => ({ ...e, context: [...e.context.slice(0, c.length), ...e.context.slice(c.length + 1)] })));
      // Keep only the known keys, with their decoded values.
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(u)) out[k] = (r.right as Record<string, unknown>)[k];
      return t.success(out as A);
    },
    (a) => a,
    required,
    optional,
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
