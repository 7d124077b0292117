/**
 * What a version change is made of (docs/decisions/versioning.md), on the kernel floor
 * (docs/architecture.md, "The dependency rule"): the types each feature's version changes fill in
 * (`accounts/account-institution-fields.ts`, `payment-plans/payment-plan-schedule-paged.ts`,
 * `users/user-deleted-ids-only.ts`) and the `Versioning` every use case is given. The registry
 * (`registry/versioning/versions.ts`) lists the releases and builds the production one.
 */
import type * as t from 'io-ts';
import type * as E from 'fp-ts/lib/Either.js';
import type { ValidationError } from '../errors.js';

/**
 * The response kinds, each with its codec: an empty slot the registry fills by module augmentation
 * (`registry/versioning/response-kinds.ts`, from its `RESPONSE_CODECS` table), so the kernel names
 * no feature and a change's `transforms` are still checked against every kind.
 */
export interface ResponseCodecs {}

/** A response kind: a key of `ResponseCodecs` (the registry's `ResponseKind` codec checks it at run time). */
export type ResponseKind = Extract<keyof ResponseCodecs, string>;

/**
 * What an older version's shape needs that the latest body does not carry,
 * taken from the stored records the body was made from. Plain JSON data, so it
 * can be kept beside a stored event and render it later.
 */
export interface RenderContext {
  /** Each change's part, under its own key (`plan_schedules`, added by payment-plans' change; `user_deleted`), decoded by that change with its codec. Each other change's part, under its own key (e.g. `user_deleted`), decoded by that change with its codec. */
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

export interface Versioning {
  /** The newest release. */
  readonly latest: string;
  /** Every release, oldest first. */
  readonly known: ReadonlyArray<string>;
  /** Every release with its changes, newest first: the changelog. */
  readonly releases: ReadonlyArray<VersionRelease>;
  isKnown(version: string): boolean;
  /**
   * The latest-shape `body` of kind `kind`, as `version` shapes it. Returns
   * `body` itself (same reference, no work) for the latest version or when no
   * newer change touches `kind`. `context` carries what an older shape needs
   * and the latest body does not (a plan's schedule: `planScheduleContext`).
   * `version` must be known (check `isKnown` first: the HTTP adapter answers
   * 400 `unsupported_version`); an unknown one throws, because serving some
   * guessed shape would be a silent bug.
   * @example versioning.render('credit_score', body, '2024-07-01') === body
   */
  render(kind: ResponseKind, body: unknown, version: string, context?: RenderContext): unknown;
  /**
   * A request body sent in `version`, for an endpoint whose latest body codec
   * is named `codecName`: validated with `version`'s own codec (so its errors
   * name that version's fields), then migrated forward to the latest shape.
   * Right(`body` itself) when no newer change reshaped it. Decode the result
   * with the latest codec.
   */
  migrateRequest(codecName: string, body: unknown, version: string): E.Either<ValidationError, unknown>;
  /**
   * The codec `version` has in place of the latest codec named `name` (the
   * previous codec of the oldest newer change that reshaped it), or
   * `undefined` when it has the latest one.
   */
  codecAt(name: string, version: string): t.Mixed | undefined;
}
