/**
 * Recoverable errors are values (docs/decisions/errors.md). Each `_tag` is the
 * stable API error code (except `unavailable`, which the HTTP adapter serves as
 * `service_unavailable`), and each tag is its own type, so a use case's type
 * names exactly the tags it can return (`Change<Account, NotFound | QuotaExceeded | StoreError>`).
 * The HTTP adapter owns the one table from tag to status, and the codes only it
 * produces (`unauthorized`, `forbidden`, `unsupported_version`).
 */
export interface ErrorDetail {
  readonly path: string;
  readonly message: string;
}

/** The input breaks a rule the domain checks (a status transition, a date, a body the bureau refuses); `details` name the fields. */
export interface ValidationError {
  readonly _tag: 'validation_error';
  readonly message: string;
  readonly details?: ReadonlyArray<ErrorDetail>;
}

/** No such record for this caller (a missing one and another client's are the same answer). */
export interface NotFound {
  readonly _tag: 'not_found';
  readonly message: string;
}

/** The change is not allowed in the current state, or lost to concurrent changes. */
export interface Conflict {
  readonly _tag: 'conflict';
  readonly message: string;
  /** A write conflict between transactions: worth running again (shared/unit-of-work.ts). */
  readonly transient?: true;
  /** It kept losing until the deadline: the client may retry after this many seconds (409 with `Retry-After`). */
  readonly retryAfterSeconds?: number;
}

/** The credit bureau refused (no product match for the user). */
export interface BureauError {
  readonly _tag: 'bureau_error';
  readonly message: string;
}

/** A per-user or per-client quota is reached (shared/quotas.ts); the message names the quota and its value. */
export interface QuotaExceeded {
  readonly _tag: 'quota_exceeded';
  readonly message: string;
}

/** A store or the bureau cannot be reached now; retrying later may succeed. */
export interface Unavailable {
  readonly _tag: 'unavailable';
  readonly message: string;
  /** The message is a reason an operator may see (`/readyz`): it quotes no driver or host. */
  readonly explained?: true;
}

/** Every error core produces. A use case names the few it can return; this is their union. */
export type DomainError = ValidationError | NotFound | Conflict | BureauError | QuotaExceeded | Unavailable;

export type ErrorTag = DomainError['_tag'];

/** What a store port fails with: a conflict (a unique key, a compare-and-set, a write conflict) or an unreachable store. */
export type StoreError = Conflict | Unavailable;

export const validationError = (message: string, details?: ReadonlyArray<ErrorDetail>): ValidationError =>
  details === undefined ? { _tag: 'validation_error', message } : { _tag: 'validation_error', message, details };
export const notFound = (message: string): NotFound => ({ _tag: 'not_found', message });
export const conflict = (message: string): Conflict => ({ _tag: 'conflict', message });
export const bureauError = (message: string): BureauError => ({ _tag: 'bureau_error', message });
export const quotaExceeded = (message: string): QuotaExceeded => ({ _tag: 'quota_exceeded', message });
export const unavailable = (message: string): Unavailable => ({ _tag: 'unavailable', message });

export const isDomainError = (u: unknown): u is DomainError =>
  typeof u === 'object' &&
  u !== null &&
  typeof (u as { _tag?: unknown })._tag === 'string' &&
  typeof (u as { message?: unknown }).message === 'string';
