/**
 * Building blocks for version-change transforms. Each returns a new body and
 * never mutates the one it is given (`render` relies on that: response bodies
 * may be shared, e.g. cached content). A body that is not of the expected shape
 * passes through unchanged, so a transform is total.
 */
import type { BodyTransform, RenderContext } from './version-change.js';

export type { BodyTransform, RenderContext } from './version-change.js';

const isPlainObject = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * Give field `from` its older name `to` (in place: the other fields keep their order).
 * @example renameField('score', 'value')({ score: 700 }, {}) // { value: 700 }
 */
export const renameField =
  (from: string, to: string): BodyTransform =>
  (body) => {
    if (!isPlainObject(body) || !Object.hasOwn(body, from)) return body;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(body)) out[key === from ? to : key] = value;
    return out;
  };

/**
 * Drop a field the older version did not have.
 * @example removeField('nickname')({ id: 1, nickname: 'x' }, {}) // { id: 1 }
 */
export const removeField =
  (name: string): BodyTransform =>
  (body) => {
    if (!isPlainObject(body) || !Object.hasOwn(body, name)) return body;
    const { [name]: _removed, ...rest } = body;
    return rest;
  };

/**
 * Add (or replace) a field the older version had, computed from the body and
 * the render context (what the latest body no longer carries).
 * @example addField('legacy', (b) => b['id'])({ id: 1 }, {}) // { id: 1, legacy: 1 }
 */
export const addField =
  (name: string, value: (body: Readonly<Record<string, unknown>>, context: RenderContext) => unknown): BodyTransform =>
  (body, context) =>
    isPlainObject(body) ? { ...body, [name]: value(body, context) } : body;

/**
 * Lift an item transform to a list response `{ [key]: [...items], ... }`, so a
 * change to `account` can be applied to `account_list` too.
 * @example mapListItems('accounts', removeField('nickname'))
 */
export const mapListItems =
  (key: string, item: BodyTransform): BodyTransform =>
  (body, context) => {
    if (!isPlainObject(body)) return body;
    const items = body[key];
    return Array.isArray(items) ? { ...body, [key]: items.map((i: unknown) => item(i, context)) } : body;
  };

/** Apply transforms left to right. */
export const pipeTransforms =
  (...transforms: ReadonlyArray<BodyTransform>): BodyTransform =>
  (body, context) =>
    transforms.reduce((b, f) => f(b, context), body);
