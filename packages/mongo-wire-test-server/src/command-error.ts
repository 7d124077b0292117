import type { Document } from 'mongodb';

/**
 * Server error codes the wire test server answers with. Numbers and names are
 * MongoDB's own (src/mongo/base/error_codes.yml), so the driver builds the same
 * `MongoServerError` (code, codeName) a real server would cause.
 */
export const ErrorCode = {
  InternalError: 1,
  NoSuchKey: 4,
  Unauthorized: 13,
  BadValue: 2,
  FailedToParse: 9,
  TypeMismatch: 14,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  MaxTimeMSExpired: 50,
  WriteConflict: 112,
  TransactionTooOld: 225,
  NoSuchTransaction: 251,
  TransactionCommitted: 256,
  OperationNotSupportedInTransaction: 263,
  ConflictingOperationInProgress: 117,
  FailPointSetFailed: 65,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CannotCreateIndex: 67,
  InvalidIndexSpecificationOption: 197,
  CommandNotSupported: 115,
  UnsupportedOpQueryCommand: 352,
  DuplicateKey: 11000,
  IDLUnknownField: 40415,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;

/**
 * A command failure that becomes `{ ok: 0, errmsg, code, codeName }` (or one
 * entry of `writeErrors` for write commands). Anything else thrown by a handler
 * is a bug of this server and is answered as InternalError.
 */
export class CommandError extends Error {
  readonly code: number;

  constructor(
    readonly codeName: ErrorCodeName,
    message: string,
    /** Extra fields of the error document (e.g. keyPattern/keyValue of a duplicate key, errorLabels). */
    readonly details: Document = {},
  ) {
    super(message);
    this.name = 'CommandError';
    this.code = ErrorCode[codeName];
  }

  /** The reply of a failed command. */
  toReply(): Document {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.details };
  }

  /** One entry of a write command's `writeErrors` (the command itself answers ok: 1). */
  toWriteError(index: number): Document {
    return { index, code: this.code, errmsg: this.message, ...this.details };
  }
}
