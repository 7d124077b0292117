/**
 * The sandbox credit bureau (docs/api/reference.md): a simulated bureau with documented
 * magic values, like Plaid's sandbox credentials.
 *
 * - last name "Nomatch" (any case): invoke → `bureau_error` (no product match)
 * - last name "Locked" (any case): deleting the identity fails → `validation_error`
 * - one-time code `123456` passes, any other code fails
 * - identity: any 4-digit `ssn_last4`; `date_of_birth` must equal the user's when the user has one
 * - the report is derived from the user's linked accounts (core's docs/decisions/payoff-and-outlook.md function)
 */
import { injectable } from 'inversify';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { CreditBureau, bureauError, deriveCreditReport, validationError } from '@debtkit/core';

export const SANDBOX_OTP = '123456';
export const NOMATCH_LAST_NAME = 'nomatch';
export const LOCKED_LAST_NAME = 'locked';

const hasLastName = (lastName: string, magic: string): boolean => lastName.trim().toLowerCase() === magic;

@injectable()
export class SandboxCreditBureau implements CreditBureau {
  invoke: CreditBureau['invoke'] = (user) =>
    hasLastName(user.last_name, NOMATCH_LAST_NAME)
      ? TE.left(bureauError('The bureau found no product matching this user'))
      : TE.right(undefined);

  verifyOtp: CreditBureau['verifyOtp'] = (_user, code) => TE.right(code === SANDBOX_OTP);

  verifyIdentity: CreditBureau['verifyIdentity'] = (user, answers) =>
    user.date_of_birth !== null && user.date_of_birth !== answers.date_of_birth
      ? TE.left(validationError('Identity does not match', [{ path: 'date_of_birth', message: "does not match the user's date of birth" }]))
      : TE.right(undefined);

  deleteIdentity: CreditBureau['deleteIdentity'] = (user) =>
    hasLastName(user.last_name, LOCKED_LAST_NAME) ? TE.left(validationError('The identity cannot be deleted')) : TE.right(undefined);

  fetchReport: CreditBureau['fetchReport'] = (_user, accounts, today) => TE.right(deriveCreditReport(accounts, today));
}
