/**
 * What a version change is made of (docs/decisions/versioning.md): the types every module under
 * `changes/` fills in. `versions.ts` lists the releases and builds the registry.
 */
import * as t from 'io-ts';
import type { ScheduleMonth } from '../payment-plans/payment-plan.js';
import type { ResponseKind } from './response-kinds.js';

/** The response kinds and their codecs: one table (`response-kinds.ts`). */
export { RESPONSE_CODECS, ResponseKind, type ResponseOf } from './response-kinds.js';

/**
 * What an older version's shape needs that the latest body does not carry,
 * taken from the stored records the body was made from. Plain JSON data, so it
 * can be kept beside a stored event and render it later.
 */
export interface RenderContext {
  /** The schedule of each payment plan in the body, by plan id (plans stopped embedding it in 2026-11-26). */
  readonly plan_schedules?: Readonly<Record<string, ReadonlyArray<ScheduleMonth>>>;
  /** Each other change's part, under its own key (e.g. `user_deleted`), decoded by that change with its codec. */
  readonly [key: string]: unknown;
}

/** No context: what a body that needs none is rendered with. */
export const NO_RENDER_CONTEXT: RenderContext = Object.freeze({});

/**
 * Turn a body of a change's version into the previous version's shape,
 * without mutating it; `context` has what the latest body no longer carries.
 */
export type BodyTransform = (body: unknown, context: RenderContext) => unknown;

/**
 * A request body a change reshaped. A request in an older version is first
 * validated with `previous` (so its errors name that version's fields), then
 * `migrate`d to this change's shape, before the latest codec decodes it.
 */
export interface RequestMigration {
  /** The body's codec as the previous version had it, named as the latest one (`LinkAccountBody`). */
  readonly previous: t.Mixed;
  /** A body `previous` accepts → the same request in this change's shape (a new object). */
  readonly migrate: (body: Readonly<Record<string, unknown>>) => unknown;
}

/** One backward-incompatible change: ONE module under `changes/`. */
export interface VersionChange {
  /** The release that introduced it. */
  readonly version: string;
  /** What changed and why, for the changelog (`GET /api/versions`, docs/api/changelog.md). Markdown, one paragraph. */
  readonly description: string;
  /** Request bodies it reshaped, migrated forward for older versions before they are decoded. */
  readonly requests?: ReadonlyArray<RequestMigration>;
  /** Per response kind, this version's body → the previous version's (lists included: `mapListItems`). */
  readonly transforms: Partial<Record<ResponseKind, BodyTransform>>;
  /**
   * The previous version's codecs of the response objects it reshaped, named
   * as the latest ones (`PaymentPlan`): older versions' OpenAPI documents use
   * them wherever the latest codec of that name appears.
   */
  readonly previousCodecs?: ReadonlyArray<t.Mixed>;
}

export interface VersionRelease {
  /** `YYYY-MM-DD`, the day it shipped. */
  readonly version: string;
  readonly changes: ReadonlyArray<VersionChange>;
}

/** Where an answer keeps its render context: a symbol, not enumerable, so JSON, spreads and equality never see it. */
const RENDER_CONTEXT: unique symbol = Symbol('debtkit.renderContext');

/**
 * A use case's answer in the latest shape, carrying the render context older
 * versions need to shape it (a plan and its stored schedule): still an `A` for
 * an embedder; the HTTP adapter renders it with `renderContextOf(answer)`.
 */
export type InContext<A extends object> = A & { readonly [RENDER_CONTEXT]: RenderContext };

/** `body` carrying `context` (the same object, with a hidden, non-enumerable property). */
export const inContext = <A extends object>(body: A, context: RenderContext): InContext<A> =>
  Object.defineProperty(body, RENDER_CONTEXT, { value: context, enumerable: false }) as InContext<A>;

/** The render context an answer carries (`inContext`), if any. */
export const renderContextOf = (u: unknown): RenderContext | undefined =>
  typeof u === 'object' && u !== null ? (u as { [RENDER_CONTEXT]?: RenderContext })[RENDER_CONTEXT] : undefined;
