/**
 * The OpenAPI compatibility guard (docs/testing.md, docs/decisions/versioning.md):
 * what changed between a released version's kept OpenAPI document and the one
 * served for that version today, each change classified as breaking (it needs
 * a new API version) or an addition (accept it into the kept document with
 * `npm run openapi:accept`).
 *
 * Why our own walk and not `api-smart-diff` (evaluated, 1.0.6): on our 3.1
 * documents it classifies a response field's type change (integer → string,
 * `["integer","null"]` → `["string","null"]`) and a `null` added to a
 * response's type as non-breaking, and takes 10–50 s per comparison of our
 * 0.5 MB document on the project's machine. Our documents are generated from
 * io-ts codecs with a small JSON Schema vocabulary (type, properties, required,
 * enum, const, items, anyOf / oneOf / allOf, additionalProperties, $ref), which
 * this walk covers, direction-aware: what a client sends (request bodies,
 * parameters) may widen, what it receives (responses, webhook payloads) may
 * only narrow, except enum values, which are never removed and never added to
 * a response without a new version. One exception, narrow: an error response's
 * `error.code` may gain a code (an addition, `error code added`; removing one is
 * still breaking). Error codes are one vocabulary for the whole API
 * (docs/decisions/errors.md); a client handles a code it does not know by its
 * HTTP status (docs/decisions/versioning.md, "What is compatible"), as
 * Stripe's error codes gain values within an API version.
 *
 * Not compared: descriptions, summaries and examples (annotations), headers,
 * numeric and string bounds (minimum, pattern, …), security schemes.
 */

export type ChangeKind =
  // breaking
  | 'path removed'
  | 'operation removed'
  | 'webhook removed'
  | 'response status removed'
  | 'response field removed'
  | 'response field made optional'
  | 'request field removed'
  | 'request field newly required'
  | 'request body newly required'
  | 'parameter removed'
  | 'parameter newly required'
  | 'enum value removed'
  | 'response enum value added'
  | 'type changed'
  // additions
  | 'path added'
  | 'operation added'
  | 'webhook added'
  | 'response status added'
  | 'response field added'
  | 'request field added'
  | 'parameter added'
  | 'request enum value added'
  | 'error code added'
  | 'request type widened'
  | 'response type narrowed';

const BREAKING: ReadonlySet<ChangeKind> = new Set<ChangeKind>([
  'path removed',
  'operation removed',
  'webhook removed',
  'response status removed',
  'response field removed',
  'response field made optional',
  'request field removed',
  'request field newly required',
  'request body newly required',
  'parameter removed',
  'parameter newly required',
  'enum value removed',
  'response enum value added',
  'type changed',
]);

export interface Change {
  readonly kind: ChangeKind;
  readonly breaking: boolean;
  /** Where, e.g. `POST /api/users request body .last_name`. */
  readonly where: string;
  readonly detail?: string;
}

type Json = { readonly [key: string]: unknown };
type Direction = 'request' | 'response';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isObject(v) ? v : {});

/** Follow `$ref` (local `#/...` pointers) until a schema that is not a reference. */
const deref = (root: Json, node: unknown, seen: Set<string> = new Set()): { schema: Json; ref?: string } => {
  let current = obj(node);
  let ref: string | undefined;
  while (typeof current['$ref'] === 'string') {
    ref = current['$ref'];
    if (seen.has(ref) || !ref.startsWith('#/')) break;
    seen.add(ref);
    let target: unknown = root;
    for (const part of ref.slice(2).split('/')) target = obj(target)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    current = obj(target);
  }
  return ref === undefined ? { schema: current } : { schema: current, ref };
};

/**
 * Where an error response's code is: `<operation> <4xx|5xx status>.error.code`, as the walk names it
 * (the `code` of the `error` object of an error status's JSON body).
 */
const ERROR_CODE_AT = / [45]\d\d\.error\.code$/;

