/**
 * The API's error model (docs/decisions/errors.md). Handlers and middleware report an error
 * by throwing an `ApiError` (or a `DomainError` value, which is wrapped the same
 * way); the error handler turns it into `{ error: { code, message, request_id,
 * details? } }`. Everything else thrown is a bug: a 500 with a generic message.
 *
 * `ERROR_TABLE` is the one place that maps an error kind to its status, public
 * code and headers. It is keyed by every `DomainError` tag plus the codes only
 * HTTP produces (`HttpOnlyErrorKind`: core never produces them), so adding a tag
 * to core fails the type-check here until it has a status.
 */
import { DomainError, ErrorDetail, ErrorTag, isDomainError, isWriteConflict } from '@debtkit/core';

/** Errors that only the HTTP layer produces (docs/decisions/errors.md): core has no tag for them. */
export type HttpOnlyErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'unsupported_version'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  | 'not_found'
  | 'internal_server_error';

export type ErrorKind = ErrorTag | HttpOnlyErrorKind;

/** The `code` a client sees: every kind is its own code, except `unavailable`. */
export type ErrorCode = Exclude<ErrorKind, 'unavailable'> | 'service_unavailable';

interface ErrorRule {
  readonly status: number;
  readonly code: ErrorCode;
  readonly headers?: Readonly<Record<string, string>>;
}

export const ERROR_TABLE: { readonly [K in ErrorKind]: ErrorRule } = {
  validation_error: { status: 400, code: 'validation_error' },
  unsupported_version: { status: 400, code: 'unsupported_version' },
  unauthorized: { status: 401, code: 'unauthorized', headers: { 'WWW-Authenticate': 'Bearer' } },
  forbidden: { status: 403, code: 'forbidden' },
  not_found: { status: 404, code: 'not_found' },
  method_not_allowed: { status: 405, code: 'method_not_allowed' },
  conflict: { status: 409, code: 'conflict' },
  payload_too_large: { status: 413, code: 'payload_too_large' },
  unsupported_media_type: { status: 415, code: 'unsupported_media_type' },
  bureau_error: { status: 422, code: 'bureau_error' },
  idempotency_key_in_use: { status: 409, code: 'idempotency_key_in_use' },
  idempotency_key_reused: { status: 422, code: 'idempotency_key_reused' },
  quota_exceeded: { status: 409, code: 'quota_exceeded' },
  rate_limited: { status: 429, code: 'rate_limited', headers: { 'Retry-After': '1' } },
  internal_server_error: { status: 500, code: 'internal_server_error' },
  unavailable: { status: 503, code: 'service_unavailable', headers: { 'Retry-After': '5' } },
};

/**
 * An error to answer with. `headers` add to (or override) the table's headers for the kind.
 *
 * One that answers the client's own request (a 4xx) carries no stack: it is
 * answered, never logged with one (pipeline/error-responder.ts logs a stack only
 * for the unexpected), and capturing it was a tenth of a refused request's cost
 * under a flood of 429s (docs/performance.md, round 5). A 5xx keeps its stack.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** A write conflict between transactions: the change may be run again (shared/unit-of-work.ts in core). */
  transient = false;
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details?: ReadonlyArray<ErrorDetail>,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const limit = Error.stackTraceLimit;
    if (ERROR_TABLE[kind].status < 500) Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/** An `unavailable` message comes from a store adapter and may quote its driver, so clients get a fixed one. */
const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable; retry shortly';

/** A change that kept losing write conflicts until its deadline (docs/decisions/transactions.md): 409 with `Retry-After`. */
const retryAfterOf = (e: DomainError): Readonly<Record<string, string>> =>
  e._tag === 'conflict' && e.retryAfterSeconds !== undefined ? { 'Retry-After': String(Math.max(1, Math.ceil(e.retryAfterSeconds))) } : {};

