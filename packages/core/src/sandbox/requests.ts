/**
 * The sandbox feature's request codecs (SandboxAdvanceBody): what its operations accept, the single source
 * of truth the HTTP adapter decodes with and the OpenAPI document is generated from (shared/requests.ts holds
 * the kernel's shared pieces: page fields, query integers and ids). Objects are strict: unknown fields are rejected.
 */
import type * as t from 'io-ts';
import { PaymentPlanId } from '../shared/primitives.js';
import { boundedInt, strictObject } from '../shared/codec.js';
import { SandboxPayments } from '../users/user.js';
import { MAX_ADVANCE_MONTHS } from './sandbox-clock.js';

/** `POST /api/users/{id}/sandbox/advance` (docs/sandbox-over-time.md): 1 to 12 months a call; `payment_plan_id` with `payments: "plan"` only. */
export const SandboxAdvanceBody = strictObject(
  'SandboxAdvanceBody',
  { months: boundedInt(1, MAX_ADVANCE_MONTHS), payments: SandboxPayments },
  { payment_plan_id: PaymentPlanId },
);
export type SandboxAdvanceBody = t.TypeOf<typeof SandboxAdvanceBody>;