/** The schema's types as a set; `undefined` when it says nothing (any type). `const` and `enum` alone imply theirs. */
const typesOf = (s: Json): ReadonlySet<string> | undefined => {
  const type = s['type'];
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.map(String));
  if (isObject(s['properties'])) return new Set(['object']);
  return undefined;
};

/** The values a schema allows when it lists them (`enum`, `const`); `undefined` when it does not. */
const valuesOf = (s: Json): ReadonlyArray<unknown> | undefined => {
  if (Array.isArray(s['enum'])) return s['enum'];
  if ('const' in s) return [s['const']];
  return undefined;
};

const key = (v: unknown): string => JSON.stringify(v);
const subset = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => [...a].every((x) => b.has(x));
const show = (s: ReadonlySet<string> | undefined): string => (s === undefined ? 'any' : [...s].sort().join('|'));

class Comparison {
  readonly changes: Change[] = [];
  /** Schema pairs already compared in a direction (recursive schemas, shared components). */
  private readonly visited = new Set<string>();

  constructor(
    private readonly before: Json,
    private readonly after: Json,
  ) {}

  private add(kind: ChangeKind, where: string, detail?: string): void {
    this.changes.push(
      detail === undefined ? { kind, breaking: BREAKING.has(kind), where } : { kind, breaking: BREAKING.has(kind), where, detail },
    );
  }

  schema(beforeNode: unknown, afterNode: unknown, direction: Direction, where: string): void {
    const b = deref(this.before, beforeNode);
    const a = deref(this.after, afterNode);
    if (b.ref !== undefined && a.ref !== undefined) {
      const pair = `${direction} ${b.ref} ${a.ref}`;
      if (this.visited.has(pair)) return;
      this.visited.add(pair);
    }
    this.types(b.schema, a.schema, direction, where);
    this.values(b.schema, a.schema, direction, where);
    this.properties(b.schema, a.schema, direction, where);
    if ('items' in b.schema || 'items' in a.schema) this.schema(b.schema['items'], a.schema['items'], direction, `${where}[]`);
    if (isObject(b.schema['additionalProperties']) && isObject(a.schema['additionalProperties'])) {
      this.schema(b.schema['additionalProperties'], a.schema['additionalProperties'], direction, `${where}{}`);
    }
    for (const combinator of ['anyOf', 'oneOf', 'allOf'] as const) this.alternatives(b.schema, a.schema, combinator, direction, where);
  }

  private types(b: Json, a: Json, direction: Direction, where: string): void {
    const before = typesOf(b);
    const after = typesOf(a);
    if (before === undefined && after === undefined) return;
    if (before !== undefined && after !== undefined && before.size === after.size && subset(before, after)) return;
    const detail = `${show(before)} → ${show(after)}`;
    // What a client sends may accept more; what it receives may promise less.
    if (direction === 'request' && (after === undefined || (before !== undefined && subset(before, after))))
      this.add('request type widened', where, detail);
    else if (direction === 'response' && after !== undefined && (before === undefined || subset(after, before)))
      this.add('response type narrowed', where, detail);
    else this.add('type changed', where, detail);
  }

  private values(b: Json, a: Json, direction: Direction, where: string): void {
    const before = valuesOf(b);
    const after = valuesOf(a);
    if (before === undefined && after === undefined) return;
    if (before !== undefined && after !== undefined) {
      const afterKeys = new Set(after.map(key));
      const beforeKeys = new Set(before.map(key));
      for (const v of before) if (!afterKeys.has(key(v))) this.add('enum value removed', where, key(v));
      for (const v of after)
        if (!beforeKeys.has(key(v)))
          this.add(
            direction === 'request'
              ? 'request enum value added'
              : ERROR_CODE_AT.test(where)
                ? 'error code added'
                : 'response enum value added',
            where,
            key(v),
          );
    } else if (before === undefined) {
      // A list of values where any was allowed: fewer values accepted in a request; a narrowing in a response.
      this.add(direction === 'request' ? 'type changed' : 'response type narrowed', where, `any value → ${after!.map(key).join(', ')}`);
    } else {
      this.add(direction === 'request' ? 'request type widened' : 'type changed', where, `${before.map(key).join(', ')} → any value`);
    }
  }