export const fromDomainError = (e: DomainError): ApiError =>
  e._tag === 'unavailable'
    ? new ApiError('unavailable', UNAVAILABLE_MESSAGE)
    : Object.assign(new ApiError(e._tag, e.message, e._tag === 'validation_error' ? e.details : undefined, retryAfterOf(e)), {
        transient: isWriteConflict(e),
      });

export interface ErrorBody {
  readonly error: {
    readonly code: ErrorCode;
    readonly message: string;
    readonly request_id: string;
    readonly details?: ReadonlyArray<ErrorDetail>;
  };
}

/**
 * How much of an error's details is listed (docs/decisions/errors.md): the first
 * `MAX_LISTED_DETAILS`, each `path` and `message` cut to `MAX_DETAIL_CHARS`, and
 * the count of all of them in the message. So a body with 30,000 unknown fields
 * (or one field with a 500 KB name) is answered a few KB, about the size of any
 * other error, never an echo of the request.
 */
export const MAX_LISTED_DETAILS = 20;
export const MAX_DETAIL_CHARS = 200;
/** A message is ours, but may quote the request (an unknown version, a name): cut as details are, with room. */
const MAX_MESSAGE_CHARS = 1_000;

const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const listedDetails = (details: ReadonlyArray<ErrorDetail>): ReadonlyArray<ErrorDetail> =>
  details.slice(0, MAX_LISTED_DETAILS).map((d) => ({ path: cut(d.path, MAX_DETAIL_CHARS), message: cut(d.message, MAX_DETAIL_CHARS) }));

/** What an error answer is written from: an `ApiError`, or the same fields without an `Error` made (a refusal answered in place). */
export type ApiErrorAnswer = Pick<ApiError, 'kind' | 'message' | 'details' | 'headers'>;

const messageOf = (e: ApiErrorAnswer): string => {
  const count = e.details?.length ?? 0;
  const listed = count > MAX_LISTED_DETAILS ? ` (${count} problems; the first ${MAX_LISTED_DETAILS} are listed)` : '';
  return `${cut(e.message, MAX_MESSAGE_CHARS)}${listed}`;
};

export const errorBody = (e: ApiErrorAnswer, requestId: string): ErrorBody => ({
  error:
    e.details === undefined || e.details.length === 0
      ? { code: ERROR_TABLE[e.kind].code, message: messageOf(e), request_id: requestId }
      : { code: ERROR_TABLE[e.kind].code, message: messageOf(e), request_id: requestId, details: listedDetails(e.details) },
});

// Errors thrown by Koa and its libraries (`http-errors`) carry a status; these
// are the ones that describe the client's request, with the kind they become.
const CLIENT_STATUS_KINDS: Readonly<Record<number, ErrorKind>> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

const GENERIC_MESSAGES: Readonly<Partial<Record<ErrorKind, string>>> = {
  validation_error: 'The request is malformed',
  payload_too_large: 'The request body is larger than 1 MiB',
  unsupported_media_type: 'The request body has an unsupported media type, encoding or charset',
};

const statusOf = (err: unknown): number | undefined => {
  if (typeof err !== 'object' || err === null) return undefined;
  const { status, statusCode } = err as { status?: unknown; statusCode?: unknown };
  const s = typeof status === 'number' ? status : statusCode;
  return typeof s === 'number' ? s : undefined;
};

/**
 * The `ApiError` a thrown value stands for, or `undefined` when it is
 * unexpected (a bug, or a 5xx from a library): the caller answers 500 and logs it.
 * A library's own message is never passed through: it may name internals.
 */
export const toApiError = (err: unknown): ApiError | undefined => {
  if (err instanceof ApiError) return err;
  if (isDomainError(err) && err._tag in ERROR_TABLE) return fromDomainError(err);
  const status = statusOf(err);
  if (status === undefined || status < 400 || status > 499) return undefined;
  const kind = CLIENT_STATUS_KINDS[status] ?? 'validation_error';
  return new ApiError(kind, GENERIC_MESSAGES[kind] ?? `The request failed (${ERROR_TABLE[kind].code})`);
};
