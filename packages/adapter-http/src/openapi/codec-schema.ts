/**
 * io-ts codecs → JSON Schema (2020-12, the dialect of OpenAPI 3.1). A small
 * walker over the stable io-ts classes (`_tag`), plus core's `StrictObjectType`.
 *
 * What it decides, and why:
 * - Objects are closed (`additionalProperties: false`), `t.type` included: the
 *   document describes the current version exactly, so a response that leaks a
 *   field the codec does not declare (an owner id, a hash) fails validation in
 *   the tests instead of slipping out unnoticed.
 * - A refinement or brand is its base schema plus the constraints its *name*
 *   announces (`Id`, `Cents`, `IsoDate`, `Timestamp`, `string(1..100)`,
 *   `integer(1..600)`, …): io-ts keeps a refinement's predicate opaque, and the
 *   base schema is always a sound over-approximation of it.
 * - A hand-written `t.Type` (no `_tag`) is opaque too; it is described by name
 *   or the walker throws. Throwing is deliberate: a codec the document cannot
 *   describe must stop the build of the document, never become `{}` silently.
 * - A codec with a type-like name (`Account`, `CreditScore`, `AccountType`) that
 *   is an object, enum or union becomes a component (`$ref`); two different
 *   codecs that share a name but not a schema are an error.
 */
import * as t from 'io-ts';

/** A JSON Schema object. Built here, never mutated after it is returned. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export interface CodecSchemaOptions {
  /** Where components live; `$ref`s point here. */
  readonly refPrefix?: string;
  /**
   * Schemas by codec name, for codecs the built-in table does not know: for a
   * refinement or brand, constraints merged into its base schema; for a
   * hand-written `t.Type`, its whole schema.
   */
  readonly named?: (name: string) => JsonSchema | undefined;
  /**
   * The codec to describe in place of `codec` (an older API version's codec of
   * the same name: registry/versioning/versions.ts `codecAt`); default: `codec` itself.
   */
  readonly substitute?: (codec: t.Mixed) => t.Mixed;
}