  private properties(b: Json, a: Json, direction: Direction, where: string): void {
    const before = obj(b['properties']);
    const after = obj(a['properties']);
    const requiredBefore = new Set(Array.isArray(b['required']) ? b['required'].map(String) : []);
    const requiredAfter = new Set(Array.isArray(a['required']) ? a['required'].map(String) : []);
    for (const name of Object.keys(before)) {
      const at = `${where}.${name}`;
      if (!(name in after)) {
        this.add(direction === 'response' ? 'response field removed' : 'request field removed', at);
        continue;
      }
      if (direction === 'response' && requiredBefore.has(name) && !requiredAfter.has(name)) this.add('response field made optional', at);
      if (direction === 'request' && !requiredBefore.has(name) && requiredAfter.has(name)) this.add('request field newly required', at);
      this.schema(before[name], after[name], direction, at);
    }
    for (const name of Object.keys(after)) {
      if (name in before) continue;
      const at = `${where}.${name}`;
      if (direction === 'request' && requiredAfter.has(name)) this.add('request field newly required', at);
      else this.add(direction === 'response' ? 'response field added' : 'request field added', at);
    }
  }

  private alternatives(b: Json, a: Json, combinator: 'anyOf' | 'oneOf' | 'allOf', direction: Direction, where: string): void {
    const before = Array.isArray(b[combinator]) ? (b[combinator] as unknown[]) : [];
    const after = Array.isArray(a[combinator]) ? (a[combinator] as unknown[]) : [];
    if (before.length === 0 && after.length === 0) return;
    for (let i = 0; i < Math.min(before.length, after.length); i++)
      this.schema(before[i], after[i], direction, `${where}<${combinator} ${i}>`);
    if (before.length === after.length || combinator === 'allOf') return;
    const detail = `${before.length} → ${after.length} alternatives`;
    const widened = after.length > before.length;
    if (direction === 'request') this.add(widened ? 'request type widened' : 'type changed', `${where}<${combinator}>`, detail);
    else this.add(widened ? 'type changed' : 'response type narrowed', `${where}<${combinator}>`, detail);
  }

  operation(b: Json, a: Json, where: string): void {
    this.parameters(b, a, where);
    const bodyBefore = obj(b['requestBody']);
    const bodyAfter = obj(a['requestBody']);
    if (bodyBefore['required'] !== true && bodyAfter['required'] === true) this.add('request body newly required', where);
    this.content(bodyBefore, bodyAfter, 'request', `${where} request body`);
    const responsesBefore = obj(b['responses']);
    const responsesAfter = obj(a['responses']);
    for (const status of Object.keys(responsesBefore)) {
      if (!(status in responsesAfter)) this.add('response status removed', `${where} ${status}`);
      else
        this.content(
          deref(this.before, responsesBefore[status]).schema,
          deref(this.after, responsesAfter[status]).schema,
          'response',
          `${where} ${status}`,
        );
    }
    for (const status of Object.keys(responsesAfter))
      if (!(status in responsesBefore)) this.add('response status added', `${where} ${status}`);
  }

  /** The JSON content of a request body or a response (each media type both documents list). */
  private content(b: Json, a: Json, direction: Direction, where: string): void {
    const before = obj(deref(this.before, b).schema['content']);
    const after = obj(deref(this.after, a).schema['content']);
    for (const media of Object.keys(before)) {
      if (!(media in after)) {
        this.add(direction === 'response' ? 'response field removed' : 'request field removed', where, `media type ${media}`);
        continue;
      }
      this.schema(obj(before[media])['schema'], obj(after[media])['schema'], direction, where);
    }
  }

