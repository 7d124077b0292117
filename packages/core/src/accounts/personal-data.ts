/**
 * The account's row of personal data (docs/decisions/tenancy.md, erasure): everything but `id`, `type`,
 * `subtype`, `status` and `last_updated_at` is emptied in an erased user's events. The registry's
 * table (`registry/erasure.ts`) lists it.
 */
import { Account } from './account.js';
import type { PersonalDataRow } from '../users/erasure.js';

const KEPT_ACCOUNT_FIELDS: ReadonlySet<string> = new Set(['id', 'type', 'subtype', 'status', 'last_updated_at']);

export const ACCOUNT_PERSONAL_DATA: PersonalDataRow = {
  codec: Account,
  fields: Object.keys(Account.props).filter((f) => !KEPT_ACCOUNT_FIELDS.has(f)),
};
