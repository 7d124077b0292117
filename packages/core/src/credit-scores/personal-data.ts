/**
 * The credit score's row of personal data (docs/decisions/tenancy.md, erasure): its `last_name`. The
 * registry's table (`registry/erasure.ts`) lists it.
 */
import { CreditScore } from './credit-score.js';
import type { PersonalDataRow } from '../users/erasure.js';

export const CREDIT_SCORE_PERSONAL_DATA: PersonalDataRow = { codec: CreditScore, fields: ['last_name'] };