  private parameters(b: Json, a: Json, where: string): void {
    const index = (root: Json, op: Json): Map<string, Json> =>
      new Map(
        (Array.isArray(op['parameters']) ? op['parameters'] : [])
          .map((p) => deref(root, p).schema)
          .map((p) => [`${String(p['in'])} ${String(p['name'])}`, p] as const),
      );
    const before = index(this.before, b);
    const after = index(this.after, a);
    for (const [name, p] of before) {
      const q = after.get(name);
      if (q === undefined) {
        this.add('parameter removed', `${where} ${name}`);
        continue;
      }
      if (p['required'] !== true && q['required'] === true) this.add('parameter newly required', `${where} ${name}`);
      this.schema(p['schema'], q['schema'], 'request', `${where} ${name}`);
    }
    for (const [name, q] of after) {
      if (before.has(name)) continue;
      this.add(q['required'] === true ? 'parameter newly required' : 'parameter added', `${where} ${name}`);
    }
  }
}

/**
 * Every change from `released` (a kept document) to `served`, in document
 * order. Breaking ones need a new API version; the others are additions.
 * @example compareOpenApi(kept, served).filter((c) => c.breaking)
 */
export const compareOpenApi = (released: unknown, served: unknown): ReadonlyArray<Change> => {
  const before = obj(released);
  const after = obj(served);
  const comparison = new Comparison(before, after);
  const operations = (section: 'paths' | 'webhooks', removed: ChangeKind, added: ChangeKind): void => {
    const pathsBefore = obj(before[section]);
    const pathsAfter = obj(after[section]);
    for (const path of Object.keys(pathsBefore)) {
      if (!(path in pathsAfter)) {
        comparison.changes.push({ kind: removed, breaking: BREAKING.has(removed), where: path });
        continue;
      }
      const itemBefore = obj(pathsBefore[path]);
      const itemAfter = obj(pathsAfter[path]);
      for (const method of METHODS) {
        const where = section === 'webhooks' ? `webhook ${path}` : `${method.toUpperCase()} ${path}`;
        if (!(method in itemBefore)) {
          if (method in itemAfter) comparison.changes.push({ kind: 'operation added', breaking: false, where });
          continue;
        }
        if (!(method in itemAfter)) {
          comparison.changes.push({ kind: 'operation removed', breaking: true, where });
          continue;
        }
        if (section === 'webhooks') {
          // A webhook's request body is what debtkit sends the client's receiver: a response, for compatibility.
          const b = obj(obj(itemBefore[method])['requestBody']);
          const a = obj(obj(itemAfter[method])['requestBody']);
          const contentBefore = obj(b['content']);
          const contentAfter = obj(a['content']);
          for (const media of Object.keys(contentBefore)) {
            if (!(media in contentAfter))
              comparison.changes.push({ kind: 'response field removed', breaking: true, where, detail: `media type ${media}` });
            else comparison.schema(obj(contentBefore[media])['schema'], obj(contentAfter[media])['schema'], 'response', `${where} payload`);
          }
        } else comparison.operation(obj(itemBefore[method]), obj(itemAfter[method]), where);
      }
    }
    for (const path of Object.keys(pathsAfter)) {
      if (!(path in pathsBefore)) comparison.changes.push({ kind: added, breaking: false, where: path });
    }
  };
  operations('paths', 'path removed', 'path added');
  operations('webhooks', 'webhook removed', 'webhook added');
  return comparison.changes;
};

/** One line per change, for a test's failure message or the accept command's report. */
export const describeChanges = (changes: ReadonlyArray<Change>): string =>
  changes
    .map((c) => `  ${c.breaking ? 'BREAKING' : 'addition'}: ${c.kind} at ${c.where}${c.detail === undefined ? '' : ` (${c.detail})`}`)
    .join('\n');
