/**
 * Recoverable errors are values. Each `_tag` is the stable API error code
 * (except `unavailable`, which the HTTP adapter serves as `service_unavailable`).
 * The HTTP adapter owns the one table from tag to status.
 */
export interface ErrorDetail {
  readonly path: string;
  readonly message: string;
}

export type DomainError =
  | { readonly _tag: 'validation_error'; readonly message: string; readonly details?: ReadonlyArray<ErrorDetail> }
  | { readonly _tag: 'not_found'; readonly message: string }
  | { readonly _tag: 'conflict'; readonly message: string; /** A write conflict between transactions: worth running again (shared/unit-of-work.ts). */ readonly transient?: true; /** It kept losing until the deadline: the client may retry after this many seconds (409 with `Retry-After`). */ readonly retryAfterSeconds?: number }
  | { readonly _tag: 'bureau_error'; readonly message: string }
  /** A per-user or per-client quota is reached (shared/quotas.ts); the message names the quota and its value. */
  | { readonly _tag: 'quota_exceeded'; readonly message: string }
  | { readonly _tag: 'unauthorized'; readonly message: string }
  | { readonly _tag: 'forbidden'; readonly message: string }
  | { readonly _tag: 'unsupported_version'; readonly message: string }
  | { readonly _tag: 'unavailable'; readonly message: string; /** The message is a reason an operator may see (`/readyz`): it quotes no driver or host. */ readonly explained?: true };

export type ErrorTag = DomainError['_tag'];

export const validationError = (message: string, details?: ReadonlyArray<ErrorDetail>): DomainError =>
  details === undefined ? { _tag: 'validation_error', message } : { _tag: 'validation_error', message, details };
export const notFound = (message: string): DomainError => ({ _tag: 'not_found', message });
export const conflict = (message: string): DomainError => ({ _tag: 'conflict', message });
export const bureauError = (message: string): DomainError => ({ _tag: 'bureau_error', message });
export const quotaExceeded = (message: string): DomainError => ({ _tag: 'quota_exceeded', message });
export const unauthorized = (message: string): DomainError => ({ _tag: 'unauthorized', message });
export const forbidden = (message: string): DomainError => ({ _tag: 'forbidden', message });
export const unsupportedVersion = (message: string): DomainError => ({ _tag: 'unsupported_version', message });
export const unavailable = (message: string): DomainError => ({ _tag: 'unavailable', message });

export const isDomainError = (u: unknown): u is DomainError =>
  typeof u === 'object' && u !== null && typeof (u as { _tag?: unknown })._tag === 'string' &&
  typeof (u as { message?: unknown }).message === 'string';
