/**
 * The client's errors (packages/client/README.md, "Errors"). An answer of the
 * API is never thrown by `client.GET/POST/…`: it is `{ error }`, typed per
 * operation. What is thrown: an answer that never came (connection, timeout),
 * an API error turned into an exception on request (`unwrap`, `paginate`, the
 * sandbox helpers), and a webhook that does not verify.
 */

/** The API's error body (docs/decisions/errors.md): `{ error: { code, message, request_id, details? } }`. */
export interface ApiErrorBody<C extends string = string> {
  readonly error: {
    readonly code: C;
    readonly message: string;
    readonly request_id: string;
    readonly details?: ReadonlyArray<{ readonly path: string; readonly message: string }>;
  };
}

/** An error answer of the API, thrown: its `code` (typed by the operation when it comes from `unwrap`), `status` and `requestId`. */
export class DebtkitApiError<C extends string = string> extends Error {
  override readonly name = 'DebtkitApiError';
  readonly code: C;
  readonly status: number;
  /** The answer's `X-Request-Id`: quote it when asking about this request. */
  readonly requestId: string;
  readonly details: ReadonlyArray<{ readonly path: string; readonly message: string }>;

  constructor(status: number, body: ApiErrorBody<C>) {
    super(`${body.error.code} (${status}): ${body.error.message} [request ${body.error.request_id}]`);
    this.code = body.error.code;
    this.status = status;
    this.requestId = body.error.request_id;
    this.details = body.error.details ?? [];
  }
}

/** fetch's error and what it wraps ("fetch failed: connect ECONNREFUSED 127.0.0.1:3000"). */
const describe = (cause: unknown): string => {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
  return `${cause.message}${inner}`;
};

/** No answer: the connection failed or was cut, after the retries the method allows. `cause` is fetch's own error. */
export class DebtkitConnectionError extends Error {
  override readonly name = 'DebtkitConnectionError';
  readonly attempts: number;
  constructor(method: string, url: string, attempts: number, cause: unknown) {
    super(`${method} ${url}: no answer after ${attempts} attempt${attempts === 1 ? '' : 's'} (${describe(cause)})`, { cause });
    this.attempts = attempts;
  }
}

/** No answer within the client's `timeoutMs`, after the retries the method allows. */
export class DebtkitTimeoutError extends Error {
  override readonly name = 'DebtkitTimeoutError';
  readonly attempts: number;
  readonly timeoutMs: number;
  constructor(method: string, url: string, attempts: number, timeoutMs: number) {
    super(`${method} ${url}: no answer within ${timeoutMs} ms after ${attempts} attempt${attempts === 1 ? '' : 's'}`);
    this.attempts = attempts;
    this.timeoutMs = timeoutMs;
  }
}

/** Why a webhook did not verify. */
export type WebhookVerificationCode =
  | 'missing_header'
  | 'invalid_secret'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'invalid_signature'
  | 'invalid_body'
  | 'unexpected_api_version';

/** A webhook that must not be trusted (bad signature, old timestamp…), or not of the version the receiver expects. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly code: WebhookVerificationCode;
  constructor(code: WebhookVerificationCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Whether `e` is an API error, with one of `codes` when given: narrows `code`. */
export const isApiError = <C extends string>(e: unknown, ...codes: ReadonlyArray<C>): e is DebtkitApiError<C> =>
  e instanceof DebtkitApiError && (codes.length === 0 || codes.includes(e.code as C));
