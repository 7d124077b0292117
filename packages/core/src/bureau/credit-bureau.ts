import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { BureauError, Unavailable, ValidationError } from '../shared/errors.js';
import type { UserRecord } from '../users/user.js';
import type { AccountRecord } from '../accounts/account.js';
import type { CreditReport } from './credit-report.js';
import type { IsoDate } from '../shared/primitives.js';

export interface IdentityAnswers {
  readonly ssn_last4: string;
  readonly date_of_birth: IsoDate;
}

/**
 * What a bureau can answer instead of a result: it refuses (`bureau_error`), rejects the
 * input (`validation_error`), or cannot be reached. Each method names the ones it answers
 * (docs/decisions/errors.md).
 */
export type BureauFailure = BureauError | ValidationError | Unavailable;

/** A credit bureau, as the authentication flow needs it. */
export interface CreditBureau {
  /** Find the bureau product for the user; `bureau_error` when nothing matches. */
  invoke(user: UserRecord, deviceIp: string): TE.TaskEither<BureauError | Unavailable, void>;
  /** Whether the one-time password is right. */
  verifyOtp(user: UserRecord, code: string): TE.TaskEither<Unavailable, boolean>;
  /** Check the identity answers; `validation_error` when they do not match. */
  verifyIdentity(user: UserRecord, answers: IdentityAnswers): TE.TaskEither<ValidationError | Unavailable, void>;
  /** Delete the partial identity and consent; `validation_error` when it cannot be deleted. */
  deleteIdentity(user: UserRecord): TE.TaskEither<ValidationError | Unavailable, void>;
  /** The user's credit report as of `today`. */
  fetchReport(
    user: UserRecord,
    accounts: ReadonlyArray<AccountRecord>,
    today: IsoDate,
  ): TE.TaskEither<BureauError | Unavailable, CreditReport>;
}