export interface SchemaRegistry {
  /** The schema of `codec`: a `$ref` when it is a component, else inline. */
  schemaOf(codec: t.Mixed): JsonSchema;
  /** The schema of `codec`, inline even when the codec is a component. */
  inline(codec: t.Mixed): JsonSchema;
  /** Every component registered so far, by name. */
  components(): Readonly<Record<string, JsonSchema>>;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Codecs known by name: the branded primitives of core, and the plain io-ts types by their names. */
const BUILT_IN_NAMES: Readonly<Record<string, JsonSchema>> = {
  Id: { type: 'integer', minimum: 1, maximum: MAX_SAFE, description: 'A positive integer identifier' },
  Cents: { type: 'integer', minimum: 0, maximum: MAX_SAFE, description: 'An amount of money in integer cents' },
  IsoDate: { type: 'string', format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
  Timestamp: { type: 'string', format: 'date-time' },
  string: { type: 'string' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  null: { type: 'null' },
};

/** Refinement names of core's request codecs whose rule is cheap to state. */
const REFINEMENT_NAMES: Readonly<Record<string, JsonSchema>> = {
  'Mask(4 digits)': { pattern: '^[0-9]{4}$' },
  '4 digits': { pattern: '^[0-9]{4}$' },
  '6-digit code': { pattern: '^[0-9]{6}$' },
  'positive cents': { minimum: 1 },
  email: { format: 'email' },
  'phone(7..20 digits, spaces, +()-)': { pattern: '^\\+?[0-9 ()-]{7,20}$' },
  'distinct account ids (1..100)': { minItems: 1, maxItems: 100, uniqueItems: true },
  'base64 image': { contentEncoding: 'base64' },
};

const NUMBER = '(-?[0-9]+(?:\\.[0-9]+)?)';
/** `string(1..100)`, `number(0..100)`, `integer(1..600)`, `APR(0..100)`: a name and inclusive bounds. */
const BOUNDED = new RegExp(`^([A-Za-z]+)\\(${NUMBER}\\.\\.${NUMBER}\\)$`);
/** `string(≤1024 chars)`, `PaymentsHistory(≤24 codes)`, `ExtraPayments(≤120 entries)`, `IP address (…, ≥7 chars)`: one bound at the end. */
const AT_MOST = /\(.*≤([0-9]+) (?:chars|codes|entries)\)$/;
const AT_LEAST = /\(.*≥([0-9]+) chars\)$/;

const typeOf = (s: JsonSchema): string | undefined => (typeof s['type'] === 'string' ? s['type'] : undefined);

/** The keywords that bound a value of `type` between `min` and `max`. */
const bounds = (type: string | undefined, min: number | undefined, max: number | undefined): JsonSchema => {
  const [lo, hi] = type === 'string' ? ['minLength', 'maxLength'] : type === 'array' ? ['minItems', 'maxItems'] : ['minimum', 'maximum'];
  return { ...(min === undefined ? {} : { [lo]: min }), ...(max === undefined ? {} : { [hi]: max }) };
};

/** The constraints a refinement's name announces for a value of base schema `base`; `undefined` when it announces none we know. */
const constraintsByName = (name: string, base: JsonSchema): JsonSchema | undefined => {
  const known = REFINEMENT_NAMES[name];
  if (known !== undefined) return known;
  const bounded = BOUNDED.exec(name);
  if (bounded !== null) {
    const [, kind, min, max] = bounded;
    const integer = kind === 'integer' ? { type: 'integer' } : {};
    return { ...integer, ...bounds(kind === 'integer' ? 'integer' : typeOf(base), Number(min), Number(max)) };
  }
  const atMost = AT_MOST.exec(name);
  if (atMost !== null) return bounds(typeOf(base), undefined, Number(atMost[1]));
  const atLeast = AT_LEAST.exec(name);
  if (atLeast !== null) return bounds(typeOf(base), Number(atLeast[1]), undefined);
  return undefined;
};

/** `{…}` or `(… | …)` or `Array<…>` are io-ts's generated names; `Account` is a name someone chose. */
const TYPE_LIKE_NAME = /^[A-Z][A-Za-z0-9]*$/;
const COMPONENT_TAGS: ReadonlySet<string> = new Set([
  'InterfaceType',
  'PartialType',
  'IntersectionType',
  'StrictObjectType',
  'ExactType',
  'KeyofType',
  'UnionType',
]);

const tagOf = (codec: t.Mixed): string | undefined => (codec as { _tag?: unknown })._tag as string | undefined;

const isObjectSchema = (s: JsonSchema): boolean =>
  s['type'] === 'object' && s['$ref'] === undefined && s['allOf'] === undefined && s['anyOf'] === undefined;

/** Keywords that apply whatever the instance's type: a schema with one of them cannot admit `null` by widening `type`. */
const TYPE_BLIND = ['$ref', 'const', 'anyOf', 'allOf', 'oneOf', 'not', 'if'];

/** `s` or `null`. Enums and single types stay flat (`type: ['string', 'null']`); anything else becomes `anyOf`. */
export const orNull = (s: JsonSchema): JsonSchema => {
  const type = s['type'];
  if (type === 'null') return s;
  const flat = TYPE_BLIND.every((k) => s[k] === undefined);
  if (Array.isArray(type) && flat) return type.includes('null') ? s : { ...s, type: [...type, 'null'] };
  if (typeof type === 'string' && flat) {
    const e = s['enum'];
    return Array.isArray(e) ? { ...s, type: [type, 'null'], enum: [...e, null] } : { ...s, type: [type, 'null'] };
  }
  if (Array.isArray(s['anyOf']) && Object.keys(s).length === 1) {
    const members = s['anyOf'] as JsonSchema[];
    return members.some((m) => m['type'] === 'null') ? s : { anyOf: [...members, { type: 'null' }] };
  }
  return { anyOf: [s, { type: 'null' }] };
};

/** Drop `additionalProperties: false` so the schema can take part in an `allOf` that closes itself. */
const open = (s: JsonSchema): JsonSchema => {
  if (s['additionalProperties'] !== false) return s;
  const { additionalProperties: _closed, ...rest } = s;
  return rest;
};

const sameSchema = (a: JsonSchema, b: JsonSchema): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * A registry that turns codecs into schemas and collects the components they
 * reference. One registry per document.
 * @example
 * const schemas = createSchemaRegistry();
 * schemas.schemaOf(Account) // { $ref: '#/components/schemas/Account' }
 * schemas.components().Account // { type: 'object', properties: { id: { type: 'integer', … }, … }, … }
 */
export const createSchemaRegistry = (options: CodecSchemaOptions = {}): SchemaRegistry => {
  const refPrefix = options.refPrefix ?? '#/components/schemas/';
  const registered = new Map<string, { readonly codec: t.Mixed; schema: JsonSchema | undefined }>();

  const byName = (name: string): JsonSchema | undefined => options.named?.(name) ?? BUILT_IN_NAMES[name];

  const componentName = (codec: t.Mixed): string | undefined => {
    const tag = tagOf(codec);
    return tag !== undefined && COMPONENT_TAGS.has(tag) && TYPE_LIKE_NAME.test(codec.name) ? codec.name : undefined;
  };

  const objectSchema = (required: t.Props, optional: t.Props): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    for (const [key, codec] of Object.entries(required)) properties[key] = schemaOf(codec);
    for (const [key, codec] of Object.entries(optional)) properties[key] = schemaOf(codec);
    const requiredKeys = Object.keys(required);
    return {
      type: 'object',
      properties,
      ...(requiredKeys.length > 0 ? { required: requiredKeys } : {}),
      additionalProperties: false,
    };
  };

  const intersection = (codecs: ReadonlyArray<t.Mixed>): JsonSchema => {
    const parts = codecs.map(inline);
    if (parts.every(isObjectSchema)) {
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const part of parts) {
        Object.assign(properties, part['properties'] ?? {});
        for (const key of (part['required'] as string[] | undefined) ?? []) if (!required.includes(key)) required.push(key);
      }
      return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
    }
    // Closed parts would reject each other's properties; the intersection closes itself instead.
    return { allOf: parts.map(open), unevaluatedProperties: false };
  };

  const union = (codecs: ReadonlyArray<t.Mixed>): JsonSchema => {
    const nullable = codecs.some((c) => tagOf(c) === 'NullType');
    const members = codecs.filter((c) => tagOf(c) !== 'NullType').map(schemaOf);
    const first = members[0];
    if (members.length === 1 && first !== undefined) return nullable ? orNull(first) : first;
    return { anyOf: nullable ? [...members, { type: 'null' }] : members };
  };

  const refinement = (codec: t.RefinementType<t.Mixed>): JsonSchema => {
    const builtIn = byName(codec.name);
    // A brand (`Id`, `Cents`, …) is known by name as a whole.
    if (builtIn !== undefined && BUILT_IN_NAMES[codec.name] !== undefined) return builtIn;
    const base = schemaOf(codec.type);
    const constraints = builtIn ?? constraintsByName(codec.name, base) ?? {};
    // A name that is more than a bound (`IP address (IPv4 or IPv6, ≥7 chars)`) also tells a reader the rule.
    const said = builtIn !== undefined || REFINEMENT_NAMES[codec.name] !== undefined || BOUNDED.test(codec.name);
    const described = said ? constraints : { ...constraints, description: codec.name };
    return base['$ref'] !== undefined ? { allOf: [base], ...described } : { ...base, ...described };
  };

  /** A hand-written `t.Type`: by its name, `X | null` by X's, or not at all. */
  const opaque = (codec: t.Mixed): JsonSchema => {
    const describe = (name: string): JsonSchema | undefined => {
      const known = byName(name);
      if (known !== undefined) return known;
      if (name.endsWith(' | null')) {
        const inner = describe(name.slice(0, -' | null'.length));
        return inner === undefined ? undefined : orNull(inner);
      }
      const bounded = BOUNDED.exec(name);
      if (bounded !== null && (bounded[1] === 'integer' || bounded[1] === 'number')) {
        return { type: bounded[1], minimum: Number(bounded[2]), maximum: Number(bounded[3]) };
      }
      return undefined;
    };
    const schema = describe(codec.name);
    if (schema === undefined) {
      throw new Error(`codec-schema: cannot describe the hand-written codec "${codec.name}"; give it a schema by name (options.named)`);
    }
    return schema;
  };

  const substitute = options.substitute ?? ((codec: t.Mixed) => codec);

  function inline(given: t.Mixed): JsonSchema {
    const codec = substitute(given);
    const c = codec as t.Mixed & Record<string, unknown>;
    switch (tagOf(codec)) {
      case 'StrictObjectType':
        return objectSchema(c['required'] as t.Props, c['optional'] as t.Props);
      case 'InterfaceType':
        return objectSchema((codec as t.InterfaceType<t.Props>).props, {});
      case 'PartialType':
        return objectSchema({}, (codec as t.PartialType<t.Props>).props);
      case 'ExactType':
      case 'ReadonlyType':
      case 'RecursiveType':
        return inline((codec as t.ExactType<t.Mixed>).type);
      case 'IntersectionType':
        return intersection((codec as t.IntersectionType<t.Mixed[]>).types);
      case 'UnionType':
        return union((codec as t.UnionType<t.Mixed[]>).types);
      case 'KeyofType':
        return { type: 'string', enum: Object.keys((codec as t.KeyofType<Record<string, unknown>>).keys) };
      case 'LiteralType': {
        const value = (codec as t.LiteralType<string | number | boolean>).value;
        return { type: typeof value === 'number' ? 'number' : typeof value, const: value };
      }
      case 'ArrayType':
      case 'ReadonlyArrayType':
        return { type: 'array', items: schemaOf((codec as t.ArrayType<t.Mixed>).type) };
      case 'TupleType': {
        const items = (codec as t.TupleType<t.Mixed[]>).types.map(schemaOf);
        return { type: 'array', prefixItems: items, minItems: items.length, maxItems: items.length };
      }
      case 'DictionaryType': {
        const d = codec as t.DictionaryType<t.Mixed, t.Mixed>;
        return { type: 'object', propertyNames: inline(d.domain), additionalProperties: schemaOf(d.codomain) };
      }
      case 'RefinementType':
        return refinement(codec as t.RefinementType<t.Mixed>);
      case 'StringType':
        return { type: 'string' };
      case 'NumberType':
        return { type: 'number' };
      case 'BooleanType':
        return { type: 'boolean' };
      case 'NullType':
        return { type: 'null' };
      case 'UnknownType':
      case 'AnyType':
        return {};
      case 'UnknownRecordType':
      case 'AnyDictionaryType':
        return { type: 'object' };
      case 'UnknownArrayType':
      case 'AnyArrayType':
        return { type: 'array' };
      case 'NeverType':
        return { not: {} };
      case undefined:
        return opaque(codec);
      default:
        throw new Error(`codec-schema: no JSON Schema for io-ts ${String(tagOf(codec))} "${codec.name}"`);
    }
  }

  function schemaOf(given: t.Mixed): JsonSchema {
    const codec = substitute(given);
    const name = componentName(codec);
    if (name === undefined) return inline(codec);
    const ref = { $ref: `${refPrefix}${name}` };
    const existing = registered.get(name);
    if (existing !== undefined) {
      // The same codec again, or one being built (a recursive reference): the ref is enough.
      if (existing.codec === codec || existing.schema === undefined) return ref;
      const schema = inline(codec);
      if (!sameSchema(schema, existing.schema)) {
        throw new Error(`codec-schema: two different codecs are named "${name}"; rename one of them`);
      }
      return ref;
    }
    const entry: { readonly codec: t.Mixed; schema: JsonSchema | undefined } = { codec, schema: undefined };
    registered.set(name, entry);
    entry.schema = inline(codec);
    return ref;
  }

  return {
    schemaOf,
    inline,
    components: () => {
      const out: Record<string, JsonSchema> = {};
      for (const [name, { schema }] of registered) if (schema !== undefined) out[name] = schema;
      return out;
    },
  };
};
